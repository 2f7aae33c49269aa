"""The Python side of the calling-overhead measurement: solves the same 10,000 random 8 x 8
weight grids as `cargo run --release --example weight_calls` (python/examples/weight_calls.rs)
through `queens.weight`, and prints the time per call.

    python python/bench/weight_calls.py [COUNT] [THREADS]
"""

import os
import sys
import time

import queens


def grids(count):
    """Weights 1..=99 from a 64-bit LCG seeded with 1, as the Rust side draws them."""
    x = 1
    mask = (1 << 64) - 1
    out = []
    for _ in range(count):
        cells = []
        for _ in range(64):
            x = (x * 6364136223846793005 + 1442695040888963407) & mask
            cells.append((x >> 33) % 99 + 1)
        out.append([cells[r * 8:(r + 1) * 8] for r in range(8)])
    return out


def main():
    count = int(sys.argv[1]) if len(sys.argv) > 1 else 10_000
    threads = int(sys.argv[2]) if len(sys.argv) > 2 else 0
    boards = grids(count)
    cpu = time.process_time()
    started = time.perf_counter()
    total = 0
    for grid in boards:
        total += queens.weight(grid, threads=threads).sum
    wall = time.perf_counter() - started
    cpu = time.process_time() - cpu
    print(
        f"python: {count} calls, threads {threads}: wall {wall:.3f} s ({wall * 1e6 / count:.1f} us/call), "
        f"cpu {cpu:.3f} s ({cpu * 1e6 / count:.1f} us/call), sum of sums {total}"
    )


if __name__ == "__main__":
    main()
