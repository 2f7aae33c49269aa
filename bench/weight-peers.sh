#!/usr/bin/env bash
# Best-sum placement at scale: `queens weight` against CP-SAT and HiGHS (../shared/peers), side
# by side, on the same random boards (weights 1..99 uniform, board k of side N from the seed
# 1000*N + k), both senses (max, min), every solver on THREADS threads for LIMIT seconds.
# Each run's wall and CPU (user+sys) seconds are recorded; the table is printed at the end.
#
#   bench/weight-peers.sh [N:BOARDS ...]   default: 48:5 64:2 100:2 128:1
#   LIMIT=60     seconds per run (ours: --time-limit; peers: their time limit)
#   THREADS=2    threads for every solver
#   SOLVERS="ours cpsat highs"   which solvers to run now; results already in OUT are reused
#                for the others, so the peers can be run once and ours again after a change
#   SENSES="max min"
#   PY=python3   the Python with ortools and highspy (e.g. /work/venv-peers/bin/python)
# Boards and raw outputs are kept in bench/out/weight-peers/ (OUT).
set -euo pipefail

ROOT=$(git rev-parse --show-toplevel)
SHARED=${SHARED:-$ROOT/../shared}
[ -f "$SHARED/peers/cpsat.py" ] || SHARED=/work/shared
LIMIT=${LIMIT:-60}
THREADS=${THREADS:-2}
SOLVERS=${SOLVERS:-ours cpsat highs}
SENSES=${SENSES:-max min}
PY=${PY:-python3}
SPECS=${*:-48:5 64:2 100:2 128:1}
OUT=${OUT:-$ROOT/bench/out/weight-peers}
mkdir -p "$OUT"

case " $SOLVERS " in *" ours "*) [ -n "${QUEENS:-}" ] || (cd "$ROOT" && cargo build --release --quiet) ;; esac
QUEENS=${QUEENS:-$ROOT/target/release/queens}

grid() { # N K FILE: an N x N grid of weights 1..99 from the seed 1000*N+K
    python3 - "$1" "$2" > "$3" <<'PY'
import random, sys
n, k = int(sys.argv[1]), int(sys.argv[2])
r = random.Random(1000 * n + k)
for _ in range(n):
    print(" ".join(str(r.randint(1, 99)) for _ in range(n)))
PY
}

timed() { # FILE CMD...: runs CMD, stdout to FILE, "wall cpu" to FILE.time
    local file=$1
    shift
    local t0 t1
    t0=$(date +%s.%N)
    set +e
    /usr/bin/time -f '%U %S' -o "$file.cpu" timeout $((LIMIT + 60)) "$@" > "$file" 2> "$file.err"
    set -e
    t1=$(date +%s.%N)
    read -r u s < "$file.cpu" || { u=0; s=0; }
    python3 -c "print('%.1f %.1f' % ($t1 - $t0, $u + $s))" > "$file.time"
}

echo "weight vs peers: $THREADS threads, $LIMIT s; $(date -u '+%Y-%m-%d %H:%M UTC'); load $(cut -d' ' -f1-3 /proc/loadavg)"
for spec in $SPECS; do
    n=${spec%%:*}
    boards=${spec#*:}
    for k in $(seq 1 "$boards"); do
        file=$OUT/grid$n-$k.txt
        grid "$n" "$k" "$file"
        for sense in $SENSES; do
            flag=""
            peer=weight
            [ "$sense" = min ] && { flag=--minimize; peer=weight-min; }
            for solver in $SOLVERS; do
                res=$OUT/$solver-$n-$k-$sense
                case $solver in
                    ours) timed "$res" "$QUEENS" weight "$file" --json $flag --threads "$THREADS" --time-limit "$LIMIT" ;;
                    cpsat) timed "$res" "$PY" "$SHARED/peers/cpsat.py" "$peer" "$file" "$THREADS" "$LIMIT" ;;
                    highs) timed "$res" "$PY" "$SHARED/peers/highs.py" "$peer" "$file" "$THREADS" "$LIMIT" ;;
                esac
                echo "  done $solver N=$n board $k $sense: $(head -c 200 "$res") ($(cat "$res.time"))" >&2
            done
        done
    done
done

# The table: every board and sense, from whatever results OUT holds.
python3 - "$OUT" $SPECS <<'PY'
import json, os, sys
out, specs = sys.argv[1], sys.argv[2:]
def read(name):
    p = os.path.join(out, name)
    if not os.path.exists(p):
        return None
    t = open(p + ".time").read().split() if os.path.exists(p + ".time") else ["?", "?"]
    return open(p).read().strip(), t
print("| N | board | sense | ours sum | ours bound | gap | proven | CP-SAT | HiGHS | ours at least as good as both | ours wall/CPU s | CP-SAT wall/CPU s | HiGHS wall/CPU s |")
print("|---|---|---|---|---|---|---|---|---|---|---|---|---|")
for spec in specs:
    n, boards = map(int, spec.split(":"))
    for k in range(1, boards + 1):
        for sense in ("max", "min"):
            ours = read(f"ours-{n}-{k}-{sense}")
            peers = [read(f"{s}-{n}-{k}-{sense}") for s in ("cpsat", "highs")]
            if ours is None and all(p is None for p in peers):
                continue
            row = [str(n), str(k), sense]
            o_sum = None
            if ours and ours[0].startswith("{"):
                d = json.loads(ours[0])
                o_sum, bound = d["sum"], d["bound"]
                gap = 100 * abs(bound - o_sum) / max(abs(bound), 1)
                row += [str(o_sum), str(bound), "%.2f%%" % gap, "yes" if d["optimal"] else "no"]
            else:
                row += ["-"] * 4
            peer_vals = []
            for p in peers:
                if p and p[0] and p[0].split()[0].lstrip("-").isdigit():
                    v, st = p[0].split()[:2]
                    peer_vals.append(int(v))
                    row.append(v + (" (opt)" if st in ("OPTIMAL", "Optimal") else ""))
                else:
                    row.append("-")
            if o_sum is not None and peer_vals:
                best = max(peer_vals) if sense == "max" else min(peer_vals)
                row.append("yes" if (o_sum >= best if sense == "max" else o_sum <= best) else "NO")
            else:
                row.append("-")
            for r in [ours] + peers:
                row.append("/".join(r[1]) if r else "-")
            print("| " + " | ".join(row) + " |")
PY
