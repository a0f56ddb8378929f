"""Random multipliers drawn before a coup (the live studios' overlays), as data, and what a drawn
table of them is worth for cards that fall in a given *pattern*.

Glossary
--------
card multipliers  before each coup, K card identities (rank and suit; K drawn from ``count``)
                  are drawn without replacement from one virtual 52-card deck, each with a
                  multiplier drawn on its own from ``value``. A multiplied win pays its payout
                  times the multiplier of every counted card whose identity was drawn, each
                  card dealt counted (two 7♠ in the hand and 7♠ drawn at ×8: ×64).
counted cards     whose identities count (``cards``): ``winner`` the winning hand's (both hands'
                  on a tie), ``all`` every card dealt, ``pair`` the two cards of the pair the bet
                  reads, or a list of places (``player_1``...; a third card not dealt is not one).
pattern           how the counted cards share identities: the sizes of its blocks of identical
                  cards, largest first (``(2, 1)``: two cards alike and one other). What a drawn
                  table is worth depends on the pattern alone.
spot multiplier   one multiplier drawn for the bet's spot before the coup (``spot``), paid on a
                  win whatever the cards: independent of the deal.

Why the pattern is enough. Write m(c) for the multiplier of card c's identity if drawn, else 1,
and g(b) = E[m**b] - 1 for a drawn identity. The product over the counted cards is
prod over blocks B of (1 + [B's identity drawn] (m_B**|B| - 1)); expanding it, the expectation is
the sum over sets T of blocks of P(T's identities all drawn) * prod over T of g(|B|), and
P(t given identities all drawn) = sum over K of P(K) * K(K-1)..(K-t+1) / (52*51*..*(52-t+1)):
a function of the block sizes alone (:meth:`Multipliers.mean`). The same with E[m**(2b)] gives the
second moment; the chance of no multiplier above 1 and the largest product have closed forms too.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction
from functools import cached_property, lru_cache
from itertools import combinations

from ..base.errors import BaccaratError
from ..base.numbers import MAX_DIGITS
from .bet import BetResult
from ..game.layout import PLACES

DECK = 52  # identities a studio's virtual deck holds
CARD_MODES = ("winner", "all", "pair")
MULTIPLIER_KEYS = {"cards", "count", "value", "spot", "lines"}
MAX_VALUES = 24  # multipliers one table may list
MAX_MULTIPLIER = 10**6
MOST_COUNTED = 6  # cards a coup deals, and so counts, at most


@dataclass(frozen=True)
class Multipliers:
    """A bet's multipliers: ``cards`` (a mode of CARD_MODES or a tuple of places; None for a
    spot multiplier), ``count`` ((K, chance) of the identities drawn), ``value`` ((multiplier,
    chance)), and ``lines``: the indices of the pay lines multiplied (None: every winning line)."""

    cards: object
    count: tuple
    value: tuple
    lines: tuple | None = None

    @property
    def spot(self) -> bool:
        return self.cards is None

    def multiplied(self, bet) -> tuple[int, ...]:
        """The indices of ``bet``'s lines whose wins are multiplied."""
        if self.lines is not None:
            return self.lines
        return tuple(i for i, ln in enumerate(bet.lines) if ln.pays != 0)

    def describe(self) -> str:
        """In words, for a pay table.

        >>> EXAMPLE.describe()
        '1-5 of 52 cards drawn at ×2-×8, counted on the winning hand'
        """
        top = max(m for m, p in self.value if p)
        low = min(m for m, p in self.value if p)
        span = f"×{number(low)}" if low == top else f"×{number(low)}-×{number(top)}"
        if self.spot:
            return f"spot multiplier up to ×{number(top)}"
        ks = [k for k, p in self.count if p]
        drawn = f"{min(ks)}-{max(ks)}" if min(ks) != max(ks) else f"{ks[0]}"
        where = {"winner": "the winning hand", "all": "every card", "pair": "the pair"}.get(self.cards) \
            or ", ".join(self.cards)
        return f"{drawn} of {DECK} cards drawn at {span}, counted on {where}"

    # -- the table's moments, each a Fraction ------------------------------------------------

    def moment(self, power: int) -> Fraction:
        """E[m**power] for one drawn multiplier."""
        return sum((p * m**power for m, p in self.value), Fraction(0))

    @cached_property
    def _drawn_together(self) -> tuple:
        """h(t) = P(t given identities are all drawn), t = 0..6."""
        return tuple(sum((p * Fraction(math.perm(k, t), math.perm(DECK, t)) for k, p in self.count), Fraction(0))
                     for t in range(7))

    def mean(self, pattern: tuple, power: int = 1) -> Fraction:
        """E[M**power] for counted cards in ``pattern`` (block sizes): see the module's note.

        >>> EXAMPLE.mean((1,)) == 1 + Fraction(3, 52) * (EXAMPLE.moment(1) - 1)  # 3 cards drawn on average
        True
        """
        if self.spot:
            return self.moment(power)
        pattern = tuple(pattern)
        return self._once(("mean", pattern, power), lambda: self._mean(pattern, power))

    def _mean(self, pattern: tuple, power: int) -> Fraction:
        h = self._drawn_together
        g = {b: self.moment(power * b) - 1 for b in set(pattern)}
        # e[t]: the sum over sets of t blocks of the product of their g (elementary symmetric sums)
        e = [Fraction(1)] + [Fraction(0)] * len(pattern)
        for b in pattern:
            for t in range(len(pattern), 0, -1):
                e[t] += e[t - 1] * g[b]
        return sum((h[t] * e[t] for t in range(len(pattern) + 1)), Fraction(0))

    @cached_property
    def _kept(self) -> dict:
        """Each pattern's figures, worked out once a table (some 30 patterns, a few figures each)."""
        return {}

    def _once(self, key: tuple, compute):
        kept = self._kept
        if key not in kept:
            kept[key] = compute()
        return kept[key]

    def unmultiplied(self, pattern: tuple) -> Fraction:
        return self._once(("unmultiplied", pattern), lambda: self._unmultiplied(pattern))

    def _unmultiplied(self, pattern: tuple) -> Fraction:
        """P(M = 1) for ``pattern``: every drawn identity among the counted cards at ×1 (none drawn,
        or drawn at 1)."""
        one = sum((p for m, p in self.value if m == 1), Fraction(0))
        if self.spot:
            return one
        r = len(pattern)
        return sum((math.comb(r, s) * self.exactly(r, s) * one**s for s in range(r + 1)), Fraction(0))

    def exactly(self, blocks: int, s: int) -> Fraction:
        """P(of ``blocks`` given identities, exactly a given ``s`` of them are drawn)."""
        return sum((p * Fraction(math.comb(DECK - blocks, k - s), math.comb(DECK, k))
                    for k, p in self.count if 0 <= k - s <= DECK - blocks), Fraction(0))

    def largest(self, pattern: tuple) -> tuple[Fraction, Fraction]:
        return self._once(("largest", pattern), lambda: self._largest(pattern))

    def _largest(self, pattern: tuple) -> tuple[Fraction, Fraction]:
        """(the largest M for ``pattern``, its chance): the largest multiplier on the identities of
        the biggest blocks, as many as can be drawn."""
        top = max(m for m, p in self.value if p)
        if top == 1:
            return Fraction(1), Fraction(1)
        p_top = sum(p for m, p in self.value if m == top)
        if self.spot:
            return top, p_top
        most = max(k for k, p in self.count if p)
        sizes = sorted(pattern, reverse=True)
        take = min(most, len(sizes))
        power = sum(sizes[:take])
        if power == 0:
            return Fraction(1), Fraction(1)
        r = len(sizes)
        ways = sum(1 for chosen in combinations(range(r), take) if sum(sizes[i] for i in chosen) == power)
        return Fraction(top) ** power, ways * self.exactly(r, take) * p_top**take




def number(x: Fraction) -> str:
    """A multiplier as written: ``8``, ``1.5``, ``999999.5``, ``7/3``.

    >>> number(Fraction(1999999, 2)), number(Fraction(1000001, 1000000)), number(Fraction(7, 3))
    ('999999.5', '1.000001', '7/3')
    """
    x = Fraction(x)
    if x.denominator == 1:
        return str(x.numerator)
    for places in range(1, MAX_DIGITS + 1):
        if (x * 10**places).denominator == 1:
            whole = x.numerator * 10**places // x.denominator
            text = str(whole).rjust(places + 1, "0")
            return f"{text[:-places]}.{text[-places:]}"
    return f"{x.numerator}/{x.denominator}"


@lru_cache(maxsize=16)
def patterns(n: int) -> tuple:
    """Every pattern of ``n`` counted cards (the partitions of n, largest block first).

    >>> patterns(3)
    ((3,), (2, 1), (1, 1, 1))
    """
    def parts(n, most):
        if n == 0:
            yield ()
            return
        for first in range(min(n, most), 0, -1):
            for rest in parts(n - first, first):
                yield (first,) + rest
    return tuple(parts(n, n))


def pattern_words(pattern: tuple) -> str:
    """A pattern in words.

    >>> [pattern_words(p) for p in patterns(3)]
    ['3 alike', '2 alike + 1', '3 different']
    >>> pattern_words(())
    'no card counted'
    """
    if not pattern:
        return "no card counted"
    if all(b == 1 for b in pattern):
        return f"{len(pattern)} different" if len(pattern) > 1 else "1 card"
    alike = [f"{b} alike" for b in pattern if b > 1]
    singles = sum(1 for b in pattern if b == 1)
    return " + ".join(alike) + (f" + {singles}" if singles else "")


# -- rule files ------------------------------------------------------------------------------


def parse_chance_table(table, context: str, path: str, key_kind: str) -> tuple:
    """((key, chance), ...) from a TOML table of chances (exact fractions; decimals read as
    written), checked: keys as ``key_kind`` says, chances from 0 to 1, summing to 1."""
    from .amounts import parse_amount

    if not isinstance(table, dict) or not table:
        raise BaccaratError(f"{context}: {path}: must be a table of chances, such as {{ 2 = \"1/2\", 3 = \"1/2\" }}")
    most = DECK + 1 if key_kind == "count" else MAX_VALUES
    if len(table) > most:
        raise BaccaratError(f"{context}: {path}: {len(table)} entries (at most {most})")
    out = []
    for key, chance in table.items():
        where = f"{path}.{key}"
        inner = next(iter(chance), "") if isinstance(chance, dict) and len(chance) == 1 else ""
        if isinstance(chance, dict) and exact_key(key) is not None and exact_key(inner) is not None:
            raise BaccaratError(f"{context}: {where}: a key with a decimal point is written in quotes "
                                f"(\"{key}.{inner}\" = ...)")  # TOML read 1.5 = ... as the key 1 holding a table 5
        if str(chance).strip().startswith("-"):
            raise BaccaratError(f"{context}: {where}: a chance is from 0 to 1 (got {chance})")
        try:
            p = parse_amount(chance, context, where)
        except BaccaratError:
            raise BaccaratError(f"{context}: {where}: {str(chance)[:40]!r} is not a chance (a fraction such as "
                                "\"1/5\" or a decimal such as 0.2)") from None
        if p > 1:
            raise BaccaratError(f"{context}: {where}: a chance is from 0 to 1 (got {chance})")
        out.append((parse_key(key, context, where, key_kind), p))
    keys = [k for k, _ in out]
    if len(set(keys)) != len(keys):
        raise BaccaratError(f"{context}: {path}: a key is given twice")
    total = sum(p for _, p in out)
    if total != 1:
        raise BaccaratError(f"{context}: {path}: the chances sum to {total}, not 1")
    return tuple(sorted(out))


KEY = re.compile(r"^[0-9]+(\.[0-9]+)?$")  # a table's key: a plain decimal number (no sign, exponent or underscore)


def exact_key(text: str) -> Fraction | None:
    """A key as an exact number, or None: plain decimals of at most MAX_DIGITS digits.

    >>> exact_key("8"), exact_key("1.5"), exact_key("1e999999999"), exact_key("1_0"), exact_key("inf")
    (Fraction(8, 1), Fraction(3, 2), None, None, None)
    """
    text = text.strip()
    if not KEY.match(text) or sum(c.isdigit() for c in text) > MAX_DIGITS:
        return None
    return Fraction(Decimal(text))


def parse_key(key: str, context: str, where: str, key_kind: str):
    x = exact_key(key)
    if x is None:
        raise BaccaratError(f"{context}: {where}: {key[:40]!r} is not a number (a plain decimal such as 8 or \"1.5\", "
                            f"at most {MAX_DIGITS} digits)")
    if key_kind == "count":
        if x.denominator != 1 or not 0 <= x <= DECK:
            raise BaccaratError(f"{context}: {where}: a count of cards drawn is a whole number from 0 to {DECK} (got {key})")
        return int(x)
    if x < 1:
        raise BaccaratError(f"{context}: {where}: a multiplier is at least 1 (got {key})")
    if x > MAX_MULTIPLIER:
        raise BaccaratError(f"{context}: {where}: a multiplier is at most {MAX_MULTIPLIER:,} (got {key})")
    return x


def parse_multipliers(data, context: str, path: str, labels: list[str]) -> Multipliers:
    """A bet's ``[bets.multipliers]`` table: ``cards``, ``count`` and ``value`` (card
    multipliers), or ``spot`` (one multiplier for the spot); optional ``lines``, the pay lines
    multiplied (labels or numbers from 1; default every winning line)."""
    if not isinstance(data, dict):
        raise BaccaratError(f"{context}: {path}: must be a table (cards, count, value; or spot)")
    unknown_keys = sorted(set(data) - MULTIPLIER_KEYS)
    if unknown_keys:
        raise BaccaratError(f"{context}: {path}: unknown key {unknown_keys[0]!r} (keys: {', '.join(sorted(MULTIPLIER_KEYS))})")
    lines = parse_lines(data["lines"], context, f"{path}.lines", labels) if "lines" in data else None
    if "spot" in data:
        extra = sorted({"cards", "count", "value"} & set(data))
        if extra:
            raise BaccaratError(f"{context}: {path}: a spot multiplier takes no {extra[0]!r} (it is one multiplier for the spot)")
        return Multipliers(None, ((1, Fraction(1)),), parse_chance_table(data["spot"], context, f"{path}.spot", "value"), lines)
    missing = [k for k in ("cards", "count", "value") if k not in data]
    if missing:
        raise BaccaratError(f"{context}: {path}: card multipliers need {', '.join(missing)} (or give a spot table)")
    return Multipliers(parse_cards(data["cards"], context, f"{path}.cards"),
                       parse_chance_table(data["count"], context, f"{path}.count", "count"),
                       parse_chance_table(data["value"], context, f"{path}.value", "value"), lines)


def check_lines(conditions: tuple, multipliers: Multipliers, context: str, path: str) -> None:
    """Refuse, at load, the lines a multiplied bet's counting cannot read: it reads the coup's
    point values and draws, and with ``cards = "pair"`` exactly one hand's pair (routes/
    multipliers.py). The fields each condition reads are found by asking it on empty fields."""
    from ..game.layout import np, value_fields

    if multipliers.spot:  # one multiplier for the spot: no card counted, any line
        return
    allowed = set(value_fields(*(np.zeros(1, np.int64) for _ in range(2)), *(np.full(1, -1) for _ in range(2))))
    read = set()
    for condition in conditions:
        if condition.needs().cards:
            raise BaccaratError(f"{context}: {path}: a multiplied bet's lines read the coup's point values and draws, "
                                "not single cards (ranks, suits, places)")
        read |= fields_read(condition)
    pairs = read & {"player_pair", "banker_pair"}
    if multipliers.cards == "pair" and len(pairs) != 1:
        raise BaccaratError(f"{context}: {path}.cards: \"pair\" counts the pair the bet reads: its lines read one of "
                            "player_pair and banker_pair (or list the places: [\"player_1\", \"player_2\"])")
    other = sorted(read - allowed - (pairs if multipliers.cards == "pair" else set()))
    if other and not multipliers.spot:
        raise BaccaratError(f"{context}: {path}: a multiplied bet's lines read the coup's point values and draws "
                            f"(and, with cards = \"pair\", that pair), not {other[0]}")


def fields_read(condition) -> set:
    """The outcome fields ``condition`` reads (asked on fields that record each name read)."""
    from ..game.layout import np

    names = set()

    class Recording(dict):
        def __missing__(self, key):
            names.add(key)
            return np.zeros(1, np.int64)

    condition.mask(Recording(_=np.zeros(1, np.int64)))
    return names


def parse_cards(value, context: str, path: str):
    if isinstance(value, str):
        if value not in CARD_MODES:
            raise BaccaratError(f"{context}: {path}: {value!r} is not one of {', '.join(CARD_MODES)} or a list of places")
        return value
    if isinstance(value, list) and value and all(isinstance(v, str) for v in value):
        bad = [v for v in value if v not in PLACES]
        if bad:
            raise BaccaratError(f"{context}: {path}: {bad[0]!r} is not a place ({', '.join(PLACES)})")
        if len(set(value)) != len(value):
            raise BaccaratError(f"{context}: {path}: a place is listed twice")
        return tuple(sorted(value, key=PLACES.index))
    raise BaccaratError(f"{context}: {path}: must be \"winner\", \"all\", \"pair\" or a list of places")


def parse_lines(value, context: str, path: str, labels: list[str]) -> tuple:
    if not isinstance(value, list) or not value:
        raise BaccaratError(f"{context}: {path}: must be a list of pay lines (labels or numbers from 1)")
    out = []
    for item in value:
        if isinstance(item, int) and not isinstance(item, bool) and 1 <= item <= len(labels):
            out.append(item - 1)
        elif isinstance(item, str) and item in labels:
            out.append(labels.index(item))
        else:
            raise BaccaratError(f"{context}: {path}: {item!r} is not a pay line of the bet (labels: {', '.join(labels)})")
    return tuple(sorted(set(out)))


EXAMPLE = Multipliers("winner", tuple((k, Fraction(1, 5)) for k in range(1, 6)),
                      ((Fraction(2), Fraction(7, 20)), (Fraction(3), Fraction(3, 10)), (Fraction(4), Fraction(1, 5)),
                       (Fraction(5), Fraction(1, 10)), (Fraction(8), Fraction(1, 20))))


# -- a multiplied bet's figures ----------------------------------------------------------------


@dataclass(frozen=True)
class MultipliedResult(BetResult):
    """A bet's result with its multipliers: the lines' counts as any bet's (``sequences`` of
    ``total``), and ``patterns``: for each multiplied line, how its counted cards fall, as
    (line index, pattern, count), the counts of a line summing to the line's (Fractions in the
    infinite-deck limit). Its EV, variance, return to player, largest payout and the share of
    the winnings paid on multiplied wins are exact Fractions."""

    patterns: tuple = ()

    def moments(self) -> tuple:
        """(EV, variance) alone: integer sums over the lines' and patterns' counts, each weighted
        by its net (times its pattern's E[M] and E[M**2]) over one common denominator a bet."""
        kept = self.__dict__.get("_figures") or self.__dict__.get("_moments")
        if kept is None:
            kept = self.__dict__["_moments"] = overlay_moments(self)
        return kept["ev"], kept["variance"]

    def _figures(self) -> dict:
        return overlay_figures(self)


def overlay_moments(result) -> dict:
    """EV and variance of a multiplied bet from integer sums (see MultipliedResult.moments); the
    infinite deck's Fraction counts through the same sums, in Fractions."""
    bet, total = result.bet, result.total
    scale, plain, weights = weights_of(bet)
    lost = total - sum(result.sequences)
    first = sum(plain[i][0] * c for i, c in enumerate(result.sequences) if plain[i] is not None) - scale[0] * lost
    second = sum(plain[i][1] * c for i, c in enumerate(result.sequences) if plain[i] is not None) + scale[1] * lost
    for i, pattern, count in result.patterns:
        one, two = weights(i, pattern)
        first += one * count
        second += two * count
    mean = Fraction(first) / (scale[0] * total)
    return {"ev": mean - bet.fee, "variance": Fraction(second) / (scale[1] * total) - mean * mean}


@lru_cache(maxsize=256)
def weights_of(bet) -> tuple:
    """((d1, d2), plain, weights): common denominators of the bet's first and second moments'
    weights; plain[i] the (d1 net, d2 net**2) of each line not multiplied (None for those that
    are); weights(i, pattern) the (d1 net E[M], d2 net**2 E[M**2]) of a multiplied line's pattern,
    for every pattern of up to six cards (and the spot's)."""
    table = bet.multipliers
    multiplied = set(table.multiplied(bet))
    nets = [Fraction(bet.net(ln)) for ln in bet.lines]
    shapes = [()] if table.spot else [p for n in range(MOST_COUNTED + 1) for p in patterns(n)]
    firsts = {(i, p): nets[i] * table.mean(p) for i in multiplied for p in shapes}
    seconds = {(i, p): nets[i] ** 2 * table.mean(p, 2) for i in multiplied for p in shapes}
    d1 = math.lcm(*(x.denominator for x in [*firsts.values(), *nets]))
    d2 = math.lcm(*(x.denominator for x in [*seconds.values(), *(n * n for n in nets)]))
    plain = [None if i in multiplied else (int(n * d1), int(n * n * d2)) for i, n in enumerate(nets)]
    scaled = {key: (int(firsts[key] * d1), int(seconds[key] * d2)) for key in firsts}
    return (d1, d2), plain, lambda i, pattern: scaled[i, () if table.spot else pattern]




def overlay_figures(result) -> dict:
    """Every figure of a multiplied bet (see MultipliedResult): its EV and variance as
    :func:`overlay_moments` sums them; beside them, line by line and pattern by pattern (a
    multiplied line pays its net times M), each pattern's row, the largest payout and its chance,
    and the share of the winnings paid on multiplied wins."""
    bet, total, table = result.bet, result.total, result.bet.multipliers
    multiplied = set(table.multiplied(bet))
    lines = bet.lines
    won = sum(c for c, ln in zip(result.sequences, lines) if ln.pays != 0)
    pushed = sum(c for c, ln in zip(result.sequences, lines) if ln.pays == 0)
    probabilities = tuple(Fraction(c) / total for c in result.sequences)
    loss = 1 - Fraction(won) / total - Fraction(pushed) / total
    on_multiplied, winnings = Fraction(0), Fraction(0)
    best, best_chance = Fraction(0), Fraction(0)
    rows = []
    for i, (ln, p) in enumerate(zip(lines, probabilities)):
        net = Fraction(bet.net(ln))
        if i in multiplied:
            continue
        if net > 0:
            winnings += p * net
            if net > best:
                best, best_chance = net, Fraction(0)
            if net == best:
                best_chance += p
    for i, pattern, count in result.patterns:
        net, p = Fraction(bet.net(lines[i])), Fraction(count) / total
        if not p:
            continue
        mean = table.mean(pattern)
        rows.append({"line": i, "label": lines[i].label, "pattern": pattern, "words": pattern_words(pattern),
                     "probability": p, "mean": mean, "return": p * net * mean})
        if net > 0:
            winnings += p * net * mean
            on_multiplied += p * net * (mean - table.unmultiplied(pattern))
            top, chance = table.largest(pattern)
            if net * top > best:
                best, best_chance = net * top, Fraction(0)
            if net * top == best:
                best_chance += p * chance
    fee = bet.fee
    moments = overlay_moments(result)
    ev = moments["ev"]
    return {"line_probabilities": probabilities, "win": Fraction(won) / total, "push": Fraction(pushed) / total,
            "loss": loss, "hits_one_in": Fraction(total) / won if won else None,
            "ev": ev, "variance": moments["variance"], "house_edge": -ev,
            "house_edge_resolved": None if pushed == total else -ev / (1 - Fraction(pushed) / total),
            "rtp": (1 + fee + ev) / (1 + fee), "fee": fee, "largest": best, "largest_chance": best_chance,
            "multiplied_share": on_multiplied / winnings if winnings else Fraction(0), "patterns": rows}
