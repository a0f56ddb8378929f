"""House-edge tables: one rule set on one shoe, several side by side, by number of decks, and
on the shoe in play."""

from __future__ import annotations

from ..questions.analysis import analyse, bet_row, is_positive  # noqa: F401  (is_positive: read here by the replay's view)
from ..bets.bet import INDEPENDENT, RuleSet
from ..routes.counts import evaluate
from ..game.cards import Shoe, shoe_in_play
from ..base.errors import Unsatisfiable
from ..game.knowledge import NOTHING, Knowledge
from ..base.lazy import LazyModule
from ..render import Column, View, decimal, payout_text, percent, percent_text
from . import given, known_data, shoe_data

engine = LazyModule("analyzer.game.engine")  # with numpy: not loaded where lean.py answers


def model_note(bets) -> str:
    """The model under which the figures of bets across coups are exact, naming them, or ''."""
    across = [bet.id for bet in bets if bet.series is not None]
    if not across:
        return ""
    named = ", ".join(across[:4]) + (f" and {len(across) - 4} more" if len(across) > 4 else "")
    return f"\nbets across coups ({named}): exact for {INDEPENDENT}"


def overlay_note(rows: list[dict]) -> str:
    """A line for each bet with a fee or multipliers (analysis.overlay_row): its return to
    player on stake and fee, and with multipliers its largest payout and what multiplied wins pay;
    '' where there is none. The house edge beside it is per unit staked, the fee counted."""
    notes = []
    for row in rows:
        if "rtp" not in row:
            continue
        parts = [f"fee {percent_text(row['fee'])} of the stake" if row["fee"] else "no fee",
                 f"return to player {percent(row['rtp'])}" + (" of stake and fee" if row["fee"] else "")]
        if "multipliers" in row:
            chance = row["largest_chance"]
            parts += [row["multipliers"],
                      f"largest payout {largest_text(row['largest_payout'])}"
                      + (f" (1 in {round(1 / chance):,} coups)" if chance else "") if row["largest_payout"] else "never wins",
                      f"multiplied wins pay {percent(row['multiplied_share'])} of the winnings"]
        notes.append(f"\n{row['name']}: " + "; ".join(parts))
    return "".join(notes) + ("\n(house edge: per unit staked, the fee counted)" if notes else "")


def largest_text(pays) -> str:
    """A largest payout as read: ``512:1``, ``486.4:1``.

    >>> from fractions import Fraction
    >>> largest_text(Fraction(2432, 5)), largest_text(Fraction(512))
    ('486.4:1', '512:1')
    >>> largest_text(Fraction(1310720))
    '1,310,720:1'
    """
    return f"{pays.numerator:,}:1" if pays.denominator == 1 else f"{decimal(pays, 4).rstrip('0').rstrip('.')}:1"


EDGE_COLUMNS = [
    Column("name", "bet"),
    Column("pays_brief", "pays"),
    Column("win", "win", "percent"),
    Column("push", "push", "percent"),
    Column("loss", "loss", "percent"),
    Column("ev", "EV", "percent", wide=True),
    Column("house_edge", "house edge", "percent"),
    Column("house_edge_resolved", "edge per resolved bet", "percent", wide=True),
    Column("variance", "SD", "sd", wide=True),
    Column("hits_one_in", "hits 1 in", "one_in", wide=True),
]


def line_rows(row: dict) -> list[dict]:
    """One row per pay line of a bet that has several: its payout and its share of win or push."""
    if len(row["lines"]) < 2:
        return []
    return [{"bet": row["bet"], "line": ln["label"], "name": f"· {ln['label']}", "pays_brief": ln.get("written") or payout_text(ln["pays"]),
             ("push" if ln["pays"] == 0 else "win"): ln["probability"]} for ln in row["lines"]]


def edge(rules: RuleSet, shoe: Shoe, knowledge: Knowledge = NOTHING) -> View:
    """The house-edge table of every bet of ``rules`` on ``shoe`` (given ``knowledge`` of the
    coup's cards); a bet with several pay lines is followed by one row per line. A compiled rule
    set is answered by its polynomials (analysis.analyse)."""
    results = analyse(rules, shoe, knowledge)
    total = results[0].total if results else engine.enumerate_coup(shoe, rules.tableau, knowledge).total
    rows = [bet_row(result) for result in results]
    return View(
        title=f"House edge: rules {rules.name} ({rules.description}); shoe {shoe.describe()}{given(knowledge)}"
              + model_note(rules.bets) + overlay_note(rows),
        columns=EDGE_COLUMNS,
        rows=[shown for row in rows for shown in [row] + line_rows(row)],
        data={"rules": rules.name, "description": rules.description, "tableau": rules.tableau.name,
              "shoe": shoe_data(shoe), **known_data(knowledge), "total": total, "bets": rows},
    )


def compare(variants: list[tuple[str, RuleSet, Shoe]], shared_only: bool = False, knowledge: Knowledge = NOTHING,
            also=frozenset()) -> View:
    """The house edge of each bet under several (label, rules, shoe) variants, side by side (given
    ``knowledge`` of the coup's cards); with ``shared_only``, only the bets that at least two
    variants have, and those of ``also`` (ids)."""
    edges = [{r.bet.id: r for r in labelled(label, lambda: analyse(rules, shoe, knowledge))} for label, rules, shoe in variants]
    bets = list({r.bet.id: r.bet for by_id in edges for r in by_id.values()}.values())
    if shared_only:
        bets = [bet for bet in bets if sum(bet.id in by_id for by_id in edges) >= 2 or bet.id in also]
    rows = [
        {"bet": bet.id, "name": bet.name,
         **{f"v{i}": (by_id[bet.id].house_edge if bet.id in by_id else None) for i, by_id in enumerate(edges)}}
        for bet in bets
    ]
    return View(
        title=f"House edge compared (ties and pushes counted as bets){given(knowledge)}" + model_note(bets),
        columns=[Column("name", "bet")] + [Column(f"v{i}", label, "percent") for i, (label, _, _) in enumerate(variants)],
        rows=rows,
        data={
            **known_data(knowledge),
            "columns": [{"label": label, "rules": rules.name, "shoe": shoe_data(shoe)} for label, rules, shoe in variants],
            "bets": [{"bet": row["bet"], "name": row["name"],
                      "house_edge": [row[f"v{i}"] for i in range(len(variants))]} for row in rows],
        },
    )


def labelled(label: str, compute):
    """``compute()``, an impossible knowledge error naming the column it came from."""
    try:
        return compute()
    except Unsatisfiable as exc:
        raise Unsatisfiable(f"{label}: {exc}") from None


def deck_label(decks: int) -> str:
    """``1 deck``, ``8 decks``."""
    return f"{decks} deck{'s' * (decks != 1)}"


def by_decks(rules: RuleSet, deck_counts: list[int], knowledge: Knowledge = NOTHING) -> View:
    """The house edge of each bet on full shoes of each number of decks, and its exact limit as
    the number of decks grows without end (cards dealt as if with replacement)."""
    labels = [deck_label(d) for d in deck_counts] + ["infinite"]
    dists = [engine.possible_coup(Shoe.decks(d), rules.tableau, knowledge) for d in deck_counts] \
        + [engine.infinite_deck(rules.tableau, knowledge)]
    rows = [{"bet": bet.id, "name": bet.name,
             **{f"d{i}": dist and evaluate(bet, dist).house_edge for i, dist in enumerate(dists)}} for bet in rules.bets]
    return View(
        title=f"House edge by number of decks: rules {rules.name} (infinite: the exact limit as decks grow without end)"
              f"{given(knowledge)}" + ("; a blank column: those decks cannot deal the known cards" if None in dists else ""),
        columns=[Column("name", "bet")] + [Column(f"d{i}", label, "percent") for i, label in enumerate(labels)],
        rows=rows,
        data={"rules": rules.name, "decks": deck_counts + ["infinite"], **known_data(knowledge),
              "bets": [{"bet": r["bet"], "name": r["name"], "house_edge": [r[f"d{i}"] for i in range(len(dists))]}
                       for r in rows]},
    )


def now(rules: RuleSet, shoe: Shoe, dealt, positive_only: bool = False, knowledge: Knowledge = NOTHING) -> View:
    """Every bet's exact edge on the next coup from the cards left (given ``knowledge`` of that
    coup's cards), and which bets are positive (with ``positive_only``, the table holds those alone)."""
    left = shoe_in_play(shoe, dealt)
    view = edge(rules, left, knowledge)
    positive = [row["bet"] for row in view.data["bets"] if is_positive(row["ev"])]
    if positive_only:
        view = edge(rules.only(positive), left, knowledge)
    view.title = (f"Next coup after {len(dealt)} cards dealt: shoe {left.describe()}; rules {rules.name}{given(knowledge)}\n"
                  f"Positive expectation: {', '.join(positive) or 'none'}"
                  + model_note(rules.only(positive).bets if positive_only else rules.bets))
    view.data |= {"dealt": len(dealt), "positive": positive}
    return view
