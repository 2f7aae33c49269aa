#!/usr/bin/env bash
# MPI check for `queens count` (cargo feature `mpi`): installs Open MPI and libclang if missing,
# builds with the feature, and runs 2- and 3-rank counts of N = 12..14 on localhost against the
# known values (OEIS A000170 / A002562), each with a ledger that is then resumed (nothing left
# to count) and totalled by `queens merge`. About 1-3 min for the build, seconds for the runs.
#
# Usage (from anywhere in the repository): bash bench/mpi-check.sh
set -euo pipefail
cd "$(dirname "$0")/.."

if ! dpkg -s libopenmpi-dev openmpi-bin libclang-dev >/dev/null 2>&1; then
    echo "mpi-check: installing libopenmpi-dev openmpi-bin libclang-dev"
    SUDO=""
    [ "$(id -u)" -eq 0 ] || SUDO="sudo"
    $SUDO apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq libopenmpi-dev openmpi-bin libclang-dev >/dev/null
fi

cargo build --release --features mpi --quiet
BIN="$(mktemp -d)/queens-mpi"
cp target/release/queens "$BIN"
WORK="$(mktemp -d)"
trap 'rm -rf "$WORK" "$(dirname "$BIN")"' EXIT

COUNT=(count)

MPIRUN=(mpirun --oversubscribe -np)
[ "$(id -u)" -ne 0 ] || MPIRUN=(mpirun --allow-run-as-root --oversubscribe -np)

declare -A SOLUTIONS=([12]=14200 [13]=73712 [14]=365596)
declare -A UNIQUE=([12]=1787 [13]=9233 [14]=45752)

field() { # field PATH JSON -> the value of a JSON field; PATH is dotted (ledger.counted)
    python3 -c 'import json,sys
v = json.loads(sys.argv[2])
for key in sys.argv[1].split("."):
    v = v[key]
print(v)' "$1" "$2"
}

fail=0
printf '%-4s %-6s %-12s %-10s %-9s %s\n' N ranks solutions unique seconds result
for n in 12 13 14; do
    for ranks in 2 3; do
        ledger="$WORK/n$n-p$ranks.ledger"
        out=$(timeout 300 "${MPIRUN[@]}" "$ranks" "$BIN" "${COUNT[@]}" "$n" --ledger "$ledger" --json)
        sol=$(field solutions "$out"); uni=$(field unique "$out"); secs=$(field seconds "$out")
        got_ranks=$(field mpi.ranks "$out")
        result=ok
        if [ "$sol" != "${SOLUTIONS[$n]}" ] || [ "$uni" != "${UNIQUE[$n]}" ] || [ "$got_ranks" != "$ranks" ]; then
            result="WRONG (expected ${SOLUTIONS[$n]} / ${UNIQUE[$n]} on $ranks ranks)"
            fail=1
        fi
        # Resuming the finished ledger counts nothing again and gives the same answer.
        again=$(timeout 300 "${MPIRUN[@]}" "$ranks" "$BIN" "${COUNT[@]}" "$n" --ledger "$ledger" --json)
        if [ "$(field ledger.counted "$again")" != 0 ] || [ "$(field solutions "$again")" != "$sol" ]; then
            result="$result; resume recounted: $again"
            fail=1
        fi
        merged=$("$BIN" merge "$ledger" --json)
        if [ "$(field solutions "$merged")" != "${SOLUTIONS[$n]}" ] || [ "$(field unique "$merged")" != "${UNIQUE[$n]}" ]; then
            result="$result; merge: $merged"
            fail=1
        fi
        printf '%-4s %-6s %-12s %-10s %-9.3f %s\n' "$n" "$ranks" "$sol" "$uni" "$secs" "$result"
    done
done
if [ "$fail" -ne 0 ]; then
    echo "mpi-check: FAILED" >&2
    exit 1
fi
echo "mpi-check: all MPI counts agree with A000170 / A002562"
