#!/usr/bin/env bash
# What a shard of a huge count costs before and while it counts: the time and peak memory
# (max RSS, /usr/bin/time -v) of `queens plan N --summary`, of listing one shard's units, and
# of a shard's count run for a few seconds (then killed: its units take hours), for
# N = 28 and 32 (override with NS="28"). A shard that starts counting at once has used nearly
# THREADS x SECONDS of CPU when it is killed.
set -euo pipefail
cd "$(git rev-parse --show-toplevel)"
NS=${NS:-"28 32"}
SHARD=${SHARD:-5/1000}
THREADS=${THREADS:-2}
SECONDS_RUN=${SECONDS_RUN:-10}
cargo build --release --quiet
Q=target/release/queens
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
echo "$(date -u '+%Y-%m-%d %H:%M UTC'), $(nproc) cores, $(uptime | sed 's/.*load/load/')"
# "label: wall s, user+sys s, max RSS MB" of a command (its exit status ignored).
measure() {
    local label=$1
    shift
    if [ -n "${KILL_AFTER:-}" ]; then
        # Kill the command itself (not /usr/bin/time, which then reports on it).
        /usr/bin/time -v -o "$TMP/time" "$@" >"$TMP/out" 2>/dev/null &
        local timer=$!
        sleep "$KILL_AFTER"
        kill -KILL "$(pgrep -P "$timer")" 2>/dev/null || true
        wait "$timer" || true
    else
        /usr/bin/time -v -o "$TMP/time" "$@" >"$TMP/out" 2>/dev/null || true
    fi
    local wall user sys rss
    wall=$(sed -n 's/.*Elapsed (wall clock) time (h:mm:ss or m:ss): //p' "$TMP/time")
    user=$(sed -n 's/.*User time (seconds): //p' "$TMP/time")
    sys=$(sed -n 's/.*System time (seconds): //p' "$TMP/time")
    rss=$(sed -n 's/.*Maximum resident set size (kbytes): //p' "$TMP/time")
    printf '%-44s wall %8s  cpu %6.2f s  max RSS %7.1f MB\n' "$label" "$wall" \
        "$(echo "$user + $sys" | bc -l)" "$(echo "$rss / 1024" | bc -l)"
}
for n in $NS; do
    measure "plan $n --summary" "$Q" plan "$n" --summary
    head -1 "$TMP/out"
    measure "plan $n --shard $SHARD (lists its units)" "$Q" plan "$n" --shard "$SHARD" --json
    KILL_AFTER=$SECONDS_RUN measure "count $n --shard $SHARD, killed after ${SECONDS_RUN} s" \
        "$Q" count "$n" --threads "$THREADS" --shard "$SHARD" --ledger "$TMP/shard.ledger" -q
    rm -f "$TMP/shard.ledger"
done
