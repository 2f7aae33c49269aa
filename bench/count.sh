#!/usr/bin/env bash
# Side-by-side timing of `queens count N` (ours, 2 threads) and a plain single-threaded C
# bitmask counter with only the mirror symmetry (bench/somers.c, gcc -O3 -march=native),
# for N = 12..17 (override with NS="12 13"), in one run. Prints wall times and CPU times
# (user + system) and the ratios C / ours (above 1: ours is faster). The CPU ratio is the
# work per core; on a busy machine it is the steadier figure. REPEAT=k keeps the best of k runs.
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
TIMES=target/bench/last-times

# Best "wall cpu" seconds of REPEAT runs of a command; its stdout is left in $OUT.
measure() {
    local best_wall="" best_cpu="" wall cpu
    for _ in $(seq "$REPEAT"); do
        /usr/bin/time -f '%e %U %S' -o "$TIMES" "$@" >"$OUT"
        read -r wall user sys <"$TIMES"
        cpu=$(echo "$user + $sys" | bc -l)
        if [ -z "$best_wall" ] || [ "$(echo "$wall < $best_wall" | bc -l)" = 1 ]; then
            best_wall=$wall
        fi
        if [ -z "$best_cpu" ] || [ "$(echo "$cpu < $best_cpu" | bc -l)" = 1 ]; then
            best_cpu=$cpu
        fi
    done
    echo "$best_wall $best_cpu"
}

ratio() {
    if [ "$(echo "$2 > 0" | bc -l)" = 1 ]; then
        printf '%.2f' "$(echo "$1 / $2" | bc -l)"
    else
        printf '%s' "-"
    fi
}

echo "$(date -u '+%Y-%m-%d %H:%M UTC'), $(nproc) cores, $(uptime | sed 's/.*load/load/')"
printf '%3s %12s | %9s %9s | %9s %9s | %10s %10s\n' N solutions "ours wall" "ours cpu" \
    "C wall" "C cpu" "wall ratio" "cpu ratio"
for n in $NS; do
    read -r ours_wall ours_cpu < <(measure target/release/queens count "$n" --threads "$THREADS" --json)
    ours_total=$(sed 's/.*"solutions":\([0-9]*\).*/\1/' "$OUT")
    read -r c_wall c_cpu < <(measure target/bench/somers "$n")
    c_total=$(cat "$OUT")
    if [ "$ours_total" != "$c_total" ]; then
        echo "MISMATCH at N = $n: ours $ours_total, C $c_total" >&2
        exit 1
    fi
    printf '%3s %12s | %9.2f %9.2f | %9.2f %9.2f | %10s %10s\n' "$n" "$ours_total" \
        "$ours_wall" "$ours_cpu" "$c_wall" "$c_cpu" "$(ratio "$c_wall" "$ours_wall")" \
        "$(ratio "$c_cpu" "$ours_cpu")"
done
