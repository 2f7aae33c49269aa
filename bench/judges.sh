#!/usr/bin/env bash
# Whole-process time of `queens judge` against plain C accepted-style programs (bench/*_reference.c,
# gcc -O2), on one case and on a large input of each judge, process start included. Runs are
# interleaved (ours, theirs, ours, ...), ROUNDS of each (default 40); prints the medians and the
# ratio theirs / ours (above 1: ours is faster). Outputs are compared byte for byte first.
# Two builds of ours: the default `cargo build --release` (dynamically linked) and, unless
# STATIC=0, a statically linked one (`-C target-feature=+crt-static`, in target/static), which
# saves the loading of the shared libraries at every start (README, "Judges").
set -euo pipefail
cd "$(git rev-parse --show-toplevel)"
ROUNDS=${ROUNDS:-40}
cargo build --release --quiet
STATIC=${STATIC:-1}
STATIC_BIN=""
if [ "$STATIC" != 0 ]; then
    RUSTFLAGS="-C target-feature=+crt-static" cargo build --release --quiet \
        --target x86_64-unknown-linux-gnu --target-dir target/static
    STATIC_BIN=target/static/x86_64-unknown-linux-gnu/release/queens
fi
mkdir -p target/bench
for p in lightoj1061 uva167 uva11214; do
    gcc -O2 -o "target/bench/${p}_reference" "bench/${p}_reference.c"
done
python3 - "$ROUNDS" "$STATIC_BIN" <<'PY'
import random, statistics, subprocess, sys, time
rounds = int(sys.argv[1])
static_bin = sys.argv[2] if len(sys.argv) > 2 else ""
rng = random.Random(167)
def lightoj(k):
    out = [str(k)]
    for _ in range(k):
        sq = set(rng.sample(range(64), 8))
        out.append("\n" + "\n".join("".join("q" if r * 8 + c in sq else "." for c in range(8)) for r in range(8)))
    return "\n".join(out) + "\n"
def uva167(k):
    return f"{k}\n" + "".join(" ".join(str(rng.randint(1, 99)) for _ in range(8)) + "\n" for _ in range(8 * k))
def first_uva11214():
    text = open("examples/judge/uva11214.in").read().split("\n")
    n = int(text[0].split()[0])
    return "\n".join(text[: n + 1]) + "\n0\n"
inputs = {
    ("lightoj1061", "1 board"): lightoj(1),
    ("lightoj1061", "200 boards"): lightoj(200),
    ("uva167", "1 board"): uva167(1),
    ("uva167", "20 boards"): uva167(20),
    ("uva167", "500 boards"): uva167(500),
    ("uva11214", "1 case (full 8x8)"): first_uva11214(),
    ("uva11214", "examples file (9 cases)"): open("examples/judge/uva11214.in").read(),
}
def run(cmd, text):
    start = time.perf_counter()
    out = subprocess.run(cmd, input=text.encode(), stdout=subprocess.PIPE, check=True).stdout
    return time.perf_counter() - start, out
print(f"{'judge':12} {'input':26} {'ours ms':>8} {'static':>8} {'C ms':>8} {'C/ours':>7} {'C/static':>8}")
for (judge, what), text in inputs.items():
    cmds = [["target/release/queens", "judge", judge], [f"target/bench/{judge}_reference"]]
    if static_bin:
        cmds.append([static_bin, "judge", judge])
    outputs = [run(cmd, text)[1] for cmd in cmds]
    assert all(o == outputs[0] for o in outputs), f"{judge} {what}: outputs differ"
    times = [[] for _ in cmds]
    for _ in range(rounds):
        for i, cmd in enumerate(cmds):
            times[i].append(run(cmd, text)[0])
    o, r = (statistics.median(t) * 1000 for t in times[:2])
    if static_bin:
        st = statistics.median(times[2]) * 1000
        print(f"{judge:12} {what:26} {o:8.2f} {st:8.2f} {r:8.2f} {r / o:7.2f} {r / st:8.2f}")
    else:
        print(f"{judge:12} {what:26} {o:8.2f} {'-':>8} {r:8.2f} {r / o:7.2f} {'-':>8}")
PY
