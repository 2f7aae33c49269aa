#!/usr/bin/env bash
# The sharded guard refutation: `queens plan guard --estimate` against real ledger runs, and
# the projected cost at the frontier. CPU times (user + sys) are what to compare: on a shared
# machine the wall time follows the load.
#
# Usage: bench/guard-shard.sh check      estimate, then the real run, for full 15x15 and 16x16
#                                        with 8 queens (each about 30 s of CPU)
#        bench/guard-shard.sh frontier   estimates for 20x20/10, 22x22/11, 24x24/12
#   LIMIT=400 (seconds of sampling per board), SAMPLE=256, DEPTH (default: the plan's, 3)
set -euo pipefail
ROOT=$(git -C "$(dirname "$0")" rev-parse --show-toplevel)
cargo build --release --quiet --manifest-path "$ROOT/Cargo.toml"
Q="$ROOT/target/release/queens"
DIR=$(mktemp -d)
trap 'rm -rf "$DIR"' EXIT
LIMIT=${LIMIT:-400}
SAMPLE=${SAMPLE:-256}
DEPTH_ARGS=()
[ -n "${DEPTH:-}" ] && DEPTH_ARGS=(--depth "$DEPTH")
case "${1:-check}" in
  check)
    for case in "15 8" "16 8"; do
      set -- $case
      uptime
      "$Q" plan guard --full "$1" --queens "$2" "${DEPTH_ARGS[@]}" --estimate --sample "$SAMPLE" \
        -t "$LIMIT" -j 1
      /usr/bin/time -f "real run: %e s wall, %U s user, %S s sys" \
        "$Q" guard --full "$1" --queens "$2" "${DEPTH_ARGS[@]}" --ledger "$DIR/$1.ledger" -j 1 -q
      uptime
    done
    ;;
  frontier)
    for case in "20 10" "22 11" "24 12"; do
      set -- $case
      uptime
      "$Q" plan guard --full "$1" --queens "$2" "${DEPTH_ARGS[@]}" --estimate --sample "$SAMPLE" \
        -t "$LIMIT" -j 1 --json
    done
    uptime
    ;;
  *) echo "usage: $0 check|frontier" >&2; exit 2 ;;
esac
