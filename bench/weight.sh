#!/usr/bin/env bash
# Best-sum placement: `queens weight` against OR-Tools CP-SAT, side by side, on random grids
# (weights 1..99, fixed seeds), both on 2 threads. Prints one table row per size.
#
#   bench/weight.sh [N...]        default sizes: 16 20 24 28 64 100
#   CAP=120     CP-SAT time cap in seconds (reported as "> CAP" when it does not prove)
#   WIDE_CAP=60 CP-SAT time cap for N > 64 (the issue's N = 100 row: a placement in a minute)
#   LIMIT=60    our time limit (a size we do not prove in LIMIT shows its certified gap)
#   THREADS=2   threads for both
# Grids and raw outputs are kept in bench/out/weight/.
set -euo pipefail

ROOT=$(git rev-parse --show-toplevel)
SHARED=${SHARED:-$ROOT/../shared}
[ -f "$SHARED/peers/cpsat.py" ] || SHARED=/work/shared
CAP=${CAP:-120}
WIDE_CAP=${WIDE_CAP:-60}
LIMIT=${LIMIT:-60}
THREADS=${THREADS:-2}
SIZES=${*:-16 20 24 28 64 100}
OUT=$ROOT/bench/out/weight
mkdir -p "$OUT"

python3 -c 'import ortools' 2>/dev/null || pip install --quiet ortools
(cd "$ROOT" && cargo build --release --quiet)
QUEENS=$ROOT/target/release/queens

grid() { # N FILE: an N x N grid of weights 1..99 from the fixed seed 1000*N+1
    python3 - "$1" > "$2" <<'PY'
import random, sys
n = int(sys.argv[1])
r = random.Random(1000 * n + 1)
for _ in range(n):
    print(" ".join(str(r.randint(1, 99)) for _ in range(n)))
PY
}

echo "weight: random grids, weights 1..99, seed 1000*N+1, $THREADS threads; $(date -u '+%Y-%m-%d %H:%M UTC'), $(nproc) cores"
printf '%4s  %12s  %12s  %9s  %8s  %8s  %s\n' N ours CP-SAT ratio best "CP-SAT" "gap (ours, unproven)"
for n in $SIZES; do
    cap=$CAP
    [ "$n" -le 64 ] || cap=$WIDE_CAP
    file=$OUT/grid$n.txt
    grid "$n" "$file"
    "$QUEENS" weight "$file" --json --threads "$THREADS" --time-limit "$LIMIT" > "$OUT/ours$n.json"
    read -r ours_s ours_best ours_opt gap < <(python3 - "$OUT/ours$n.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
gap = "-" if d["optimal"] else "%.2f%% (bound %d)" % (100 * (d["bound"] - d["best"]) / d["bound"], d["bound"])
print("%.3f" % d["seconds"], d["best"], "yes" if d["optimal"] else "no", gap)
PY
    )
    set +e
    timeout $((cap + 60)) python3 "$SHARED/peers/cpsat.py" weight "$file" "$THREADS" "$cap" > "$OUT/cpsat$n.txt" 2>&1
    set -e
    read -r cp_best cp_status cp_s < "$OUT/cpsat$n.txt" || true
    if [ "${cp_status:-}" = OPTIMAL ]; then
        cp_shown=$cp_s
        ratio=$(python3 -c "print('%.0fx' % ($cp_s / max($ours_s, 1e-6)))")
        if [ "$ours_opt" = yes ] && [ "$cp_best" != "$ours_best" ]; then
            echo "MISMATCH at N=$n: ours $ours_best, CP-SAT $cp_best" >&2
            exit 1
        fi
    else
        cp_shown="> $cap"
        ratio=$(python3 -c "print('> %.0fx' % ($cap / max($ours_s, 1e-6)))")
    fi
    [ "$ours_opt" = yes ] || ratio="-"
    [ "$ours_opt" = yes ] || ours_s="> $LIMIT"
    printf '%4s  %12s  %12s  %9s  %8s  %8s  %s\n' "$n" "$ours_s" "$cp_shown" "$ratio" "$ours_best" "${cp_best:-?}" "$gap"
done
