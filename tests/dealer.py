"""An independent dealer for the tests: deals a coup from real cards, rule by rule as the
source documents state them (../shared/seeds/), with no code shared with the enumerator."""

from collections import Counter
from itertools import permutations

POINT_VALUE = {"A": 1, "2": 2, "3": 3, "4": 4, "5": 5, "6": 6, "7": 7, "8": 8, "9": 9,
               "T": 0, "J": 0, "Q": 0, "K": 0}


def banker_draws(banker, player_third):
    """The Banker's rule once the Player has acted (player_third is None when he stood)."""
    if player_third is None:
        return banker <= 5
    if banker <= 2:
        return True
    if banker == 3:
        return player_third != 8
    if banker == 4:
        return 2 <= player_third <= 7
    if banker == 5:
        return 4 <= player_third <= 7
    if banker == 6:
        return player_third in (6, 7)
    return False


def banker_stands_on_6(banker, player_third):
    """The variant tableau: as punto banco, but the Banker never draws on 6."""
    return banker != 6 and banker_draws(banker, player_third)


def deal(cards, banker_rule=banker_draws):
    """Deal one coup from ``cards`` (a sequence of rank+suit strings like 'Td', top first):
    Player, Banker, Player, Banker, then third cards. Returns the outcome as a dict."""
    cards = iter(cards)
    p = [next(cards), None]
    b = [next(cards), None]
    p[1], b[1] = next(cards), next(cards)
    total = lambda hand: sum(POINT_VALUE[c[0]] for c in hand) % 10  # noqa: E731
    pt, bt = total(p), total(b)
    p3 = b3 = None
    if pt < 8 and bt < 8:
        if pt <= 5:
            p.append(next(cards))
            p3 = POINT_VALUE[p[2][0]]
        if banker_rule(bt, p3):
            b.append(next(cards))
            b3 = POINT_VALUE[b[2][0]]
    pf, bf = total(p), total(b)
    return {
        "player_total": pf, "banker_total": bf,
        "player_third": -1 if p3 is None else p3, "banker_third": -1 if b3 is None else b3,
        "player_pair": p[0][0] == p[1][0], "banker_pair": b[0][0] == b[1][0],
        "player_suited": p[0][1] == p[1][1], "banker_suited": b[0][1] == b[1][1],
        "player_natural": pt >= 8, "banker_natural": bt >= 8,
        "player_two_card": pt, "banker_two_card": bt, "cards": len(p) + len(b),
        "winner": (pf > bf) - (pf < bf),
        "player_hand": tuple(p), "banker_hand": tuple(b),  # the cards themselves, e.g. ('Kh', '9s')
    }


def brute_force(cards, keys):
    """Counter of outcomes (restricted to ``keys``) over every ordered 6-card sequence of ``cards``
    (a list of physical cards; duplicates are distinct physical cards)."""
    tally = Counter()
    for seq in permutations(cards, 6):
        outcome = deal(seq)
        tally[tuple(outcome[k] for k in keys)] += 1
    return tally
