#!/usr/bin/env bash
# A sharded count against the plain count of the same N: the plain `queens count N` on THREADS
# threads, then the plan's K shards, P at a time, each `--threads SHARD_THREADS --ledger`, and
# `queens merge`. Prints wall and CPU (user + system) seconds of each, the ratio of the CPU
# times (shards / plain), and checks that the merge gives the plain count's numbers.
#   NS="19" K=4 P=2 bench/shards.sh          (defaults: N = 19, 4 shards, 2 at a time)
# QUEENS_BIN runs a given binary instead of building one.
set -euo pipefail
cd "$(dirname "$0")/.."
NS=${NS:-19}
K=${K:-4}
P=${P:-2}
THREADS=${THREADS:-2}
SHARD_THREADS=${SHARD_THREADS:-$((THREADS / P > 0 ? THREADS / P : 1))}
if [ -z "${QUEENS_BIN:-}" ]; then
    cargo build --release --quiet
    QUEENS_BIN=target/release/queens
fi
Q=$(realpath "$QUEENS_BIN")
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
echo "$(date -u '+%Y-%m-%d %H:%M UTC'), $(nproc) cores, $(uptime | sed 's/.*load/load/')"
TIMEFORMAT='%R %U %S'
for n in $NS; do
    plain=$( { time "$Q" count "$n" --threads "$THREADS" --json >"$TMP/plain.json"; } 2>&1 )
    read -r pw pu ps <<<"$plain"
    rm -f "$TMP"/shard-*.ledger
    sharded=$( { time (seq 0 $((K - 1)) | xargs -P "$P" -I{} "$Q" count "$n" \
        --threads "$SHARD_THREADS" --shard "{}/$K" --ledger "$TMP/shard-{}.ledger" \
        --quiet >/dev/null); } 2>&1 )
    read -r sw su ss <<<"$sharded"
    "$Q" merge --json "$TMP"/shard-*.ledger >"$TMP/merge.json"
    want=$(sed 's/.*"solutions":\([0-9]*\),"unique":\([0-9]*\).*/\1 \2/' "$TMP/plain.json")
    got=$(sed 's/.*"solutions":"\{0,1\}\([0-9]*\)"\{0,1\},"unique":"\{0,1\}\([0-9]*\).*/\1 \2/' \
        "$TMP/merge.json")
    units=$("$Q" plan "$n" --summary --json | sed 's/.*"units":\([0-9]*\).*/\1/')
    verdict=$([ "$want" = "$got" ] && echo agrees || echo "DIFFERS: $got")
    awk -v n="$n" -v want="$want" -v units="$units" -v pw="$pw" -v pc="$(awk "BEGIN{print $pu+$ps}")" \
        -v k="$K" -v p="$P" -v t="$SHARD_THREADS" -v sw="$sw" -v sc="$(awk "BEGIN{print $su+$ss}")" \
        -v verdict="$verdict" 'BEGIN {
            printf "N = %s: plain %s (%s units) wall %.1f s cpu %.1f s | %s shards, %s at a time, ", n, want, units, pw, pc, k, p
            printf "%s threads each: wall %.1f s cpu %.1f s | cpu ratio %.3f | merge %s\n", t, sw, sc, sc / pc, verdict
        }'
done
