#!/usr/bin/env bash
# `queens complete` against the specialist bitset solver of CSPLib problem 079
# (models/shiftqueensdiags.cc, built here with g++ -O3) on the published excluded-diagonals
# instances (data/diag-N.tar.gz), closing the first D diagonals of each.
#
#   CSPLIB=/path/to/csplib bench/complete.sh [N [D [SAMPLE [SEED]]]]
#
# CSPLIB is a checkout of github.com/csplib/csplib, or a bare git directory of it (read
# with `git show`); nothing of it is copied into this repository. N defaults to 21, D to 19;
# SAMPLE instances (default: all 1,000) are drawn at random with SEED (default 79). The two
# solvers run one after the other on each instance, the first of the pair alternating, each
# with a time limit of LIMIT seconds (default 600). Prints one line per instance, then per
# solver the median, maximum and total CPU time (user + system) and wall time, the ratios
# (shiftqueens / ours: above 1, ours is faster), and whether every SAT/UNSAT answer agrees.
# Ours runs with THREADS worker threads (default 1), for decisions and counts alike.
# Where CSPLib publishes no instances for N (above 21), SAMPLE instances (default 100) are
# made with its generator (data/queens-diag-gen.py N 4 SEED, seeds 1, 2, ...). PEER=0 skips
# shiftqueens; COUNT=1 also counts every instance's completions with ours (`--count`, THREADS
# threads) and prints the counts' CPU time. CPSAT=PY also runs CP-SAT (the peers' cpsat.py,
# under SHARED/peers, default ../shared/peers) with the Python PY that has ortools, on
# THREADS workers with the same time limit, and checks its answers too.
set -euo pipefail
cd "$(git rev-parse --show-toplevel)"
: "${CSPLIB:?set CSPLIB to a checkout (or a bare git directory) of csplib/csplib}"
N=${1:-21}
D=${2:-19}
SAMPLE=${3:-0}
SEED=${4:-79}
LIMIT=${LIMIT:-600}
THREADS=${THREADS:-1}
SHARED=${SHARED:-$(pwd)/../shared}
CPSAT=${CPSAT:-}
if [ -n "$CPSAT" ] && [ ! -f "$SHARED/peers/cpsat.py" ]; then
    echo "CPSAT is set but $SHARED/peers/cpsat.py is missing (set SHARED)" >&2
    exit 2
fi
cargo build --release --quiet
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
from_csplib() {
    if [ -e "$CSPLIB/$1" ]; then
        cat "$CSPLIB/$1"
    else
        git --git-dir="$CSPLIB" show "HEAD:$1"
    fi
}
from_csplib Problems/prob079/models/shiftqueensdiags.cc > "$WORK/shiftqueens.cc"
g++ -O3 -o "$WORK/shiftqueens" "$WORK/shiftqueens.cc"
# A copy, so that a rebuild during the run does not change the binary under it.
cp target/release/queens "$WORK/queens"
if from_csplib "Problems/prob079/data/diag-$N.tar.gz" > "$WORK/diag.tar.gz" 2>/dev/null; then
    tar xzf "$WORK/diag.tar.gz" -C "$WORK"
else
    from_csplib Problems/prob079/data/queens-diag-gen.py > "$WORK/gen.py"
    mkdir -p "$WORK/diag-$N"
    seeds=$SAMPLE
    [ "$seeds" = 0 ] && seeds=100
    for seed in $(seq 1 "$seeds"); do
        python3 "$WORK/gen.py" "$N" 4 "$seed" > "$WORK/diag-$N/diag-$N-4-$seed.param"
    done
fi
python3 - "$WORK" "$N" "$D" "$SAMPLE" "$SEED" "$LIMIT" "$THREADS" "${PEER:-1}" "${COUNT:-0}" \
    "$CPSAT" "$SHARED/peers/cpsat.py" <<'PY'
import glob, json, os, random, re, resource, statistics, subprocess, sys, time
work, n, d, sample, seed, limit, threads, peer, count, cpsat, cpsat_py = sys.argv[1:12]
peer, count = peer != "0", count != "0"
n, d, sample, limit = int(n), int(d), int(sample), float(limit)
files = sorted(glob.glob(os.path.join(work, f"diag-{n}", "*.param")))
if sample and sample < len(files):
    files = sorted(random.Random(int(seed)).sample(files, sample))
queens = os.path.join(work, "queens")

def timed(cmd, stdin_text=None):
    """Runs cmd; returns (stdout, wall seconds, CPU seconds of the child)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    out = subprocess.run(cmd, input=stdin_text, capture_output=True, text=True).stdout
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return out, wall, cpu

def ours(path):
    out, wall, cpu = timed([queens, "complete", path, "--diagonals", str(d), "--json",
                            "-q", "-j", threads, "-t", str(limit)])
    a = json.loads(out)
    verdict = "SAT" if a["completed"] else ("UNSAT" if a["proven"] else "?")
    return verdict, wall, cpu, a["nodes"]

def counted(path):
    out, wall, cpu = timed([queens, "complete", path, "--diagonals", str(d), "--json", "--count",
                            "-q", "-j", threads, "-t", str(limit)])
    a = json.loads(out)
    return int(a["completions"]), a["complete"], wall, cpu

def theirs(path):
    if not peer:
        return "?", 0.0, 0.0, 0
    numbers = " ".join(re.findall(r"\d+", open(path).read()))
    out, wall, cpu = timed(["timeout", str(limit), os.path.join(work, "shiftqueens"), str(d)],
                           numbers)
    if "Solution Found" in out:
        verdict = "SAT"
    elif "No solution" in out:
        verdict = "UNSAT"
    else:
        verdict = "?"
    m = re.search(r"Nodes: (\d+)", out)
    return verdict, wall, cpu, int(m.group(1)) if m else 0

def cp_sat(path):
    """CP-SAT's verdict, wall and CPU seconds (None when CPSAT is not set)."""
    if not cpsat:
        return None
    out, wall, cpu = timed([cpsat, cpsat_py, "complete", f"{path}:{d}", threads, str(limit)])
    fields = out.split()
    verdict = "?"
    if len(fields) >= 2 and fields[1] == "OPTIMAL":
        verdict = "SAT" if fields[0] == "1" else "UNSAT"
    return verdict, wall, cpu

rows = []
counts = []
cpsat_rows = []
print(f"n = {n}, d = {d}: {len(files)} instances; ours with {threads} thread(s)")
print(f"{'instance':24} {'answer':6} {'ours cpu':>9} {'theirs cpu':>10} {'ratio':>7} {'our nodes':>11} {'their nodes':>12}")
for i, path in enumerate(files):
    if i % 2 == 0:
        a = ours(path); b = theirs(path)
    else:
        b = theirs(path); a = ours(path)
    agree = a[0] == b[0] or "?" in (a[0], b[0])
    rows.append((os.path.basename(path), a, b, agree))
    ratio = b[2] / max(a[2], 1e-3)
    flag = "" if a[0] == b[0] else (f"  (undecided: ours {a[0]}, shiftqueens {b[0]})" if agree else f"  DISAGREE: ours {a[0]}, shiftqueens {b[0]}")
    if not peer:
        flag = ""
    print(f"{os.path.basename(path):24} {a[0]:6} {a[2]:9.3f} {b[2]:10.3f} {ratio:7.1f} {a[3]:11} {b[3]:12}{flag}", flush=True)
    c = cp_sat(path)
    if c is not None:
        cpsat_rows.append(c)
        bad = "?" not in (a[0], c[0]) and a[0] != c[0]
        print(f"{'':24} CP-SAT: {c[0]}, {c[2]:.3f} s CPU, {c[1]:.3f} s wall"
              f"{'  DISAGREE with ours' if bad else ''}", flush=True)
        if bad:
            rows[-1] = rows[-1][:3] + (False,)
    if count:
        c = counted(path)
        counts.append(c)
        print(f"{'':24} count: {c[0]} completions{'' if c[1] else ' (stopped: a lower bound)'}, {c[3]:.3f} s CPU, {c[2]:.3f} s wall", flush=True)
        if (c[0] > 0) != (a[0] == "SAT") and c[1] and a[0] != "?":
            print(f"{'':24} DISAGREE: the count and the decision", flush=True)
            rows[-1] = rows[-1][:3] + (False,)

def summary(k, name):
    cpu = [r[k][2] for r in rows]
    wall = [r[k][1] for r in rows]
    return (statistics.median(cpu), max(cpu), sum(cpu), statistics.median(wall), max(wall), sum(wall))

o = summary(1, "ours"); t = summary(2, "shiftqueens")
print()
print(f"{'':12} {'median cpu':>10} {'max cpu':>9} {'total cpu':>10} {'median wall':>11} {'max wall':>9} {'total wall':>10}")
for name, s in (("ours", o), ("shiftqueens", t)) if peer else (("ours", o),):
    print(f"{name:12} {s[0]:10.3f} {s[1]:9.3f} {s[2]:10.2f} {s[3]:11.3f} {s[4]:9.3f} {s[5]:10.2f}")
if peer:
    print(f"{'ratio':12} {t[0]/max(o[0],1e-3):10.1f} {t[1]/max(o[1],1e-3):9.1f} {t[2]/max(o[2],1e-3):10.1f} "
          f"{t[3]/max(o[3],1e-3):11.1f} {t[4]/max(o[4],1e-3):9.1f} {t[5]/max(o[5],1e-3):10.1f}")
if cpsat_rows:
    cpu = [c[2] for c in cpsat_rows]
    wall = [c[1] for c in cpsat_rows]
    timeouts = sum(1 for c in cpsat_rows if c[0] == "?")
    print(f"{'CP-SAT':12} {statistics.median(cpu):10.3f} {max(cpu):9.3f} {sum(cpu):10.2f} "
          f"{statistics.median(wall):11.3f} {max(wall):9.3f} {sum(wall):10.2f}  ({timeouts} time-outs)")
    print(f"{'CP-SAT/ours':12} {statistics.median(cpu)/max(o[0],1e-3):10.1f} {max(cpu)/max(o[1],1e-3):9.1f} "
          f"{sum(cpu)/max(o[2],1e-3):10.1f}")
if counts:
    cpu = [c[3] for c in counts]
    print(f"counts: {len(counts)} instances, {sum(1 for c in counts if c[1])} complete, CPU median {statistics.median(cpu):.3f} s, max {max(cpu):.3f} s, total {sum(cpu):.2f} s")
sat = sum(1 for r in rows if r[1][0] == "SAT")
unsat = sum(1 for r in rows if r[1][0] == "UNSAT")
unknown = sum(1 for r in rows if r[1][0] == "?" or (peer and r[2][0] == "?"))
disagree = sum(1 for r in rows if not r[3])
print(f"answers: {sat} SAT, {unsat} UNSAT, {unknown} with a time-out; {disagree} disagreements")
sys.exit(1 if disagree else 0)
PY
