#!/usr/bin/env bash
# Side-by-side timing of `queens count N` (ours, THREADS=2 threads), Evgeny Kluev's
# quadrant-join counter N-Queens-Count-Sol (C++20, same threads) and a plain single-threaded C
# bitmask counter with only the mirror symmetry (bench/somers.c), for N = 16..19 (override with
# NS="16 17"), interleaved: for each N and each of REPEAT rounds, ours, then Kluev's, then C.
# Prints the host's CPU model, the best wall and CPU (user + system) times, the largest peak
# memory (MB, from /usr/bin/time) of ours and Kluev's, and the ratios other / ours (above 1:
# ours is faster). The CPU ratio is the steadier figure on a busy machine. QUEENS_ARGS adds
# arguments to our count (e.g. QUEENS_ARGS="--memory 400").
#
# Kluev's counter is never part of this repository: it is cloned (or taken from KLUEV_SRC, a
# checkout) and built outside the tree, under KLUEV_DIR (default ${TMPDIR:-/tmp}/queens-bench-
# kluev), once per N with its board size set in solcounter.h (g++ -std=c++20 -O3
# -march=native). KLUEV=0 leaves it out; SOMERS_MAX (default 17) is the largest N for the C
# mirror counter (it takes minutes from N = 18 on). QUEENS_BIN runs another build of ours (a copy
# of target/release/queens, so that rebuilding during a long run does not change the binary).
#
# PROJECT="21 22 23" (with SAMPLE=K, default 16) runs no side-by-side timing: for each N it
# counts every K-th batch of the join only (`QUEENS_KERNEL=join QUEENS_JOIN_SAMPLE=K`, THREADS
# threads) and prints the projected CPU time of the whole count next to Kluev's own published
# times (its README: N = 21 in 20 min and N = 22 in 3 h 20 min wall on a 4-core 2013 desktop,
# so 1.33 and 13.3 core-hours; N = 23 unpublished, shown as ten times N = 22, its growth from
# 21 to 22).
set -euo pipefail
cd "$(git rev-parse --show-toplevel)"
NS=${NS:-"16 17 18 19"}
THREADS=${THREADS:-2}
REPEAT=${REPEAT:-1}
KLUEV=${KLUEV:-1}
SOMERS_MAX=${SOMERS_MAX:-17}
QUEENS_BIN=${QUEENS_BIN:-target/release/queens}
QUEENS_ARGS=${QUEENS_ARGS:-}
cpuinfo() { sed -n "s/^$1[[:space:]]*: //p" /proc/cpuinfo 2>/dev/null | head -1; }
# The line that heads a run's table: when, on what host, at what load.
host_line() {
    local cpu
    cpu="$(cpuinfo 'model name') (family $(cpuinfo 'cpu family'), model $(cpuinfo model))"
    echo "$(date -u '+%Y-%m-%d %H:%M UTC'), $cpu, $(nproc) cores, $(uptime | sed 's/.*load/load/'), threads $THREADS"
}
KLUEV_DIR=${KLUEV_DIR:-${TMPDIR:-/tmp}/queens-bench-kluev}
KLUEV_URL=${KLUEV_URL:-https://github.com/EvgenyKluev/N-Queens-Count-Sol}
if ! cargo build --release --quiet 2>/tmp/queens-bench-build.$$; then
    cat /tmp/queens-bench-build.$$ >&2
    exit 1
fi
rm -f /tmp/queens-bench-build.$$
mkdir -p target/bench
if [ -n "${PROJECT:-}" ]; then
    SAMPLE=${SAMPLE:-16}
    echo "$(host_line), every ${SAMPLE}th batch"
    printf '%3s | %9s %9s %14s | %22s\n' N batches counted "ours core-h" "Kluev core-h (published)"
    for n in $PROJECT; do
        line=$(QUEENS_KERNEL=join QUEENS_JOIN_SAMPLE=$SAMPLE "$QUEENS_BIN" count "$n" \
            --threads "$THREADS" --quiet --json 2>&1 >/dev/null | grep '^join sample')
        counted=$(echo "$line" | sed 's/.*: \([0-9]*\) of \([0-9]*\) batches.*/\1/')
        batches=$(echo "$line" | sed 's/.*: \([0-9]*\) of \([0-9]*\) batches.*/\2/')
        hours=$(echo "$line" | sed 's/.*(\([0-9.]*\) core-hours).*/\1/')
        case $n in 21) k="1.33" ;; 22) k="13.3" ;; 23) k="133 (extrapolated)" ;; *) k="-" ;; esac
        printf '%3s | %9s %9s %14s | %22s\n' "$n" "$batches" "$counted" "$hours" "$k"
    done
    exit 0
fi
gcc -O3 -march=native -o target/bench/somers bench/somers.c
OUT=$PWD/target/bench/last-output
TIMES=$PWD/target/bench/last-times

# Kluev's counter for board size $1, built once: prints its path.
kluev_binary() {
    local n=$1 src=$KLUEV_DIR/src
    if [ ! -f "$src/solcounter.h" ]; then
        mkdir -p "$KLUEV_DIR"
        if [ -n "${KLUEV_SRC:-}" ]; then
            rm -rf "$src" && cp -r "$KLUEV_SRC" "$src"
        else
            git clone --quiet --depth 1 "$KLUEV_URL" "$src" >&2
        fi
    fi
    local build=$KLUEV_DIR/n$n
    if [ ! -x "$build/nqueens" ]; then
        rm -rf "$build" && mkdir -p "$build"
        cp "$src"/*.h "$src"/*.cpp "$build"/
        sed -i "s/inline constexpr int size = [0-9]*;/inline constexpr int size = $n;/" \
            "$build/solcounter.h"
        grep -q "inline constexpr int size = $n;" "$build/solcounter.h"
        (cd "$build" && g++ -std=c++20 -O3 -march=native -o nqueens main.cpp -lpthread) >&2
    fi
    echo "$build/nqueens"
}

# "wall cpu peak" of one run of a command (seconds, seconds, MB); its stdout is left in $OUT.
measure_once() {
    /usr/bin/time -f '%e %U %S %M' -o "$TIMES" "$@" >"$OUT"
    local wall user sys kb
    read -r wall user sys kb <"$TIMES"
    echo "$wall $(echo "$user + $sys" | bc -l) $((kb * 1024 / 1000000))"
}

min() { if [ -z "$1" ] || [ "$(echo "$2 < $1" | bc -l)" = 1 ]; then echo "$2"; else echo "$1"; fi; }
max() { if [ -z "$1" ] || [ "$2" -gt "$1" ]; then echo "$2"; else echo "$1"; fi; }

ratio() {
    if [ -n "$1" ] && [ -n "$2" ] && [ "$(echo "$2 > 0" | bc -l)" = 1 ]; then
        printf '%.2f' "$(echo "$1 / $2" | bc -l)"
    else
        printf '%s' "-"
    fi
}

cell() { if [ -n "$1" ]; then printf '%.2f' "$1"; else printf '%s' "-"; fi; }

echo "$(host_line)${QUEENS_ARGS:+, ours with $QUEENS_ARGS}"
row() { printf '%3s %12s | %7s %7s %6s | %7s %7s %6s %6s %6s | %7s %7s %6s %6s\n' "$@"; }
row N solutions ours ours ours Kluev Kluev Kluev K/ours K/ours C C C/ours C/ours
row "" "" wall cpu MB wall cpu MB wall cpu wall cpu wall cpu
for n in $NS; do
    kbin=""
    if [ "$KLUEV" = 1 ]; then kbin=$(kluev_binary "$n"); fi
    ow="" oc="" om="" kw="" kc="" km="" cw="" cc=""
    for _ in $(seq "$REPEAT"); do
        # shellcheck disable=SC2086 # QUEENS_ARGS is a list of arguments
        read -r w c m < <(measure_once "$QUEENS_BIN" count "$n" --threads "$THREADS" --json $QUEENS_ARGS)
        ow=$(min "$ow" "$w") oc=$(min "$oc" "$c") om=$(max "$om" "$m")
        ours_total=$(sed 's/.*"solutions":\([0-9]*\).*/\1/' "$OUT")
        if [ -n "$kbin" ]; then
            read -r w c m < <(cd "$(dirname "$kbin")" && measure_once "$kbin" "$THREADS")
            kw=$(min "$kw" "$w") kc=$(min "$kc" "$c") km=$(max "$km" "$m")
            k_total=$(sed -n 's/^Result: *//p' "$OUT")
            if [ "$k_total" != "$ours_total" ]; then
                echo "MISMATCH at N = $n: ours $ours_total, Kluev $k_total" >&2
                exit 1
            fi
        fi
        if [ "$n" -le "$SOMERS_MAX" ]; then
            read -r w c _ < <(measure_once target/bench/somers "$n")
            cw=$(min "$cw" "$w") cc=$(min "$cc" "$c")
            if [ "$(cat "$OUT")" != "$ours_total" ]; then
                echo "MISMATCH at N = $n: ours $ours_total, C $(cat "$OUT")" >&2
                exit 1
            fi
        fi
    done
    row "$n" "$ours_total" "$(cell "$ow")" "$(cell "$oc")" "${om:--}" \
        "$(cell "$kw")" "$(cell "$kc")" "${km:--}" "$(ratio "$kw" "$ow")" "$(ratio "$kc" "$oc")" \
        "$(cell "$cw")" "$(cell "$cc")" "$(ratio "$cw" "$ow")" "$(ratio "$cc" "$oc")"
done
