"""Euclid's game in Python (see euclid.rhai for the same game as a rule script).

From (a, b), take a positive multiple of the smaller number from the larger, leaving it 0 or
more; the player who makes a number 0 wins, so a position with a 0 has no move. With
a >= b > 0 the player to move loses exactly when a < phi * b (phi the golden ratio).

    python examples/games/euclid.py
"""

import grundy


class Euclid(grundy.Game):
    def moves(self, pos):
        a, b = pos
        if a == 0 or b == 0:
            return []
        if a < b:
            return [(a, b - k * a) for k in range(1, b // a + 1)]
        return [(a - k * b, b) for k in range(1, a // b + 1)]


if __name__ == "__main__":
    for pos in [(21, 13), (5, 2), (34, 21)]:
        a = grundy.analyze_game(Euclid(), pos)
        print(pos, a.outcome, "value", a.value, "winning moves", a.winning_moves)
