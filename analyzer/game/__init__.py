"""The game itself: cards and shoes (``cards``), the drawing rules as data (``tableau``), what is
known of the coming cards (``knowledge``), the coup's layout - the tableau applied once, each
place keeping only the card detail asked of it (``layout``) - and the enumerator, which walks
every draw sequence of a coup from a shoe and gives the exact joint distribution every bet is a
function of (``engine``). It imports only ``base``. A new drawing rule or a new card attribute
goes here."""
