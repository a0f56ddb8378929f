"""Runs in a shoe: how often a shoe dealt to its cut card holds a run of k or more of a result,
exact for independent coups beside real shoes simulated (runs)."""

from __future__ import annotations

from fractions import Fraction

from ..render import Column, View
from ..questions.runs import mean_coups, wilson


def runs_view(found, deal) -> View:
    """A row per run length k: the exact chance of a run of k or more (independent coups), one
    shoe in how many, the share of simulated shoes with one and its 95% interval, and the chance
    that the longest run is exactly k."""
    exact, n = found.exact, found.shoes
    rows = []
    for k, p in enumerate(exact, 1):
        longest = p - (exact[k] if k < len(exact) else Fraction(0)) if k < len(exact) else None
        row = {"k": k, "independent": p, "one_in": 1 / p if p else None, "longest": longest}
        if n:
            low, high = wilson(found.hits[k - 1], n)
            row |= {"simulated": found.hits[k - 1] / n, "interval": f"{100 * low:.4f}% to {100 * high:.4f}%",
                    "low": low, "high": high}
        rows.append(row)
    mean = mean_coups(found.coups)
    simulated = ""
    if n:
        average = found.coups_sum / n
        spread = max(found.coups_squares / n - average**2, 0.0) * n / max(n - 1, 1)
        simulated = f"; simulated {average:.3f} ± {1.96 * (spread / n) ** 0.5:.3f} (95%)"
    ties = "; ties neither extend nor break a run" if found.skip_ties else ""
    title = (f"Runs of {found.result} wins{ties} in a shoe of {deal.decks} decks dealt to a cut card {deal.cut} cards "
             f"from the end (burn {deal.burn})\nindependent = exact for independent coups, each with the full shoe's "
             f"chances; simulated = {n:,} real shoes (seed {found.seed})"
             f"\ncoups per shoe: exact mean {float(mean):.3f} (independent){simulated}")
    columns = [Column("k", "run of k or more"), Column("independent", "independent", "percent"),
               Column("one_in", "1 shoe in", "one_in")]
    if n:
        columns += [Column("simulated", "simulated", "percent"), Column("interval", "95% interval")]
    columns += [Column("longest", "longest = k", "percent")]
    data = {"result": found.result, "skip_ties": found.skip_ties, "decks": deal.decks, "cut": deal.cut,
            "burn": deal.burn, "shoes": n, "model": "independent coups, each with the full shoe's exact chances",
            "coups": {"law": {str(c): p for c, p in found.coups.items()}, "mean": mean,
                      **({"simulated_mean": found.coups_sum / n} if n else {})},
            "runs": rows}
    return View(title, columns, rows, data)
