"""A shoe replayed coup by coup (replay.py): every bet's exact figures before each coup, as `now`
gives them, the coup's result, and the bets that were positive."""

from __future__ import annotations

from fractions import Fraction

from ..bets.bet import RuleSet
from ..game.cards import Shoe
from ..base.errors import BaccaratError
from ..render import Column, View, percent
from ..pit.replay import ShoeDealt, card_text, result_of, steps
from . import shoe_data
from .edge import edge, is_positive, model_note


def replay(rules: RuleSet, start: Shoe, shoes: list[ShoeDealt]) -> View:
    """Each coup of ``shoes`` (each dealt from ``start``): the figures of every bet before it,
    from the shoe less every card seen before it (burn included), then what it dealt."""
    if not any(s.coups for s in shoes):
        raise BaccaratError("the file holds no coup (one a line: its 4 to 6 cards in dealing order)")
    coups, rows = [], []
    several = len(shoes) > 1
    for step in steps(start, shoes, rules.tableau):
        figures = edge(rules, step.before).data["bets"]
        positive = [(row["bet"], row["ev"]) for row in figures if is_positive(row["ev"])]
        positive.sort(key=lambda pair: -pair[1])
        winner, player, banker = result_of(step.coup.cards, rules.tableau)
        cards = [card_text(c) for c in step.coup.cards]
        coups.append({"shoe": step.shoe, "coup": step.number, "line": step.coup.line, "cards": cards,
                      "cards_left": step.cards_left, "after_cut": step.coup.after_cut,
                      "result": {"winner": winner, "player_total": player, "banker_total": banker},
                      "positive": [bet for bet, _ in positive], "bets": figures})
        rows.append({"shoe": step.shoe, "coup": step.number, "cards": " ".join(cards), "left": step.cards_left,
                     "result": result_text(winner, player, banker) + (" (after the cut)" if step.coup.after_cut else ""),
                     "positive": ", ".join(f"{bet} {percent(ev)}" for bet, ev in positive) or "-"})
    columns = ([Column("shoe", "shoe")] if several else []) + [
        Column("coup", "coup", "count"), Column("cards", "cards"), Column("left", "cards left", "count"),
        Column("result", "result"), Column("positive", "positive before it (EV)")]
    count = sum(len(s.coups) for s in shoes)
    voided = [{"shoe": s.name} | v for s in shoes for v in s.voided]
    struck = "".join(f". Coup {v['coup']} ({' '.join(v['cards'])}, event {v['dealt']}) was voided by event {v['void']}"
                     for v in voided)
    return View(
        title=f"Replay of {count} coup{'s' * (count != 1)}{f' in {len(shoes)} shoes' if several else ''}: shoe "
              f"{start.describe()} at the start; rules {rules.name}. Each coup's figures are taken before it, from "
              "the cards left less those seen (a card burned face down is not seen)" + model_note(rules.bets) + struck,
        columns=columns,
        rows=rows,
        data={"rules": rules.name, "tableau": rules.tableau.name, "shoe": shoe_data(start),
              "shoes": [{"shoe": s.name, "burned": [card_text(c) for c in s.burned], "face_down": s.face_down,
                         "cut_after_coup": s.cut} for s in shoes],
              "coups": coups, **({"voided": voided} if voided else {})},
    )


def result_text(winner: str, player: int, banker: int) -> str:
    """'Banker 8-5', 'Player 7-2', 'Tie 6-6' (the winner's total first).

    >>> result_text("banker", 5, 8), result_text("tie", 6, 6)
    ('Banker 8-5', 'Tie 6-6')
    """
    high, low = max(player, banker), min(player, banker)
    return f"{winner.capitalize()} {high}-{low}"


def workbook(view: View) -> bytes:
    """A replay as an .xlsx workbook: the coups (as the table shows them), and every bet's exact
    EV and house edge before every coup ("p/q" text, and the nearest decimal as a number, for
    sorting and charts)."""
    import io

    import xlsxwriter

    out = io.BytesIO()
    book = xlsxwriter.Workbook(out, {"in_memory": True, "strings_to_numbers": False, "strings_to_formulas": False,
                                     "strings_to_urls": False})
    bold = book.add_format({"bold": True})
    sheet = book.add_worksheet("coups")
    headers = [c.header for c in view.columns]
    sheet.write_row(0, 0, headers, bold)
    for r, row in enumerate(view.rows, 1):
        sheet.write_row(r, 0, [row[c.key] for c in view.columns])
    figures = book.add_worksheet("figures")
    figures.write_row(0, 0, ["shoe", "coup", "cards", "bet", "EV (exact)", "EV", "house edge (exact)", "house edge"], bold)
    r = 1
    for coup in view.data["coups"]:
        for bet in coup["bets"]:
            ev, edge = bet["ev"], bet["house_edge"]
            figures.write_row(r, 0, [coup["shoe"], coup["coup"], " ".join(coup["cards"]), bet["bet"], str(ev),
                                     float(ev) if isinstance(ev, Fraction) else None, str(edge),
                                     float(edge) if isinstance(edge, Fraction) else None])
            r += 1
    book.close()
    return out.getvalue()
