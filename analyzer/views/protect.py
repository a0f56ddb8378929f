"""Who played with an advantage (protect.py): each player's wagers, theoretical and realized win,
how his wager size follows EV, the chance of his expected win, and the model his wagers follow."""

from __future__ import annotations

from fractions import Fraction

from ..pit.protect import Review, model_short, model_title
from ..render import Column, View, percent
from ..pit.replay import card_text
from .edge import model_note


def protect(review: Review, group: str) -> View:
    """One row a player, flagged players first, then by their smallest chance."""
    rows, players = [], []
    for r in review.players:
        best = min((m.chance for m in r.models if m.chance), key=lambda c: c.adjusted)
        rows.append({"player": r.player, "wagers": r.wagered, "amount": r.amount, "theoretical": r.theoretical,
                     "realized": r.realized, "positive": r.share_positive,
                     "correlation": "-" if r.correlation is None else f"{r.correlation:.3f}",
                     "slope": "-" if r.slope is None else f"{r.slope / 100:,.4g}",
                     "chance": best.text(), "flag": (f"FLAG: {model_short(r.fits, group)}" if r.flagged else "")})
        players.append(player_data(r, group))
    flagged = sum(r.flagged for r in review.players)
    level = percent(review.level, 2)
    return View(
        title=f"Game protection: {len(review.players)} player{'s' * (len(review.players) != 1)}, "
              f"{sum(r.wagered for r in review.players):,} wagers on {review.coups:,} coups"
              f"{f' ({review.pending:,} on the coming coup set aside)' if review.pending else ''}; {flagged} flagged at "
              f"the {level} level. Win is the house's (theoretical: amount x house edge at each wager's moment, "
              "exact). Chance: that the same wagers, placed at random coups of the same shoes, would have "
              f"expected as much (exact, or from {review.samples:,} random placements ± its standard error), the "
              "smallest of the tests, times the tests weighed (flagged at or below the level)" + model_note(review.bets),
        columns=[Column("player", "player"), Column("wagers", "wagers", "count"), Column("amount", "wagered", "units"),
                 Column("theoretical", "theoretical win", "units"), Column("realized", "realized win", "units"),
                 Column("positive", "wagered at +EV", "percent", wide=True), Column("correlation", "size ~ EV (r)"),
                 Column("slope", "per +1% EV", wide=True), Column("chance", "chance"), Column("flag", "flag / model")],
        rows=rows,
        data={"level": review.level, "samples": review.samples, "tables": review.tables, "coups": review.coups,
              "pending": review.pending,
              "group": group, "players": players},
    )


def sessions_table(review: Review) -> View:
    """One row a session (a player's wagers at a table in a shoe), players in the review's order."""
    rows = [{"player": r.player, **s, "seats": ", ".join(s["seats"]), "coups": f"{s['first_coup']}-{s['last_coup']}",
             "flag": "FLAG" if r.flagged else ""} for r in review.players for s in r.sessions]
    return View(title=f"Game protection: {len(rows):,} sessions of {len(review.players):,} players (a session: a player's "
                      "wagers at a table in a shoe). Win is the house's",
                columns=[Column("player", "player"), Column("table", "table"), Column("shoe", "shoe"),
                         Column("coups", "coups"), Column("seats", "seat"), Column("wagers", "wagers", "count"),
                         Column("amount", "wagered", "units"), Column("theoretical", "theoretical win", "units"),
                         Column("realized", "realized win", "units"), Column("flag", "player flagged")],
                rows=rows, data={"sessions": [{"player": row["player"], **{k: row[k] for k in (
                    "table", "shoe", "first_coup", "last_coup", "wagers", "amount", "theoretical", "realized")},
                    "seats": row["seats"].split(", ") if row["seats"] else [], "flagged": bool(row["flag"])}
                    for row in rows]})


def player_data(r, group: str) -> dict:
    """A player's review as JSON: his figures, sessions, each model's fit and the coups behind
    a flag (his wagers at positive EV by the model that fits, largest expected win first)."""
    return {"player": r.player, "wagers": r.wagered, "amount": r.amount, "theoretical_win": r.theoretical,
            "realized_win": r.realized, "share_positive": r.share_positive, "correlation": r.correlation,
            "slope": r.slope, "chance": r.chance.data(), "flagged": r.flagged,
            "model": r.fits or None, "model_title": model_title(r.fits, group) if r.fits else None,
            "models": [{"model": m.name, "title": model_title(m.name, group), "correlation": m.correlation,
                        "correlation_with_innovation": m.beyond,
                        "share_positive": m.share_positive, "expected_win": m.expected_win,
                        **({"chance": m.chance.data()} if m.chance else {})} for m in r.models],
            "sessions": r.sessions,
            "coups": flag_coups(r),
            "wager_list": [wager_data(p) for p in r.wagers]}


def flag_coups(r) -> list[dict]:
    """The wagers behind a review: those at positive EV by the model that fits his wagers (the
    shoe before the coup where none is named), largest expected win first (at most
    protect.SHOWN_COUPS); ``model_ev`` the EV by that model, ``ev`` before the coup."""
    from ..pit.protect import SHOWN_COUPS

    model = next((m for m in r.models if m.name == (r.fits or "counting")))
    placed = sorted(((p, ev) for p, ev in zip(r.wagers, model.evs) if ev > 0), key=lambda pe: -(pe[0].wager.amount * pe[1]))
    return [wager_data(p) | {"model_ev": ev} for p, ev in placed[:SHOWN_COUPS]]


def wager_data(p) -> dict:
    w = p.wager
    return {"line": w.line, "table": w.table, "shoe": w.shoe, "coup": w.coup, "seat": w.seat, "bet": w.bet,
            "amount": w.amount, "ev": p.ev, "net": p.net, "cards": [card_text(c) for c in p.coup.cards],
            "cards_left": p.coup.before.size}


def wagers_view(review: Review) -> View:
    """Every wager with its exact EV and what it paid (the workbook's sheet)."""
    rows = []
    for r in review.players:
        for p in r.wagers:
            w = p.wager
            rows.append({"player": w.player, "table": w.table, "shoe": w.shoe, "coup": w.coup, "seat": w.seat,
                         "bet": w.bet, "amount": w.amount, "cards": " ".join(card_text(c) for c in p.coup.cards),
                         "ev": p.ev, "edge": -p.ev, "net": p.net, "theoretical": -w.amount * p.ev,
                         "realized": -w.amount * p.net})
    return View(title="Every wager with its exact EV before its coup",
                columns=[Column("player", "player"), Column("table", "table"), Column("shoe", "shoe"),
                         Column("coup", "coup", "count"), Column("seat", "seat"), Column("bet", "bet"),
                         Column("amount", "amount", "units"), Column("cards", "cards"), Column("ev", "EV", "percent"),
                         Column("edge", "house edge", "percent"), Column("net", "paid (units)", "units"),
                         Column("theoretical", "theoretical win", "units"), Column("realized", "realized win", "units")],
                rows=rows)


def models_view(r, group: str) -> View:
    rows = [{"model": model_title(m.name, group), "correlation": "-" if m.correlation is None else f"{m.correlation:.3f}",
             "beyond": "-" if m.beyond is None else f"{m.beyond:.3f}",
             "positive": m.share_positive, "expected": m.expected_win, "chance": m.chance.text() if m.chance else "-"}
            for m in r.models]  # an information model's share and expected win: where it is the one named
    return View(title=f"Models of {r.player}'s wagers", rows=rows,
                columns=[Column("model", "model"), Column("correlation", "size ~ EV (r)"),
                         Column("beyond", "size ~ its innovation (r)"), Column("positive", "wagered at +EV", "percent"), Column("expected", "expected win (player)", "units"),
                         Column("chance", "chance")])


def coups_view(r, group: str) -> View:
    rows = [{"table": d["table"], "shoe": d["shoe"], "coup": d["coup"], "cards": " ".join(d["cards"]), "bet": d["bet"],
             "amount": d["amount"], "ev": d["ev"], "model_ev": d["model_ev"], "expected": d["amount"] * d["model_ev"]}
            for d in flag_coups(r)]
    by = f" by {model_title(r.fits, group)}" if r.fits and r.fits != "counting" else ""
    return View(title=f"The coups behind {r.player}'s review: his wagers at positive EV{by}, largest expected win first",
                rows=rows, columns=[Column("table", "table"), Column("shoe", "shoe"), Column("coup", "coup", "count"),
                                    Column("cards", "cards"), Column("bet", "bet"), Column("amount", "amount", "units"),
                                    Column("ev", "EV before the coup", "percent"),
                                    Column("model_ev", "EV by the model", "percent"),
                                    Column("expected", "expected win", "units")])


def sessions_view(r) -> View:
    rows = [{**s, "seats": ", ".join(s["seats"]), "coups": f"{s['first_coup']}-{s['last_coup']}"} for s in r.sessions]
    return View(title=f"{r.player}'s sessions", rows=rows,
                columns=[Column("table", "table"), Column("shoe", "shoe"), Column("coups", "coups"),
                         Column("seats", "seat"), Column("wagers", "wagers", "count"),
                         Column("amount", "wagered", "units"), Column("theoretical", "theoretical win", "units"),
                         Column("realized", "realized win", "units")])


def cumulative(r) -> tuple[list[Fraction], list[Fraction]]:
    """The house's theoretical and realized win after each of a player's wagers, in order of
    table, shoe and coup."""
    theo, real, t, x = [], [], Fraction(0), Fraction(0)
    for p in sorted(r.wagers, key=lambda p: (p.wager.table, p.wager.shoe, p.wager.coup)):
        t -= p.wager.amount * p.ev
        x -= p.wager.amount * p.net
        theo.append(t)
        real.append(x)
    return theo, real


def workbook(review: Review) -> bytes:
    """Every wager with its exact EV, as an .xlsx workbook (the report's workbook format)."""
    from .. import __version__
    from ..report.document import Report, Table
    from ..report.xlsx import as_xlsx

    sheet = wagers_view(review)
    return as_xlsx(Report("Wagers with their exact EV", (Table("wagers", sheet),), {"version": __version__,
                                                                                    "kind": "Game protection review"}))
