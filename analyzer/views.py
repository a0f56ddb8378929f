"""The questions a user asks, answered as Views (exact rows plus the JSON object) for render()."""

from __future__ import annotations

import math
from fractions import Fraction

from .bets import BetResult, RuleSet, analyse, evaluate, outcome_counts, payout_text, percent_text
from .cards import RANKS, BaccaratError, Shoe
from .engine import Unsatisfiable, enumerate_coup, infinite_deck, possible_coup
from .knowledge import NOTHING, POSITION_NAMES, Knowledge
from .render import Column, View, is_number, percent
from .rulefile import BUILT_IN, get_rules, tableau_grid
from .tableau import PUNTO_BANCO, Tableau


def shoe_data(shoe: Shoe) -> dict:
    return {"cards": shoe.size, "ranks": dict(zip(RANKS, shoe.rank_counts())), "description": shoe.describe()}


def given(knowledge: Knowledge) -> str:
    """The words a title adds for known cards (nothing when none are known)."""
    return f"\nKnown: {knowledge.describe()}" if knowledge else ""


def odds(shoe: Shoe, tableau: Tableau = PUNTO_BANCO, knowledge: Knowledge = NOTHING) -> View:
    """The probability of each main outcome of one coup (given ``knowledge`` of its cards)."""
    dist = enumerate_coup(shoe, tableau, knowledge)
    rows = [
        {"id": name, "outcome": label, "combinations": count, "probability": Fraction(count, dist.total)}
        for name, label, count in outcome_counts(dist)
    ]
    agree = " that agree with the known cards" if knowledge else ""
    return View(
        title=f"Outcomes of one coup: {shoe.describe()}; {dist.total:,} ordered 6-card sequences{agree}{given(knowledge)}",
        columns=[Column("outcome", "outcome"), Column("combinations", "combinations", "count"),
                 Column("probability", "probability", "percent")],
        rows=rows,
        data={
            "shoe": shoe_data(shoe),
            "tableau": tableau.name,
            **known_data(knowledge),
            "total": dist.total,
            "outcomes": {r["id"]: {"combinations": r["combinations"], "probability": r["probability"]} for r in rows},
        },
    )


def known_data(knowledge: Knowledge) -> dict:
    """The JSON key for known cards: position -> what is known (only when something is)."""
    return {"known": knowledge.data()} if knowledge else {}


def bet_row(result: BetResult) -> dict:
    """Every figure of a bet's house-edge table, exact."""
    bet = result.bet
    return {
        "bet": bet.id,
        "name": bet.name,
        "pays": bet.pay_table(),
        "pays_brief": bet.pay_table(brief=True),
        "source": bet.source,
        "lines": [
            {"label": ln.label, "pays": ln.pays, "probability": p}
            for ln, p in zip(bet.lines, result.line_probabilities)
        ],
        "win": result.win,
        "push": result.push,
        "loss": result.loss,
        "ev": result.ev,
        "house_edge": result.house_edge,
        "house_edge_resolved": result.house_edge_resolved,
        "variance": result.variance,
        "hits_one_in": result.hits_one_in,
    }


EDGE_COLUMNS = [
    Column("name", "bet"),
    Column("pays_brief", "pays"),
    Column("win", "win", "percent"),
    Column("push", "push", "percent"),
    Column("loss", "loss", "percent"),
    Column("ev", "EV", "percent"),
    Column("house_edge", "house edge", "percent"),
    Column("house_edge_resolved", "edge per resolved bet", "percent"),
    Column("variance", "SD", "sd"),
    Column("hits_one_in", "hits 1 in", "one_in"),
]


def line_rows(row: dict) -> list[dict]:
    """One row per pay line of a bet that has several: its payout and its share of win or push."""
    if len(row["lines"]) < 2:
        return []
    return [{"bet": row["bet"], "line": ln["label"], "name": f"· {ln['label']}", "pays_brief": payout_text(ln["pays"]),
             ("push" if ln["pays"] == 0 else "win"): ln["probability"]} for ln in row["lines"]]


def edge(rules: RuleSet, shoe: Shoe, knowledge: Knowledge = NOTHING) -> View:
    """The house-edge table of every bet of ``rules`` on ``shoe`` (given ``knowledge`` of the
    coup's cards); a bet with several pay lines is followed by one row per line."""
    dist = enumerate_coup(shoe, rules.tableau, knowledge)
    rows = [bet_row(evaluate(bet, dist)) for bet in rules.bets]
    return View(
        title=f"House edge: rules {rules.name} ({rules.description}); shoe {shoe.describe()}{given(knowledge)}",
        columns=EDGE_COLUMNS,
        rows=[shown for row in rows for shown in [row] + line_rows(row)],
        data={"rules": rules.name, "description": rules.description, "tableau": rules.tableau.name,
              "shoe": shoe_data(shoe), **known_data(knowledge), "total": dist.total, "bets": rows},
    )


def compare(variants: list[tuple[str, RuleSet, Shoe]], shared_only: bool = False, knowledge: Knowledge = NOTHING) -> View:
    """The house edge of each bet under several (label, rules, shoe) variants, side by side (given
    ``knowledge`` of the coup's cards); with ``shared_only``, only the bets that at least two
    variants have."""
    edges = [{r.bet.id: r for r in labelled(label, lambda: analyse(rules, shoe, knowledge))} for label, rules, shoe in variants]
    bets = list({r.bet.id: r.bet for by_id in edges for r in by_id.values()}.values())
    if shared_only:
        bets = [bet for bet in bets if sum(bet.id in by_id for by_id in edges) >= 2]
    rows = [
        {"bet": bet.id, "name": bet.name,
         **{f"v{i}": (by_id[bet.id].house_edge if bet.id in by_id else None) for i, by_id in enumerate(edges)}}
        for bet in bets
    ]
    return View(
        title=f"House edge compared (ties and pushes counted as bets){given(knowledge)}",
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
    dists = [possible_coup(Shoe.decks(d), rules.tableau, knowledge) for d in deck_counts] \
        + [infinite_deck(rules.tableau, knowledge)]
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


def tableau_view(tableau: Tableau) -> View:
    """The Banker's drawing grid: D draw, S stand, by his two-card total and the Player's third
    card (or the Player stood)."""
    player = ", ".join(str(t) for t in range(10) if tableau.player_draws[t])
    chooses = [t for t in range(8) if tableau.player_options[t]]
    options = tableau.banker_option_cells()
    headers = [str(k) for k in range(10)] + ["stood"]
    return View(
        title=(f"Tableau {tableau.name}: the Player draws on {player}"
               + (f" (may choose on {', '.join(map(str, chooses))})" if chooses else "")
               + "; the Banker draws (D) or stands (S) by his total (rows) and the Player's third card (columns), "
               "or when the Player stood" + ("; * the Banker may choose (chemin de fer)" if options else "")),
        columns=[Column("banker", "Banker total")] + [Column(h, h) for h in headers],
        rows=[dict(zip(["banker"] + headers, row)) for row in tableau_grid(tableau)],
        data={"name": tableau.name, "player_draws": [t for t in range(10) if tableau.player_draws[t]],
              "banker": {str(t): "".join("DS"[not tableau.banker_draws[t][k]] for k in range(10))
                         + " " + "DS"[not tableau.banker_draws[t][10]] for t in range(8)}}
        | ({"player_options": chooses, "banker_options": [[t, "stood" if k == 10 else k] for t, k in options]}
           if chooses or options else {}),
    )


def shoe_view(shoe: Shoe) -> View:
    """The shoe's cards by rank."""
    return View(
        title=f"Shoe: {shoe.describe()}",
        columns=[Column(r, r, "count") for r in RANKS] + [Column("cards", "cards", "count")],
        rows=[dict(zip(RANKS, shoe.rank_counts())) | {"cards": shoe.size}],
        data=shoe_data(shoe),
    )


def rules_list() -> View:
    """The built-in rule sets."""
    rows = [{"name": name, "bets": len(r.bets), "tableau": r.tableau.name, "description": r.description}
            for name in BUILT_IN for r in [get_rules(name)]]
    return View(
        title="Built-in rule sets (use a name or a .toml file with --rules)",
        columns=[Column("name", "name"), Column("bets", "bets", "count"), Column("tableau", "tableau"),
                 Column("description", "description")],
        rows=rows,
        data={"rules": rows},
    )


def rules_show(rules: RuleSet) -> View:
    """A rule set's bets and pay tables, and its drawing tableau."""
    tableau = rules.tableau
    player = ", ".join(str(t) for t in range(10) if tableau.player_draws[t])
    options = any(tableau.player_options) or tableau.banker_option_cells()
    width = 2 if options else 1
    grid = "\n".join(f"  {row[0]}: {' '.join(c.ljust(width) for c in row[1:11])}{' ' * (3 - width)}| {row[11]}" for row in tableau_grid(tableau))
    chooses = [str(t) for t in range(8) if tableau.player_options[t]]
    player += f" (may choose on {', '.join(chooses)})" if chooses else ""
    rows = [{"bet": b.id, "name": b.name, "pays": b.pay_table(), "source": b.source} for b in rules.bets]
    return View(
        title=(f"Rule set {rules.name}: {rules.description}\nSource: {rules.source or '-'}\n"
               f"Tableau: {tableau.name}; Player draws on {player}; Banker draws (D) or stands (S)\n"
               f"  by Banker total, against the Player's third card 0-9 | when the Player stood"
               + ("; * the Banker may choose (chemin de fer)" if options else "") + f":\n{grid}"),
        columns=[Column("bet", "id"), Column("name", "name"), Column("pays", "pays"), Column("source", "source")],
        rows=rows,
        data={"name": rules.name, "description": rules.description, "source": rules.source,
              "tableau": tableau_view(tableau).data,
              "bets": [{"bet": b.id, "name": b.name, "pays": b.pay_table(), "source": b.source,
                        "commission": b.commission,
                        "lines": [{"label": ln.label, "pays": ln.pays} for ln in b.lines]} for b in rules.bets]},
    )


def solve(rules: RuleSet, shoe: Shoe, bet_id: str, vary: str | None, target_edge, match: str | None,
          knowledge: Knowledge = NOTHING) -> View:
    """The payout or commission of a bet that gives it a target house edge (default 0: break even),
    or the house edge of another bet (``match``), given ``knowledge`` of the coup's cards."""
    from . import symbolic

    bet = rules.bet(bet_id)
    dist = enumerate_coup(shoe, rules.tableau, knowledge)
    varied, x, what = symbolic.unknown(bet, vary)
    ev = evaluate(varied, dist).ev
    target = target_edge if match is None else evaluate(rules.bet(match), dist).house_edge
    if not is_number(target):
        raise BaccaratError(f"bet {match!r} has a symbolic payout; it cannot be matched")
    value = symbolic.solve_linear(ev, x, target, is_commission=vary == "commission")
    goal = f"the house edge of {match}" if match else f"a house edge of {percent(target)}"
    row = {"bet": bet.id, "vary": vary or str(x), "value": value, "house_edge": target,
           "ev_expression": str(ev), "question": f"{bet.name}: {what} for {goal}"}
    return View(
        title=f"Solve on {shoe.describe()}, rules {rules.name}: EV of {bet.name} = {ev}{given(knowledge)}",
        columns=[Column("question", "question"), Column("value", "value", "number"),
                 Column("house_edge", "house edge", "percent")],
        rows=[row],
        data={"rules": rules.name, "shoe": shoe_data(shoe), **known_data(knowledge), **row},
    )


def unit_kind(unit: str) -> str:
    """The column kind that shows effects of removal in ``unit`` (percent or permille)."""
    return "permille" if unit == "permille" else "fine"


def eor(rules: RuleSet, shoe: Shoe, unit: str = "percent", progress=None, knowledge: Knowledge = NOTHING) -> View:
    """The exact effect of removing one card of each rank on every bet (and on P(banker/player/tie)),
    given ``knowledge`` of the coming coup's cards."""
    from .eor import effect_of_removal

    removal = effect_of_removal(rules, shoe, progress, knowledge)
    kind = unit_kind(unit)
    rows = []
    for key, base in removal.base.items():
        by_rank = {RANKS[r]: (None if e is None else e[key]) for r, e in enumerate(removal.by_rank)}
        rows.append({"bet": key, "ev": base, **by_rank, "zero": removal.zero_class(key),
                     "sum_of_squares": removal.sum_of_squares(key), "sum_check": removal.check_sum(key)})
    bets = [r for r in rows if not r["bet"].startswith("P(")]
    outcomes = [r for r in rows if r["bet"].startswith("P(")]
    return View(
        title=(f"Effect of removing one card (change in EV per unit; + helps the bettor): rules {rules.name}; "
               f"shoe {shoe.describe()}\nzero = T/J/Q/K together; sum check = sum over ranks of cards left x EoR "
               f"(exactly 0)" + (given(knowledge) + "; each card's weight is also the chance of the known cards "
                                 "once it is gone" if knowledge else "")),
        columns=[Column("bet", "bet"), Column("ev", "EV", "percent")]
        + [Column(r, r, kind) for r in RANKS] + [Column("zero", "zero", kind),
                                                Column("sum_of_squares", "sum sq", "sci"),
                                                Column("sum_check", "sum check", "sci")],
        rows=rows,
        data={
            "rules": rules.name, "shoe": shoe_data(shoe), **known_data(knowledge),
            "bets": [{"bet": r["bet"], "ev": r["ev"], "eor": {k: r[k] for k in RANKS}, "zero": r["zero"],
                      "sum_of_squares": r["sum_of_squares"], "sum_check": r["sum_check"]} for r in bets],
            "outcomes": [{"outcome": r["bet"][2:-1], "probability": r["ev"], "eor": {k: r[k] for k in RANKS},
                          "zero": r["zero"]} for r in outcomes],
        },
    )


def eor_pairs(rules: RuleSet, shoe: Shoe, bet_id: str, unit: str = "percent", progress=None) -> View:
    """The exact effect of removing two cards, each pair of ranks, against the linear estimate."""
    from .eor import pair_removals

    rows = pair_removals(rules, shoe, bet_id, progress)
    kind = unit_kind(unit)
    return View(
        title=(f"Effect of removing two cards on {bet_id} (rules {rules.name}; shoe {shoe.describe()}): "
               f"exact, linear estimate EoR(r1) + EoR(r2), and the error of the estimate"),
        columns=[Column("ranks", "removed"), Column("exact", "exact change", kind),
                 Column("linear", "linear estimate", kind), Column("error", "error", kind)],
        rows=rows,
        data={"rules": rules.name, "shoe": shoe_data(shoe), "bet": bet_id, "pairs": rows},
    )


def count(rules: RuleSet, shoe: Shoe, bet_id: str, tags=None, true_counts=(), label: str = "given") -> View:
    """A count system for a bet: derived integer tag sets, or a given one evaluated, with its
    betting correlation and the linear estimate of the EV at given true counts."""
    from .eor import TAG_RANKS, betting_correlation, derive_tags, effect_of_removal, imbalance, linear_slope, tag_weights

    if not rules.bet(bet_id).numeric:
        raise BaccaratError(f"bet {bet_id!r} has a symbolic payout: a count needs numbers")
    removal = effect_of_removal(rules.only([bet_id]), shoe)  # the one bet counted for
    eors, weights = removal.tag_eors(bet_id), tag_weights(shoe)
    candidates = derive_tags(eors, weights) if tags is None else [
        {"level": label, "tags": tags, "bc": betting_correlation(tags, eors, weights),
         "imbalance": imbalance(tags, weights)}]
    ev = removal.base[bet_id]
    rows = []
    for c in candidates:
        row = {"level": c["level"], **dict(zip(TAG_RANKS, c["tags"])), "bc": c["bc"], "imbalance": c["imbalance"]}
        if any(c["tags"]):
            row["slope"] = linear_slope(eors, c["tags"], weights, shoe.size)
            row.update({f"tc {tc}": ev + row["slope"] * tc for tc in true_counts})
        rows.append(row)
    return View(
        title=(f"Count for {bet_id} (rules {rules.name}; shoe {shoe.describe()}); EV now {percent(ev) if is_number(ev) else ev}\n"
               f"tags for A..9 and T (= T, J, Q, K); BC = betting correlation with the exact EoR; "
               f"imbalance = running count after the whole shoe; slope = EV change per unit of true count "
               f"(running count per deck left); tc X = linear estimate of the EV at true count X"),
        columns=[Column("level", "level")] + [Column(r, r, "count") for r in TAG_RANKS]
        + [Column("bc", "BC", "number"), Column("imbalance", "imbalance", "count"), Column("slope", "slope", "fine")]
        + [Column(f"tc {tc}", f"EV at tc {tc}", "percent") for tc in true_counts],
        rows=rows,
        data={"rules": rules.name, "shoe": shoe_data(shoe), "bet": bet_id, "ev": ev,
              "eor": dict(zip(TAG_RANKS, eors)),
              "counts": [{"level": r["level"], "tags": [r[t] for t in TAG_RANKS], "bc": r["bc"],
                          "imbalance": r["imbalance"], "slope": r.get("slope"),
                          "estimates": {str(tc): r.get(f"tc {tc}") for tc in true_counts}} for r in rows]},
    )


def now(rules: RuleSet, shoe: Shoe, dealt, positive_only: bool = False, knowledge: Knowledge = NOTHING) -> View:
    """Every bet's exact edge on the next coup from the cards left (given ``knowledge`` of that
    coup's cards), and which bets are positive (with ``positive_only``, the table holds those alone)."""
    from .eor import shoe_in_play

    left = shoe_in_play(shoe, dealt)
    view = edge(rules, left, knowledge)
    positive = [row["bet"] for row in view.data["bets"] if is_positive(row["ev"])]
    if positive_only:
        view = edge(rules.only(positive), left, knowledge)
    view.title = (f"Next coup after {len(dealt)} cards dealt: shoe {left.describe()}; rules {rules.name}{given(knowledge)}\n"
                  f"Positive expectation: {', '.join(positive) or 'none'}")
    view.data |= {"dealt": len(dealt), "positive": positive}
    return view


def is_positive(value) -> bool:
    return isinstance(value, Fraction) and value > 0


def advantage(rules: RuleSet, shoe: Shoe, result, knowledge: Knowledge = NOTHING) -> View:
    """One row per state the bettor may see: its probability, each bet's EV given it, the best
    bet and whether he bets; the title and JSON give his advantage per coup dealt."""
    info, bets = result.info, result.bets
    rows = []
    for state in result.states:
        best = bets[state.best]
        rows.append({"seen": info.state_name(state.groups), "probability": state.probability,
                     **{f"ev {b.id}": ev for b, ev in zip(bets, state.evs)},
                     "best": best.id, "ev": state.evs[state.best], "bets": "yes" if state.evs[state.best] > 0 else "no",
                     "groups": state.groups})
    return View(
        title=(f"Advantage of a bettor who sees {info.describe()} before betting: {percent(result.advantage)} per coup "
               f"dealt (he bets on {percent(result.betting_share, 2)} of coups)\nrules {rules.name}; shoe "
               f"{shoe.describe()}; bets {', '.join(b.id for b in bets)}; he stakes 1 unit on the best bet when its EV "
               f"is positive{given(knowledge)}"),
        columns=[Column("seen", "seen"), Column("probability", "probability", "percent")]
        + [Column(f"ev {b.id}", f"EV {b.id}", "percent") for b in bets]
        + [Column("best", "best bet"), Column("ev", "its EV", "percent"), Column("bets", "bets?")],
        rows=rows,
        data={"rules": rules.name, "shoe": shoe_data(shoe), **known_data(knowledge), "total": result.total,
              "information": {"positions": list(info.positions), "groups": [list(g) for g in info.groups]},
              "bets": [b.id for b in bets], "advantage": result.advantage, "betting_share": result.betting_share,
              "states": [{"seen": {str(p): list(info.groups[g]) for p, g in zip(info.positions, r["groups"])},
                          "probability": r["probability"], "best_bet": r["best"], "ev": r["ev"], "bets": r["bets"] == "yes",
                          "evs": {b.id: r[f"ev {b.id}"] for b in bets}} for r in rows]},
    )


def best_sort(rules: RuleSet, shoe: Shoe, ranking, bets, positions, knowledge: Knowledge = NOTHING, shown: int = 10) -> View:
    """The best split of the point values for edge sorting at ``positions``, and the runners-up."""
    from .advantage import values_text

    rows = [{"rank": i + 1, "sort": values_text(group), "advantage": result.advantage, "share": result.betting_share,
             "group": list(group)} for i, (group, result) in enumerate(ranking[:shown])]
    best = rows[0]
    where = ", ".join(map(str, positions))
    return View(
        title=(f"Best sort at card{'s' * (len(positions) > 1)} {where}: {best['sort']} against the rest, advantage "
               f"{percent(best['advantage'])} per coup dealt ({len(ranking)} splits of the ten point values tried)\n"
               f"rules {rules.name}; shoe {shoe.describe()}; bets {', '.join(b.id for b in bets)}{given(knowledge)}"),
        columns=[Column("rank", "rank", "count"), Column("sort", "sorted group"), Column("advantage", "advantage", "percent"),
                 Column("share", "coups bet", "percent")],
        rows=rows,
        data={"rules": rules.name, "shoe": shoe_data(shoe), **known_data(knowledge), "positions": list(positions),
              "bets": [b.id for b in bets], "sort": best["group"], "advantage": best["advantage"],
              "ranking": [{"sort": r["group"], "advantage": r["advantage"], "betting_share": r["share"]} for r in rows]},
    )


def by_position(rules: RuleSet, shoe: Shoe, results, bets, knowledge: Knowledge = NOTHING) -> View:
    """The advantage of knowing the exact point value of one card, for each position."""
    rows = [{"position": p, "card": POSITION_NAMES[p - 1], "advantage": r.advantage, "share": r.betting_share}
            for p, r in results]
    return View(
        title=(f"What an exposed card is worth: the advantage of knowing its exact point value before betting, by "
               f"position\nrules {rules.name}; shoe {shoe.describe()}; bets {', '.join(b.id for b in bets)}{given(knowledge)}"),
        columns=[Column("position", "position", "count"), Column("card", "card"), Column("advantage", "advantage", "percent"),
                 Column("share", "coups bet", "percent")],
        rows=rows,
        data={"rules": rules.name, "shoe": shoe_data(shoe), **known_data(knowledge), "bets": [b.id for b in bets],
              "positions": [{"position": r["position"], "card": r["card"], "advantage": r["advantage"],
                             "betting_share": r["share"]} for r in rows]},
    )


def simulate(sim) -> View:
    """Per bet: how often its exact EV was positive, and what a bettor who bets exactly then
    wins per shoe (expected, and realized on the dealt coups), with standard errors."""
    from .simulate import EV_EDGES, WIN_EDGES, counter_summary, summaries

    per_bet = summaries(sim)
    rows = [vars(s) | {"who": "perfect"} for s in per_bet]
    counted = counter_summary(sim)
    if counted is not None:
        rows.append(vars(counted) | {"who": "counter"})
    t, deal = sim.tally, sim.deal
    title = (f"{sim.shoes:,} shoes of {deal.decks} decks, cut card {deal.cut} cards from the end, burn {deal.burn}, "
             f"seed {sim.seed} (rules {sim.rules.name}); {t.coups / t.shoes:.2f} coups per shoe\n"
             "every coup's EV exact; EV > 0 = share of coups with positive EV; win/shoe = expected win of a bettor "
             "betting 1 unit exactly when EV > 0 (the counter: when the true count reaches the trigger); "
             "realized = what those bets won; SE = standard error over shoes")
    columns = [Column("id", "bet"), Column("positive_share", "EV > 0", "percent"),
               Column("bets_per_shoe", "bets/shoe", "number"), Column("mean_ev_when_positive", "mean EV of bets", "percent"),
               Column("win_per_shoe", "win/shoe", "number"), Column("win_se", "win SE", "number"),
               Column("realized_per_shoe", "realized/shoe", "number"), Column("realized_se", "realized SE", "number")]
    if counted is not None:
        columns.insert(1, Column("who", "bettor"))
    data = {
        "rules": sim.rules.name, "decks": deal.decks, "cut": deal.cut, "burn": deal.burn, "shoes": sim.shoes,
        "seed": sim.seed, "coups": int(t.coups),
        "bets": [{k: _plain(v) for k, v in vars(s).items()} for s in per_bet],
        "counter": None if counted is None else {k: _plain(v) for k, v in vars(counted).items()}
        | {"tags": list(sim.counter.tags), "trigger": sim.counter.trigger},
        "distributions": {
            "ev": {"edges": EV_EDGES.tolist(), "counts": {b.id: t.ev_histogram[i].tolist() for i, b in enumerate(sim.rules.bets)},
                   "meaning": "coups by exact EV per unit staked; the end bins hold everything beyond them"},
            "win_per_shoe": {"edges": WIN_EDGES.tolist(),
                             "counts": {b.id: t.win_histogram[i].tolist() for i, b in enumerate(sim.rules.bets)},
                             "meaning": "shoes by the perfect bettor's expected win in units"},
        },
    }
    return View(title, columns, rows, data)


def _plain(value):
    """numpy scalars as plain JSON numbers."""
    return value.item() if hasattr(value, "item") else value


MODEL_TEXT = {
    "A": "model A: cards drawn with replacement; each side knows its total",
    "B2": "model B2: no replacement; the Banker knows his two cards, the Player his total",
    "B3": "model B3: no replacement; each side knows its two cards",
}


def chemin_where(game) -> str:
    """The game, the shoe and the information model, in words."""
    shoe = "infinite deck" if game.shoe is None else game.shoe.describe()
    return f"Chemin de fer, {game.tableau.name}; {shoe} ({MODEL_TEXT[game.model]})"


def choice_text(q) -> str:
    return "D" if q == 1 else "S" if q == 0 else str(q)


def cards_text(cards) -> str:
    return f"{cards[0]}-{cards[1]}"


def chemin(sol) -> View:
    """The equilibrium of chemin de fer: the Player's choices, the Banker's grid (his options
    bracketed where the tableau fixes other cells), the value, and what playing the tableau's own
    choices at the options costs each side."""
    from .chemin import deviations, pure_deviation_gains

    game = sol.game
    tableau = game.tableau
    by_cell = {}  # (total, third) -> {cards or None: draw probability}
    for i, q in sol.y.items():
        total, cards, third = game.banker_sets[i]
        by_cell.setdefault((total, third), {})[cards] = q
    every_cell = all(tableau.banker_options[t][k] for t in range(8) for k in range(11))

    def cell(total, third):
        if not tableau.banker_options[total][third]:
            return "DS"[not tableau.banker_draws[total][third]]
        qs = set(by_cell.get((total, third), {}).values())
        text = "" if not qs else "by cards" if len(qs) > 1 else choice_text(qs.pop())
        return text if every_cell or not text else f"[{text}]"

    thirds = list(range(11))
    header = lambda x: "stood" if x == 10 else str(x)  # noqa: E731
    rows = [{"banker": str(total)} | {header(x): cell(total, x) for x in thirds} for total in range(8)]
    by_cards = [{"cards": list(cards), "total": total, "player_third": header(third), "draw": q}
                for (total, third), choices in sorted(by_cell.items()) if len(set(choices.values())) > 1
                for cards, q in sorted(choices.items())]
    players = [{"total": total, "cards": list(cards) if cards else None, "draw": sol.x[s]}
               for s, (total, cards) in enumerate(game.player_sets)]
    cost = deviations(sol)
    player_gain, banker_gain = pure_deviation_gains(sol)
    zero_sum = sol.commission == 0
    own = "punto banco's choices" if same_choices(tableau, PUNTO_BANCO) else "the tableau's own choices"
    lines = [
        chemin_where(game) + "; " + ("zero-sum: minimax solution" if zero_sum else
                                     f"the Banker pays {percent_text(sol.commission)} commission on wins: Nash equilibrium"),
        player_line(sol, players) + f"; value to the Banker {percent(sol.banker_value())} per unit "
        f"({sol.banker_value()})" + ("" if zero_sum else f", to the Player {percent(sol.player_value())}"),
        f"Playing {own} at the options instead costs the Player {percent(cost['player']['against_best_reply'])} "
        f"and the Banker {percent(cost['banker']['against_best_reply'])} against a best reply "
        f"({percent(cost['player']['against_equilibrium'])} and {percent(cost['banker']['against_equilibrium'])} "
        "against the equilibrium strategy)",
        "Banker's strategy by his total (rows) and the Player's third card: D draw, S stand, p/q draw with "
        "that probability" + ("" if every_cell else "; [ ] his options, the other cells fixed by the tableau")
        + ("; 'by cards': depends on the Banker's two cards, listed below the grid" if by_cards else ""),
    ]
    columns = [Column("banker", "Banker")] + [Column(header(x), header(x)) for x in thirds]
    rows += [{"banker": "-".join(map(str, b["cards"])), b["player_third"]: choice_text(b["draw"])} for b in by_cards]
    data = {
        "model": game.model, "tableau": tableau.name, "shoe": None if game.shoe is None else shoe_data(game.shoe),
        "commission": sol.commission,
        "equilibrium": "minimax (zero-sum)" if zero_sum else "Nash equilibrium (mutual best responses)",
        "player_draw_on_5": sol.player_draws_on(5), "player": players,
        "value": sol.banker_value(), "value_percent": percent(sol.banker_value()), "player_value": sol.player_value(),
        "grid": {str(total): {header(x): cell(total, x).strip("[]") for x in thirds} for total in range(8)},
        "banker_by_cards": by_cards,
        "banker": [{"total": total, "cards": list(cards) if cards else None, "player_third": header(third),
                    "draw": sol.y[i], "tableau": "DS"[not tableau.banker_draws[total][third]]}
                   for i, (total, cards, third) in enumerate(game.banker_sets)],
        "tableau_choices_cost": cost,
        "best_pure_deviation_gain": {"player": player_gain, "banker": banker_gain},
    }
    return View("\n".join(lines), columns, rows, data)


def same_choices(tableau: Tableau, other: Tableau) -> bool:
    return tableau.player_draws == other.player_draws and tableau.banker_draws == other.banker_draws


def player_line(sol, players: list) -> str:
    """The Player's choices in words: "Player draws on 5 with probability 9/11 (81.82%)"."""
    if not players:
        return "The Player never chooses with this shoe"
    by_total = {}
    for p in players:
        by_total.setdefault(p["total"], []).append(p)
    parts = []
    for total, sets in by_total.items():
        overall = sol.player_draws_on(total)
        if sets[0]["cards"] is None:
            parts.append(f"Player draws on {total} with probability {overall} ({percent(overall, 2)})")
        else:
            each = ", ".join(f"{cards_text(p['cards'])} {choice_text(p['draw'])}" for p in sets)
            parts.append(f"Player holding {total} draws by his cards: {each} (on {total} overall {percent(overall, 2)})")
    return "; ".join(parts)


def chemin_by_commission(game, rows: list) -> View:
    """How the equilibrium moves as the commission goes from 0 to 10% (chemin.commission_table):
    a row per whole per cent and a row at each commission where a choice changes."""
    sets = list(range(len(game.player_sets))) if game.model == "B3" else []
    columns = [Column("commission", "commission"), Column("draw5", "Player draws on 5", "percent")]
    columns += [Column(f"p{s}", f"5: {cards_text(game.player_sets[s][1])}", "percent") for s in sets]
    columns += [Column("value", "value to Banker", "percent"), Column("player_value", "to Player", "percent"),
                Column("change", "what changes")]
    table, data = [], []
    for row in rows:
        sol, exact = row.solution, isinstance(row.commission, Fraction)
        values = {"draw5": sol.player_draws_on(5), "value": sol.banker_value(), "player_value": sol.player_value()}
        values |= {f"p{s}": sol.x[s] for s in sets}
        table.append({"commission": percent_text(row.commission) if exact else decimal_text(row.commission),
                      "change": row.change} | values)
        data.append({"commission": row.commission if exact else str(row.commission), "change": row.change} | values
                    | ({} if exact else {"commission_percent": decimal_text(row.commission)}))
    changes = sum(1 for row in rows if row.change)
    title = (chemin_where(game) + ": the equilibrium as the Banker's commission goes from 0 to 10%, a row per whole "
             "per cent and one where a choice changes (there the commission is an algebraic number, exact in the "
             f"JSON, and the values those of the equilibrium just below it); {changes} change" + "s" * (changes != 1))
    return View(title, columns, table, {"model": game.model, "tableau": game.tableau.name,
                                        "shoe": None if game.shoe is None else shoe_data(game.shoe), "rows": data,
                                        "player_sets": {f"p{s}": cards_text(game.player_sets[s][1]) for s in sets}})


def decimal_text(number) -> str:
    """An exact real number (sympy) as a percentage with 6 decimals: "5.064636%"."""
    import sympy

    return f"{sympy.N(number * 100, 30):.6f}%"


RETURN_COLUMNS = [
    Column("name", "bet"),
    Column("event", "event"),
    Column("pays", "pays", "units"),
    Column("combinations", "combinations", "count"),
    Column("probability", "probability", "number"),
    Column("return", "return", "number"),
]


def returns(rules: RuleSet, shoe: Shoe, knowledge: Knowledge = NOTHING) -> View:
    """The return table of every bet of ``rules``: a row per pay line (net pays, combinations,
    probability, return), the losing row and a total row whose return is the bet's EV."""
    from .parsheet import return_table

    dist = enumerate_coup(shoe, rules.tableau, knowledge)
    bets, rows = [], []
    for bet in rules.bets:
        result = evaluate(bet, dist)
        lines = [{"event": r.event, "pays": r.pays, "combinations": r.combinations, "probability": r.probability,
                  "return": r.ret} for r in return_table(result)]
        total = {"event": "total", "combinations": result.total, "probability": Fraction(1), "return": result.ev}
        bets.append({"bet": bet.id, "name": bet.name, "lines": lines, "total": total})
        rows += [{"bet": bet.id, "name": bet.name, **ln} for ln in lines + [total]]
    return View(
        title=(f"Return tables: rules {rules.name}; shoe {shoe.describe()}{given(knowledge)}\n"
               "pays: units won per unit bet (commission paid; -1: the bet loses); return = pays x probability; "
               "the total's return is the EV"),
        columns=RETURN_COLUMNS,
        rows=rows,
        data={"rules": rules.name, "shoe": shoe_data(shoe), **known_data(knowledge), "total": dist.total, "bets": bets},
    )


def volatility(rules: RuleSet, shoe: Shoe, knowledge: Knowledge = NOTHING) -> tuple[View, View]:
    """Two tables for every bet of ``rules``: its spread (SD, volatility index, skewness, hold
    per 100 units wagered) and the ranges of the player's result after 100 to 1,000,000 hands."""
    from . import parsheet as ps

    dist = enumerate_coup(shoe, rules.tableau, knowledge)
    summary, ranges, data = [], [], []
    for bet in rules.bets:
        if not bet.numeric:
            raise BaccaratError(f"bet {bet.id!r} has a symbolic payout: its ranges need numbers")
        v = ps.volatility(evaluate(bet, dist))
        summary.append({"bet": bet.id, "name": bet.name, "sd": v.variance, "vi": v.volatility_index,
                        "skewness": v.skewness, "hold": v.hold_per_100, "normal_from": v.hands_for_normal()})
        by_hands = {}
        for r in v.ranges:
            by_hands.setdefault(r.hands, []).append(r)
        for hands, rs in by_hands.items():
            row = {"bet": bet.id, "name": bet.name, "hands": hands, "mean": float(v.ev * hands),
                   "spread": math.sqrt(v.variance * hands), "method": rs[0].method}
            for r in rs:
                key = level_key(r.level)
                row[f"low{key}"], row[f"high{key}"] = float(r.low), float(r.high)
            r95 = next((r for r in rs if r.level == Fraction(95, 100)), None)
            if r95 is not None:  # the house's hold after these hands, per cent of the amount wagered
                row["hold_low"], row["hold_high"] = -float(r95.high) / hands, -float(r95.low) / hands
            ranges.append(row)
        data.append({"bet": bet.id, "name": bet.name, "ev": v.ev, "variance": v.variance, "sd": v.sd,
                     "volatility_index": v.volatility_index, "skewness": v.skewness,
                     "hold_per_100": v.hold_per_100, "normal_from_hands": v.hands_for_normal(),
                     "ranges": [{"hands": r.hands, "level": r.level, "low": r.low, "high": r.high, "method": r.method,
                                 **({"coverage": r.coverage} if r.coverage is not None else {})} for r in v.ranges]})
    where = f"rules {rules.name}; shoe {shoe.describe()}{given(knowledge)}"
    vi = f"{int(ps.VI_LEVEL * 100)}%"
    spread = View(
        title=(f"Volatility: {where}\nSD per hand of one unit; volatility index = z({vi}) x SD = {ps.z(ps.VI_LEVEL):.4f} "
               f"x SD; skewness of one hand's result (N hands: / sqrt(N)); hold = the house's expected win per "
               f"100 units wagered; normal from = the hands from which a session's skewness is at most {ps.SKEW_LIMIT}"),
        columns=[Column("name", "bet"), Column("sd", "SD", "sd"), Column("vi", f"volatility index ({vi})", "units"),
                 Column("skewness", "skewness", "units"), Column("hold", "hold per 100", "number"),
                 Column("normal_from", "normal from (hands)", "count")],
        rows=summary,
        data={"rules": rules.name, "shoe": shoe_data(shoe), **known_data(knowledge), "bets": data},
    )
    levels = [f"{int(level * 100)}%" for level in ps.LEVELS]
    table = View(
        title=(f"Ranges of the player's result after N hands of one unit (units won; the house's is the opposite): "
               f"{where}\nThe range holds with the confidence shown. normal: mean +- z x SD x sqrt(N); exact: the "
               "exact distribution of the N hands' sum, where the normal approximation is poor (a session's "
               f"skewness above {ps.SKEW_LIMIT}); normal, poor: too costly to count exactly, read with care. "
               "hold 95%: the house's win per unit wagered after N hands, 95% range"),
        columns=[Column("name", "bet"), Column("hands", "hands", "count"), Column("method", "method"),
                 Column("mean", "mean", "units"),
                 Column("spread", "SD", "units")]
                + [Column(f"{end}{level_key(level)}", f"{name} {end}", "units")
                   for level, name in zip(ps.LEVELS, levels) for end in ("low", "high")]
                + [Column("hold_low", "hold 95% low", "percent"), Column("hold_high", "hold 95% high", "percent")],
        rows=ranges,
        data={"rules": rules.name, "shoe": shoe_data(shoe), **known_data(knowledge), "levels": list(ps.LEVELS),
              "hands": list(ps.HANDS)},
    )
    return spread, table


def level_key(level: Fraction) -> str:
    return str(int(level * 100))
