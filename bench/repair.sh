#!/usr/bin/env bash
# Speed of `queens repair` and `queens judge lightoj1061` against their peers, in one run:
#   - the 200-board LightOJ 1061 judge input (random boards, fixed seed) against a plain
#     accepted-style C solution (bench/lightoj1061_reference.c), outputs compared byte for byte;
#   - a random N = 16 board and a solved N = 32 board with 3 queens moved, against CP-SAT on the
#     relaxed model (../shared/peers/cpsat.py repair, 2 workers, capped at 120 s). Ours computes
#     the true minimum under the real rule; the relaxed values must agree.
# Prints a table: case, ours, peer, ratio (peer time / our time). Takes about 1-2 minutes.
set -euo pipefail
ROOT=$(git rev-parse --show-toplevel)
SHARED=${SHARED:-$ROOT/../shared}
[ -f "$SHARED/peers/cpsat.py" ] || SHARED=/work/shared
cd "$ROOT"
cargo build --release -q --bin queens 2>/dev/null || cargo build --release --bin queens
BIN=$ROOT/target/release/queens
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
cc -O2 -o "$WORK/reference" bench/lightoj1061_reference.c
python3 -c 'import ortools' 2>/dev/null || pip install -q ortools

python3 - "$WORK" <<'PY'
import random, sys
work = sys.argv[1]
rng = random.Random(1061)

def board(n, queens):
    rows = [["."] * n for _ in range(n)]
    for r, c in queens:
        rows[r][c] = "q"
    return "\n".join("".join(r) for r in rows) + "\n"

def random_queens(n):
    cells = rng.sample(range(n * n), n)
    return [(k // n, k % n) for k in cells]

with open(f"{work}/judge200.in", "w") as f:
    f.write("200\n")
    for _ in range(200):
        f.write("\n" + board(8, random_queens(8)))
for i in range(20):
    with open(f"{work}/n16_{i}.txt", "w") as f:
        f.write(board(16, random_queens(16)))

def explicit(n):  # the classical construction, 1-based columns
    evens = list(range(2, n + 1, 2)); odds = list(range(1, n + 1, 2))
    if n % 6 == 2:
        odds[0], odds[1] = odds[1], odds[0]; odds.remove(5); odds.append(5)
    if n % 6 == 3:
        evens = evens[1:] + [2]; odds = odds[2:] + [1, 3]
    return [c - 1 for c in evens + odds]

queens = [(r, c) for r, c in enumerate(explicit(32))]
occupied = set(queens)
for i in rng.sample(range(32), 3):
    while True:
        s = (rng.randrange(32), rng.randrange(32))
        if s not in occupied:
            occupied.discard(queens[i]); occupied.add(s); queens[i] = s
            break
with open(f"{work}/n32.txt", "w") as f:
    f.write(board(32, queens))
PY

now() { date +%s.%N; }
# mean wall seconds of K runs of a command (stdout discarded)
mean_time() {
  local k=$1; shift
  local t0 t1
  t0=$(now)
  for ((i = 0; i < k; i++)); do "$@" >/dev/null; done
  t1=$(now)
  awk -v a="$t0" -v b="$t1" -v k="$k" 'BEGIN { printf "%.6f", (b - a) / k }'
}
row() { # case ours peer
  awk -v c="$1" -v o="$2" -v p="$3" 'BEGIN { printf "| %-62s | %10.4f s | %10.4f s | %8.1fx |\n", c, o, p, p / o }'
}

printf "| %-62s | %12s | %12s | %9s |\n" case ours peer ratio
printf "|%s|%s|%s|%s|\n" "$(printf -- '-%.0s' {1..64})" "$(printf -- '-%.0s' {1..14})" "$(printf -- '-%.0s' {1..14})" "$(printf -- '-%.0s' {1..11})"

# 1. The judge input: both outputs must agree byte for byte.
"$BIN" judge lightoj1061 "$WORK/judge200.in" >"$WORK/ours.out"
"$WORK/reference" <"$WORK/judge200.in" >"$WORK/ref.out"
cmp -s "$WORK/ours.out" "$WORK/ref.out" || { echo "judge outputs differ" >&2; exit 1; }
ours=$(mean_time 20 "$BIN" judge lightoj1061 "$WORK/judge200.in")
peer=$(mean_time 5 sh -c "'$WORK/reference' < '$WORK/judge200.in'")
row "lightoj1061, 200 boards (vs C reference)" "$ours" "$peer"

# 2. Random N = 16 (CP-SAT on the first board) and a solved N = 32 board with 3 queens moved.
field() { python3 -c 'import json,sys; v=json.load(open(sys.argv[1])); print(v[sys.argv[2]])' "$@"; }
compare() { # label file
  local label=$1 file=$2 t0 t1 ours peer
  t0=$(now); "$BIN" repair --json "$file" >"$WORK/ours.json"; t1=$(now)
  ours=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.6f", b - a }')
  read -r value status peer < <(timeout 130 python3 "$SHARED/peers/cpsat.py" repair "$file" 2 120)
  local relaxed moves optimal
  relaxed=$(field "$WORK/ours.json" relaxed); moves=$(field "$WORK/ours.json" moves)
  optimal=$(field "$WORK/ours.json" optimal)
  if [ "$status" = OPTIMAL ] && [ "$value" != "$relaxed" ]; then
    echo "relaxed values differ on $label: ours $relaxed, CP-SAT $value" >&2; exit 1
  fi
  row "$label (D=$moves R=$relaxed opt=$optimal, CP-SAT $value $status)" "$ours" "$peer"
}
compare "N=16 random" "$WORK/n16_0.txt"
compare "N=32 solved, 3 moved" "$WORK/n32.txt"

# 3. Ours alone on 20 random N = 16 boards: the slowest (true D, proven).
worst=0
for i in $(seq 0 19); do
  t=$(mean_time 1 "$BIN" repair --json "$WORK/n16_$i.txt")
  worst=$(awk -v a="$worst" -v b="$t" 'BEGIN { print (b > a) ? b : a }')
done
printf "| %-62s | %10.4f s | %12s | %9s |\n" "N=16 random, slowest of 20 (ours only)" "$worst" "-" "-"
