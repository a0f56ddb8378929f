"""Write examples/pit_coups.txt and examples/wagers.csv: ten two-deck shoes dealt by the
simulator, and the wagers of four synthetic players at that table (the docs' and README's
`baccarat protect` example): ana and dee ignore the cards, ben counts Dragon 7 (Eliot Jacobson's
count, true count 4 or more), cai sees whether the first card is 7, 8 or 9 (edge sorting) and
bets the Player big when it is.

Run: python scripts/make_protect_example.py
"""

import random
from pathlib import Path

from analyzer.game.cards import Shoe
from analyzer.pit.replay import card_text
from analyzer.questions.simulate import Deal, deal_coups, shuffled_shoe
from analyzer.game.tableau import PUNTO_BANCO

ROOT = Path(__file__).resolve().parent.parent
JACOBSON = [0, 0, 0, -1, -1, -1, -1, 2, 2, 0]  # A, 2..9, ten-value cards


def main():
    deal = Deal(decks=2, cut=14, burn="none")
    rng = random.Random(38)
    coup_lines = ["# Ten two-deck shoes dealt by the simulator (scripts/make_protect_example.py)"]
    wagers = ["shoe,coup,seat,player,bet,amount"]
    for s in range(1, 11):
        cards = shuffled_shoe(deal, 2026, s)[None, :]
        coups = deal_coups(deal, PUNTO_BANCO, cards)
        coup_lines.append(f"shoe {s}")
        seen = [0] * 13
        for i in range(len(coups.start)):
            start, used = int(coups.start[i]), int(coups.used[i])
            kinds = [int(k) for k in cards[0, start:start + used]]
            coup_lines.append(" ".join(card_text((k // 4, k % 4)) for k in kinds))
            left = 104 - start
            running = sum(JACOBSON[min(r, 9)] * n for r, n in enumerate(seen))
            if 52 * running >= 4 * left:
                wagers.append(f"{s},{i + 1},2,ben,dragon_7,25")
            if rng.random() < 0.6:
                wagers.append(f"{s},{i + 1},1,ana,{rng.choice(['banker', 'player'])},{rng.choice([25, 50, 100])}")
            if rng.random() < 0.2:
                wagers.append(f"{s},{i + 1},5,dee,tie,{rng.choice([5, 10])}")
            wagers.append(f"{s},{i + 1},3,cai,player,{200 if kinds[0] // 4 in (6, 7, 8) else 20}")
            for k in kinds:
                seen[k // 4] += 1
    (ROOT / "examples" / "pit_coups.txt").write_text("\n".join(coup_lines) + "\n")
    (ROOT / "examples" / "wagers.csv").write_text("\n".join(wagers) + "\n")


if __name__ == "__main__":
    main()
