"""Shoes dealt and tallied: how often each bet's exact EV was positive, and what betting then wins."""

from __future__ import annotations

from ..render import Column, View
from ..questions.simulate import EV_EDGES, WIN_EDGES, counter_summary, summaries


def simulation(sim) -> View:
    """Per bet: how often its exact EV was positive, and what a bettor who bets exactly then
    wins per shoe (expected, and realized on the dealt coups), with standard errors."""
    per_bet = summaries(sim)
    rows = [{k: _plain(v) for k, v in vars(s).items()} | {"who": "perfect"} for s in per_bet]
    counted = counter_summary(sim)
    if counted is not None:
        rows.append({k: _plain(v) for k, v in vars(counted).items()} | {"who": "counter"})
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
    if any(s.placed_per_shoe is not None for s in per_bet):
        title += ("\nbets across coups (placed/shoe > 0): placed one unit wherever their rules allow and followed "
                  "through the coups (into the next shoe where their rules say so); return/bet = what they won per unit on these real shoes, with its 95% "
                  "interval; independent = exact EV for independent coups, each from the full shoe")
        if any(bet.multipliers is not None for bet in sim.rules.bets):
            title += ("\nmultiplied bets: placed at every coup, the multipliers drawn for each as a studio draws them, the "
                      "fee paid; independent = their exact EV on the full shoe")
        for row in rows:
            if row.get("return_low") is not None:
                row["interval"] = f"{100 * row['return_low']:.2f}% to {100 * row['return_high']:.2f}%"
        columns += [Column("placed_per_shoe", "placed/shoe", "number"), Column("return_per_bet", "return/bet", "percent"),
                    Column("interval", "95% interval"), Column("independent", "independent", "percent")]
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
