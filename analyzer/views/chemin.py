"""Chemin de fer solved: the equilibrium's choices, the Banker's grid, the value, and the
equilibrium as the commission goes from 0 to 10%."""

from __future__ import annotations

from fractions import Fraction

from ..questions.chemin import PLAYER_SEES_CARDS, deviations, option_gains, pure_deviation_gains, set_name
from ..render import Column, View, percent, percent_text
from ..game.tableau import PUNTO_BANCO, Tableau
from . import shoe_data


MODEL_TEXT = {
    "A": "model A: cards drawn with replacement; each side knows its total",
    "B1": "model B1: no replacement; each side knows its total",
    "B2": "model B2: no replacement; the Banker knows his two cards, the Player his total",
    "B3": "model B3: no replacement; each side knows its two cards",
    "B4": "model B4: no replacement; the Player knows his two cards, the Banker his total",
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
    player_gains, banker_gains = option_gains(sol)
    players = [{"total": total, "cards": list(cards) if cards else None, "draw": sol.x[s],
                "gain": player_gains[s][0], "gain_there": player_gains[s][1]}
               for s, (total, cards) in enumerate(game.player_sets)]
    cost = deviations(sol)
    player_gain, banker_gain = pure_deviation_gains(sol)
    zero_sum = sol.commission == 0
    lines = summary(sol, players, cost, (player_gains, banker_gains), every_cell, bool(by_cards))
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
                    "draw": sol.y[i], "tableau": "DS"[not tableau.banker_draws[total][third]],
                    "gain": banker_gains[i][0], "gain_there": banker_gains[i][1]}
                   for i, (total, cards, third) in enumerate(game.banker_sets)],
        "tableau_choices_cost": cost,
        "best_pure_deviation_gain": {"player": player_gain, "banker": banker_gain},
    }
    return View("\n".join(lines), columns, rows, data)


def summary(sol, players: list, cost: dict, gains: tuple, every_cell: bool, by_cards: bool) -> list[str]:
    """The lines above the grid: the game, its value, what the tableau's choices cost, the
    options' gains, and how to read the grid."""
    game, tableau, zero_sum = sol.game, sol.game.tableau, sol.commission == 0
    player_gains, banker_gains = gains
    own = "punto banco's choices" if same_choices(tableau, PUNTO_BANCO) else "the tableau's own choices"
    return [
        chemin_where(game) + "; " + ("zero-sum: minimax solution" if zero_sum else
                                     f"the Banker pays {percent_text(sol.commission)} commission on wins: Nash equilibrium"),
        player_line(sol, players) + f"; value to the Banker {percent(sol.banker_value())} per unit "
        f"({sol.banker_value()})" + ("" if zero_sum else f", to the Player {percent(sol.player_value())}"),
        f"Playing {own} at the options instead costs the Player {percent(cost['player']['against_best_reply'])} "
        f"and the Banker {percent(cost['banker']['against_best_reply'])} against a best reply "
        f"({percent(cost['player']['against_equilibrium'])} and {percent(cost['banker']['against_equilibrium'])} "
        "against the equilibrium strategy)",
        *gains_line(sol, player_gains, banker_gains),
        "Banker's strategy by his total (rows) and the Player's third card: D draw, S stand, p/q draw with "
        "that probability" + ("" if every_cell else "; [ ] his options, the other cells fixed by the tableau")
        + ("; 'by cards': depends on the Banker's two cards, listed below the grid" if by_cards else ""),
    ]


GAINS_SHOWN = 16  # the options' gains are written out in the text up to this many sets (all in the JSON)


def gains_line(sol, player_gains: dict, banker_gains: dict) -> list[str]:
    """A line of what drawing instead of standing is worth at each option, when the side is there
    (against the other side's equilibrium strategy), where there are few options; else none."""
    game = sol.game
    said = [(set_name(game, s, True), there) for s, (_, there) in player_gains.items()]
    said += [(set_name(game, i, False), there) for i, (_, there) in banker_gains.items()]
    if not said or len(said) > GAINS_SHOWN:
        return []
    return ["Drawing instead of standing, per unit staked when there (against the other side's equilibrium "
            "strategy): " + "; ".join(f"{name} {signed_percent(there)}" for name, there in said if there is not None)]


def signed_percent(q) -> str:
    return ("+" if q > 0 else "") + percent(q)


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
    sets = list(range(len(game.player_sets))) if game.model in PLAYER_SEES_CARDS else []
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
    import sympy  # heavy (a second and more): loaded only for a commission table, whose numbers are sympy's

    return f"{sympy.N(number * 100, 30):.6f}%"
