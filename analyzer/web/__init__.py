"""`baccarat serve`: the shoe in play and a side-bet designer in the browser.

app      the Flask application: a page (static/, plain HTML, CSS and JavaScript: no build step,
         nothing fetched from elsewhere) and a JSON API over the library.
api      what each endpoint reads from a request, checked, and the library calls it makes;
         api.Limits: what one request may ask (its size, the shoe, the rate of one client).
serving  the server: waitress for HTTP, worker processes that compute, each within a time and a
         memory limit, replaced when it breaks one; warm: what they have compiled from the start.
openapi  the API's description, served at /api/openapi.json.

The server keeps no state between requests: each request carries the rule set, the shoe and
the cards dealt, so that concurrent users never see each other's shoes and a page can be
reloaded or shared. Exact values travel as ``"p/q"`` strings (render.to_json), beside the
decimals a table of the command line prints for them, so that the page shows what
``baccarat now`` and ``baccarat edge`` show.
"""
