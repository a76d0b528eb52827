"""Benchmark: Kayles defined in Python to heap N (default 2000) against the built-in.

    maturin develop --release   (in crates/grundy-py, inside the project's .venv)
    python crates/grundy-py/bench/kayles.py [N]

Prints the time of each way and its cost per move generated (the same move count as the Rust
bench `cargo bench -p grundy --bench scripted`: each split (left, right) with left <= right).
"""

import sys
import time

import grundy


def kayles_heap(n):
    return [(left, n - r - left) for r in (1, 2) if r <= n for left in range((n - r) // 2 + 1)]


class Kayles(grundy.Game):
    """A position is a sorted tuple of heaps; components split it into single heaps."""

    def moves(self, pos):
        (n,) = pos
        return [tuple(h for h in split if h) for split in kayles_heap(n)]

    def components(self, pos):
        return [(h,) for h in pos]


def main():
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 2000
    moves = sum(len(kayles_heap(h)) for h in range(n + 1))
    rows = []

    t = time.perf_counter()
    heap = grundy.heap_game(kayles_heap, "kayles").sequence(n)
    rows.append(("grundy.heap_game (Python moves, mex in Rust)", time.perf_counter() - t))

    t = time.perf_counter()
    values = [grundy.analyze_game(Kayles(), (n,)).value]
    rows.append(("grundy.analyze_game (Game class, generic engine)", time.perf_counter() - t))

    t = time.perf_counter()
    builtin = grundy.sequence("kayles", to=n)
    rows.append(("grundy.sequence('kayles') (built-in fast path)", time.perf_counter() - t))

    assert [int(v) for v in heap.values] == [int(v) for v in builtin.values]
    assert values[-1] == int(builtin.values[n])
    print(f"Kayles g(0)..g({n}): {moves} moves")
    for name, seconds in rows:
        print(f"  {name:<50} {seconds * 1e3:>9.1f} ms  {seconds * 1e9 / moves:>8.1f} ns/move")


if __name__ == "__main__":
    main()
