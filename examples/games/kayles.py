"""Kayles in Python: a row of pins; knock down one pin or two adjacent pins. A position is a
tuple of row lengths, and `components` splits it into rows, so the engine memoises rows.

    python examples/games/kayles.py
"""

import grundy


class Kayles(grundy.Game):
    def moves(self, pos):
        out = []
        for i, n in enumerate(pos):
            rest = pos[:i] + pos[i + 1:]
            for take in (1, 2):
                for left in range(0, n - take + 1):
                    right = n - take - left
                    out.append(tuple(sorted(rest + (left, right))))
        return out

    def components(self, pos):
        return [(n,) for n in pos if n > 0]


def kayles_heap(n):
    """The same game as a heap rule for grundy.heap_game: the heaps left by each move."""
    return [(left, n - take - left) for take in (1, 2) if take <= n for left in range(n - take + 1)]


if __name__ == "__main__":
    print(grundy.analyze_game(Kayles(), (10, 3)))
    print(grundy.heap_game(kayles_heap, "kayles").sequence(100).period)
