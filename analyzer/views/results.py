"""Each table's results over a period (results.py) as a table: a row a table, the pit's total
last; and one table's bets."""

from __future__ import annotations

from ..render import Column, View, decimal
from ..pit.results import Z_UNUSUAL, Results

COLUMNS = [Column("table", "table"), Column("wagers", "wagers", "count"), Column("coups", "coups", "count"),
           Column("handle", "handle", "money"), Column("win", "win", "money"),
           Column("theoretical", "theoretical win", "money"), Column("hold", "hold", "percent"),
           Column("theoretical_hold", "theo. hold", "percent"), Column("difference", "win - theo.", "money", wide=True),
           Column("variance", "SD of win", "sd_money"), Column("z", "z"), Column("flag", "unusual")]


def period_text(since: str | None, until: str | None) -> str:
    """The period in words.

    >>> period_text(None, None), period_text("2026-11-26T08:00:00Z", None)
    ('every wager kept', 'wagers kept from 2026-11-26T08:00:00Z')
    """
    if since and until:
        return f"wagers kept from {since} to {until}"
    if since or until:
        return f"wagers kept from {since}" if since else f"wagers kept before {until}"
    return "every wager kept"


def results_table(results: list[Results], since: str | None = None, until: str | None = None) -> View:
    """A row a table (the pit's tables taken together last, where there are several)."""
    rows = []
    for r in results:
        z = r.z
        rows.append({"table": r.table or "all tables", "wagers": r.wagers, "coups": r.coups, "handle": r.handle,
                     "win": r.win, "theoretical": r.theoretical, "hold": r.hold, "theoretical_hold": r.theoretical_hold,
                     "difference": r.win - r.theoretical, "variance": r.variance,
                     "z": "" if z is None else f"{z:+.2f}", "flag": "UNUSUAL" if z is not None and abs(z) >= Z_UNUSUAL else ""})
    pending = sum(r.pending for r in results if r.table)
    notes = [f"{pending:,} wager{'s' * (pending != 1)} on the coming coup set aside"] if pending else []
    bounded = sum(r.bounded for r in results if r.table)
    if bounded:
        notes.append(f"the SD of {bounded:,} coups is an upper bound (their bets read too much of the cards to be "
                     "counted together)")
    outside = sum(r.outside for r in results if r.table)
    if outside:
        notes.append(f"{outside:,} wagers on bets across coups are in the win, not in the SD")
    unsettled = sum(r.unsettled for r in results if r.table)
    if unsettled:
        notes.append(f"{unsettled:,} wagers on bets across coups set aside until their shoe is over")
    multiplied = sum(r.multiplied for r in results if r.table)
    if multiplied:
        notes.append(f"{multiplied:,} wagers on bets with multipliers set aside: the multipliers drawn are not kept")
    closed = sum(r.closed for r in results if r.table)
    if closed:
        notes.append(f"{closed:,} wagers on bets across coups set aside: placed where their rules close them")
    return View(
        title=f"Results, {period_text(since, until)}: win is the house's; theoretical win the sum of amount x house edge "
              "at each wager's moment (exact); SD of the win given the wagers, each coup's bets taken together "
              f"(exact variance; z = (win - theoretical) / SD, marked unusual at |z| >= {Z_UNUSUAL})"
              + "".join(f"; {n}" for n in notes),
        columns=COLUMNS,
        rows=rows,
        data={"since": since, "until": until, "tables": [shown(r) for r in results if r.table],
              **({"total": next(shown(r) for r in results if not r.table)} if any(not r.table for r in results) else {})},
    )


def shown(r: Results) -> dict:
    """The results' data (exact), with ``shown``: the same figures as decimals for a screen (amounts
    to the cent, holds to the hundredth of a per cent), rounded exactly.

    >>> from fractions import Fraction
    >>> shown(Results("bac-1", handle=Fraction(200), win=Fraction(41, 2), theoretical=Fraction(7, 3)))["shown"]
    {'handle': '200.00', 'win': '20.50', 'theoretical': '2.33', 'difference': '18.17', 'hold': '10.25', 'theoretical_hold': '1.17'}
    """
    data = r.data()
    figures = {key: decimal(data[key], 2) for key in ("handle", "win", "theoretical", "difference")}
    figures |= {key: None if data[key] is None else decimal(data[key] * 100, 2) for key in ("hold", "theoretical_hold")}
    return data | {"shown": figures}


def bets_table(r: Results) -> View:
    """One table's results bet by bet."""
    rows = [{"bet": bet, "wagers": n, "handle": handle, "win": win, "theoretical": theo,
             "hold": win / handle if handle else None, "theoretical_hold": theo / handle if handle else None}
            for bet, (n, handle, win, theo) in sorted(r.bets.items(), key=lambda item: -item[1][1])]
    return View(title=f"Table {r.table or 'all tables'} ({r.rules}), bet by bet",
                columns=[Column("bet", "bet"), Column("wagers", "wagers", "count"), Column("handle", "handle", "money"),
                         Column("win", "win", "money"), Column("theoretical", "theoretical win", "money"),
                         Column("hold", "hold", "percent"), Column("theoretical_hold", "theo. hold", "percent")],
                rows=rows, data={"table": r.table, "bets": rows})
