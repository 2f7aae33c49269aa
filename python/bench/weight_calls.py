"""The Python side of the calling-overhead measurement: solves the same 10,000 random 8 x 8
weight grids as `cargo run --release --example weight_calls` (python/examples/weight_calls.rs)
through `queens.weight`, and prints the time per call.

    python python/bench/weight_calls.py [COUNT] [THREADS] [N]
"""

import sys
import time

import queens


def grids(count, n=8):
    """N x N grids, weights 1..=99 from a 64-bit LCG seeded with 1, as the Rust side draws
    them."""
    x = 1
    mask = (1 << 64) - 1
    out = []
    for _ in range(count):
        cells = []
        for _ in range(n * n):
            x = (x * 6364136223846793005 + 1442695040888963407) & mask
            cells.append((x >> 33) % 99 + 1)
        out.append([cells[r * n:(r + 1) * n] for r in range(n)])
    return out


def main():
    count = int(sys.argv[1]) if len(sys.argv) > 1 else 10_000
    threads = int(sys.argv[2]) if len(sys.argv) > 2 else 0
    n = int(sys.argv[3]) if len(sys.argv) > 3 else 8
    boards = grids(count, n)
    cpu = time.process_time()
    started = time.perf_counter()
    total = 0
    if threads == 0:
        # The common call: the default thread count, no keyword (a keyword costs a dict per
        # call under the stable ABI for Python 3.9).
        for grid in boards:
            total += queens.weight(grid).sum
    else:
        for grid in boards:
            total += queens.weight(grid, threads=threads).sum
    wall = time.perf_counter() - started
    cpu = time.process_time() - cpu
    print(
        f"python: {count} calls on {n}x{n}, threads {threads}: wall {wall:.4f} s ({wall * 1e6 / count:.1f} us/call), "
        f"cpu {cpu:.4f} s ({cpu * 1e6 / count:.1f} us/call), sum of sums {total}"
    )


if __name__ == "__main__":
    main()
