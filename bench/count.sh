#!/usr/bin/env bash
# Side-by-side timing of `queens count N` (ours, 2 threads) and a plain single-threaded C
# bitmask counter with only the mirror symmetry (bench/somers.c, gcc -O3 -march=native),
# for N = 12..17 (override with NS="12 13"), in one run. Prints a table with the ratio
# C time / our time (above 1: ours is faster). REPEAT=k keeps the best of k runs of each.
set -euo pipefail
cd "$(git rev-parse --show-toplevel)"
NS=${NS:-"12 13 14 15 16 17"}
THREADS=${THREADS:-2}
REPEAT=${REPEAT:-1}
if ! cargo build --release --quiet 2>/tmp/queens-bench-build.$$; then
    cat /tmp/queens-bench-build.$$ >&2
    exit 1
fi
rm -f /tmp/queens-bench-build.$$
mkdir -p target/bench
gcc -O3 -march=native -o target/bench/somers bench/somers.c
OUT=target/bench/last-output

# Best wall time in seconds of REPEAT runs of a command; its stdout is left in $OUT.
wall() {
    local best="" t0 t1 dt
    for _ in $(seq "$REPEAT"); do
        t0=$(date +%s.%N)
        "$@" >"$OUT"
        t1=$(date +%s.%N)
        dt=$(echo "$t1 - $t0" | bc -l)
        if [ -z "$best" ] || [ "$(echo "$dt < $best" | bc -l)" = 1 ]; then best=$dt; fi
    done
    printf '%.3f' "$best"
}

echo "$(date -u '+%Y-%m-%d %H:%M UTC'), $(nproc) cores, $(uptime | sed 's/.*load/load/')"
printf '%3s %16s %12s %12s %8s\n' N solutions "ours (s)" "C (s)" "C/ours"
for n in $NS; do
    ours=$(wall target/release/queens count "$n" --threads "$THREADS" --json)
    ours_total=$(sed 's/.*"solutions":\([0-9]*\).*/\1/' "$OUT")
    c=$(wall target/bench/somers "$n")
    c_total=$(cat "$OUT")
    if [ "$ours_total" != "$c_total" ]; then
        echo "MISMATCH at N = $n: ours $ours_total, C $c_total" >&2
        exit 1
    fi
    ratio=$(echo "$c / $ours" | bc -l)
    printf '%3s %16s %12s %12s %8.2f\n' "$n" "$ours_total" "$ours" "$c" "$ratio"
done
