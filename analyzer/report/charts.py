"""Charts for reports, drawn with matplotlib into SVG from the tables' exact values.

Values become floats here, for drawing only; every label printed on a chart is rounded from
the exact value. Text is SVG text in DejaVu Sans, the font matplotlib ships (a viewer without it
uses its own sans-serif), so it can be searched and copied and the PDF keeps it as text. The
output has no date and fixed element ids, so the same figures give the same file.

The layout is fixed in inches, with the bets' names measured for the margin they need, rather
than found by a layout engine: that would draw every chart two or three times.
"""

from __future__ import annotations

import functools
import io
import math

from ..render import percent

WORSE, BETTER, LIMIT = "#b03a2e", "#1e8449", "#2e86c1"  # house edge > 0 / the bettor's side / the limit
RC = {"svg.fonttype": "none", "svg.hashsalt": "baccarat", "font.family": "sans-serif",
      "font.sans-serif": ["DejaVu Sans"], "font.size": 9, "axes.titlesize": 10,
      "axes.spines.top": False, "axes.spines.right": False}


def drawn(draw):
    """A chart function that returns a matplotlib Figure, made into one that returns its SVG
    bytes, the figure built and saved under the charts' settings (RC)."""

    @functools.wraps(draw)
    def chart(*args) -> bytes:
        from matplotlib import rc_context  # heavy: loaded only when a chart is drawn

        out = io.BytesIO()
        with rc_context(RC):
            draw(*args).savefig(out, format="svg", metadata={"Date": None})
        return out.getvalue()

    return chart


def _figure(width: float, height: float, left: float, right: float, bottom: float, top: float, **gaps):
    """A figure ``width`` by ``height`` inches whose axes leave these margins (inches)."""
    from matplotlib.figure import Figure  # heavy: loaded only when a chart is drawn

    fig = Figure(figsize=(width, height))
    fig.subplots_adjust(left=left / width, right=1 - right / width, bottom=bottom / height, top=1 - top / height,
                        **gaps)
    return fig


def text_width(text: str, size: float = 9) -> float:
    """The width of ``text`` in inches, in the charts' font at ``size`` points."""
    from matplotlib.font_manager import FontProperties  # heavy: loaded only when a chart is drawn
    from matplotlib.textpath import text_to_path

    return text_to_path.get_text_width_height_descent(text, FontProperties(family=RC["font.sans-serif"], size=size),
                                                      ismath=False)[0] / 72


PANEL = (3.6, 2.8)  # inches: one panel with its tick labels and its own title
MARGIN = {"left": 0.75, "right": 0.2, "bottom": 0.55, "top": 0.75}  # inches: axis labels, the titles
GAP = (0.75, 0.95)  # inches between panels: the next panel's tick labels; a label and the next title


def _panels(count: int, title: str, ylabel: str):
    """A figure of ``count`` small panels, three to a row, and its axes (spare ones hidden)."""
    cols = min(3, count)
    rows = math.ceil(count / cols)
    (w, h), m = PANEL, dict(MARGIN)
    axes_w, axes_h = w - GAP[0], h - GAP[1]
    width = m["left"] + m["right"] + cols * axes_w + (cols - 1) * GAP[0]
    extra = max(0.0, text_width(title, RC["axes.titlesize"]) + 0.3 - width)  # a title wider than the panels: room beside them
    m["left"], m["right"] = m["left"] + extra / 2, m["right"] + extra / 2
    fig = _figure(width + extra, m["top"] + m["bottom"] + rows * axes_h + (rows - 1) * GAP[1], **m,
                  wspace=GAP[0] / axes_w, hspace=GAP[1] / axes_h)
    axes = fig.subplots(rows, cols, squeeze=False).ravel()
    for ax in axes[count:]:
        ax.set_visible(False)
    for ax in axes[:count:cols]:
        ax.set_ylabel(ylabel)
    fig.suptitle(title, y=1 - 0.12 / fig.get_figheight(), va="top", fontsize=RC["axes.titlesize"])
    return fig, axes[:count]


PAGE_WIDTH = 6.8  # inches: what the frame of an A4 page holds (16 mm margins), where a chart this wide is printed at full size


@drawn
def edge_by_bet(names: list[str], edges: list, title: str, span: list | None = None):
    """Horizontal bars: each bet's house edge in per cent, labelled with its value; the scale
    that of the edges in ``span`` (default: these), so that the parts of one rule set's bets,
    each a chart, share one scale. As wide as a page's frame, so that the PDF prints it at full
    size, its labels in 8 pt and more, unless a long name or title needs more."""
    values = [float(e) * 100 for e in edges]
    left = max(map(text_width, names), default=0) + 0.2
    fig = _figure(max(PAGE_WIDTH, left + 4, left + 0.35 + text_width(title, RC["axes.titlesize"])), 1.0 + 0.28 * len(names),
                  left=left, right=0.15, bottom=0.55, top=0.35)
    ax = fig.subplots()
    ax.barh(range(len(names)), values, color=[WORSE if v > 0 else BETTER for v in values])
    ax.set_yticks(range(len(names)), names)
    ax.set_ylim(len(names) - 0.5, -0.5)  # first bet on top, no empty band
    ax.axvline(0, color="black", linewidth=0.8)
    for y, (v, e) in enumerate(zip(values, edges)):
        ax.annotate(percent(e, 2), (v, y), xytext=(4 if v >= 0 else -4, 0), textcoords="offset points",
                    ha="left" if v >= 0 else "right", va="center", fontsize=8)
    scale = [0.0] + [float(e) * 100 for e in (span if span is not None else edges)]
    low, high = min(scale), max(scale)
    room = 0.18 * ((high - low) or 1)  # beside the bars that reach that way: their labels
    ax.set_xlim(low - (room if low < 0 else room / 6), high + (room if high > 0 else room / 6))
    ax.set_xlabel("House edge (% of the amount bet; ties and pushes count as bets)")
    ax.set_title(title)
    return fig


def panel_title(ax, name: str) -> None:
    """A panel's title (a bet's name), in a smaller size where it is wider than its panel (7 pt at
    the least; a longer name is cut with an ellipsis): never over the next panel's."""
    room = PANEL[0] - GAP[0]
    size = RC["axes.titlesize"]
    while size > 7 and text_width(name, size) > room:
        size -= 0.5
    while text_width(name, size) > room and len(name) > 4:
        name = name[:-2] + "…"
    ax.set_title(name, fontsize=size)


@drawn
def by_decks(series: list[tuple[str, list[str], list]], title: str):
    """One panel per bet: its house edge (%) against the number of decks; the last point, the
    infinite-deck limit, is drawn apart."""
    fig, axes = _panels(len(series), title, "House edge (%)")
    for ax, (name, labels, edges) in zip(axes, series):
        values = [float(e) * 100 for e in edges]
        x = list(range(len(values)))
        ax.plot(x[:-1], values[:-1], marker="o", color=WORSE)
        ax.plot(x[-2:], values[-2:], linestyle=":", color=WORSE)
        ax.plot(x[-1:], values[-1:], marker="D", color=LIMIT, linestyle="none")
        rising = values[-1] >= values[-2]
        ax.annotate(percent(edges[-1], 4), (x[-1], values[-1]), xytext=(-6, 6 if rising else -12),
                    textcoords="offset points", ha="right", fontsize=7, color=LIMIT)
        ax.set_xticks(x, labels)
        ax.set_xlabel("decks")
        panel_title(ax, name)
        ax.margins(y=0.2)
    return fig


@drawn
def eor(series: list[tuple[str, list[str], list]], title: str):
    """One panel per bet: the effect of removing one card of each rank, in per cent of a unit bet
    (+ helps the bettor)."""
    fig, axes = _panels(len(series), title, "Change in EV (% of a unit)")
    for ax, (name, ranks, effects) in zip(axes, series):
        present = [(r, float(e) * 100) for r, e in zip(ranks, effects) if e is not None]
        ax.bar([r for r, _ in present], [v for _, v in present], color=[BETTER if v > 0 else WORSE for _, v in present])
        ax.axhline(0, color="black", linewidth=0.8)
        if not any(v for _, v in present):
            ax.text(0.5, 0.65, "exactly 0 for every rank", transform=ax.transAxes, ha="center", fontsize=8)
        ax.set_xlabel("rank removed")
        panel_title(ax, name)
    return fig


@drawn
def wager_sizes(evs: list, amounts: list, title: str, xlabel: str):
    """A player's wager size against the EV it had (or what a model adds to it: ``xlabel`` says),
    one point a wager opportunity (amount 0 where he did not bet): a counter's points climb to the
    right of 0."""
    fig = _figure(max(6.5, text_width(title, RC["axes.titlesize"]) + 1.3), 3.4, left=0.8, right=0.2, bottom=0.55, top=0.45)
    ax = fig.subplots()
    x = [float(e) * 100 for e in evs]
    ax.scatter(x, [float(a) for a in amounts], s=9, alpha=0.5, color=LIMIT, linewidths=0)
    ax.axvline(0, color="black", linewidth=0.8)
    ax.set_xlabel(xlabel)
    ax.set_ylabel("Amount wagered")
    ax.set_title(title)
    return fig


@drawn
def cumulative_win(theoretical: list, realized: list, title: str):
    """The house's cumulative theoretical and realized win over a player's wagers, in order."""
    fig = _figure(max(6.5, text_width(title, RC["axes.titlesize"]) + 1.3), 3.4, left=0.8, right=0.2, bottom=0.55, top=0.45)
    ax = fig.subplots()
    x = range(1, len(theoretical) + 1)
    ax.plot(x, [float(t) for t in theoretical], color=LIMIT, label="theoretical")
    ax.plot(x, [float(r) for r in realized], color=WORSE, label="realized")
    ax.axhline(0, color="black", linewidth=0.8)
    ax.set_xlabel("Wagers, in order")
    ax.set_ylabel("House's win (cumulative)")
    ax.legend(frameon=False, loc="best")
    ax.set_title(title)
    return fig
