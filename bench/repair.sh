#!/usr/bin/env bash
# Speed of `queens repair` and `queens judge lightoj1061` against their peers, in one run:
#   - the 200-board LightOJ 1061 judge input (random boards, fixed seed) against a plain
#     accepted-style C solution (bench/lightoj1061_reference.c), outputs compared byte for byte;
#   - a random N = 16 board and a solved N = 32 board with 3 queens moved, against CP-SAT on the
#     relaxed model (../shared/peers/cpsat.py repair, 2 workers, capped at 120 s). Ours computes
#     the true minimum under the real rule; the relaxed values must agree.
#   - at scale: BOARDS seeded random boards for each N in NS, and BOARDS solved boards with 8-16
#     queens displaced for each N in DISPLACED, ours and CP-SAT's relaxed model in turn (ours,
#     peer, ours, peer, ...), both at LIMIT seconds: the time to proof of each, or at the limit
#     the value and proven bound of each (ours: moves >= lower bound; CP-SAT: R value >= bound).
# Parameters (environment): NS="24 32 48 64" DISPLACED="48 64" BOARDS=10 LIMIT=60 THREADS=2;
# SCALE_ONLY=1 skips the first three parts, SCALE=0 skips the scale part; PEER_CACHE=DIR keeps
# CP-SAT's scale answers in DIR/<board>.txt ("value status seconds bound") and reuses those
# present (the boards are seeded, so a cache filled by an earlier or concurrent run matches;
# such rows are then not interleaved, say so when quoting them). The whole default run
# takes hours (up to 2 x 60 boards x LIMIT); run what time allows, e.g.
#   NS="24 32" DISPLACED="" BOARDS=3 LIMIT=30 SCALE_ONLY=1 bench/repair.sh
# Prints a table: case, ours, peer, ratio (peer time / our time, when both proved).
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

NS=${NS-24 32 48 64}
DISPLACED=${DISPLACED-48 64}
BOARDS=${BOARDS:-10}
LIMIT=${LIMIT:-60}
THREADS=${THREADS:-2}
SCALE_ONLY=${SCALE_ONLY:-0}
SCALE=${SCALE:-1}

python3 - "$WORK" "$NS" "$DISPLACED" "$BOARDS" <<'PY'
import random, sys
work = sys.argv[1]
sizes = [int(v) for v in sys.argv[2].split()]
displaced = [int(v) for v in sys.argv[3].split()]
boards = int(sys.argv[4])
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

# The scale boards: seeded per size, so a smaller BOARDS gives a prefix of the same boards.
for n in sizes:
    rs = random.Random(1000 + n)
    for i in range(boards):
        cells = rs.sample(range(n * n), n)
        with open(f"{work}/r{n}_{i}.txt", "w") as f:
            f.write(board(n, [(k // n, k % n) for k in cells]))
for n in displaced:
    rs = random.Random(2000 + n)
    for i in range(boards):
        k = 8 + (i * 8) // max(1, boards - 1)
        qs = [(r, c) for r, c in enumerate(explicit(n))]
        occ = set(qs)
        for j in rs.sample(range(n), k):
            while True:
                s = (rs.randrange(n), rs.randrange(n))
                if s not in occ:
                    occ.discard(qs[j]); occ.add(s); qs[j] = s
                    break
        with open(f"{work}/d{n}_{i}.txt", "w") as f:
            f.write(board(n, qs))
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

if [ "$SCALE_ONLY" != 1 ]; then
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
fi

# 4. At scale, interleaved: ours, CP-SAT, ours, CP-SAT, ... each at LIMIT seconds.
[ "$SCALE" = 1 ] || exit 0
echo "load before the scale part: $(uptime)"
field() { python3 -c 'import json,sys; v=json.load(open(sys.argv[1])); print(v[sys.argv[2]])' "$@"; }
cell() { # proven value seconds bound limit
  if [ "$1" = 1 ]; then printf "%s proven %.2f s" "$2" "$3"; else printf "%s >= %s at %s s" "$2" "$4" "$5"; fi
}
scale_row() { # label file
  local label=$1 file=$2 t0 t1 ours
  t0=$(now)
  "$BIN" repair --json --threads "$THREADS" --time-limit "$LIMIT" "$file" >"$WORK/ours.json"
  t1=$(now)
  ours=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.3f", b - a }')
  local bound optimal moves lower relaxed ropt cached
  cached=${PEER_CACHE:+$PEER_CACHE/$(basename "$file" .txt).txt}
  if [ -n "$cached" ] && [ -s "$cached" ]; then
    read -r value status peer bound _ <"$cached"
  else
    read -r value status peer < <(timeout $((LIMIT + 120)) python3 "$SHARED/peers/cpsat.py" repair "$file" 2 "$LIMIT" 2>"$WORK/peer.err" || echo "- TIMEOUT $LIMIT")
    bound=$(awk '/^bound/ { print $2 }' "$WORK/peer.err")
    [ -z "$cached" ] || echo "$value $status $peer ${bound:-none}" >"$cached"
  fi
  moves=$(field "$WORK/ours.json" moves); lower=$(field "$WORK/ours.json" lower_bound)
  optimal=$(field "$WORK/ours.json" optimal); relaxed=$(field "$WORK/ours.json" relaxed)
  ropt=$(field "$WORK/ours.json" relaxed_optimal)
  if [ "$status" = OPTIMAL ] && [ "$ropt" = True ] && [ "$value" != "$relaxed" ]; then
    echo "relaxed values differ on $label: ours $relaxed, CP-SAT $value" >&2; exit 1
  fi
  local o p ratio=-
  o=$(cell "$([ "$optimal" = True ] && echo 1)" "D=$moves" "$ours" "$lower" "$LIMIT")
  p=$(cell "$([ "$status" = OPTIMAL ] && echo 1)" "R=$value" "$peer" "${bound:-?}" "$LIMIT")
  if [ "$optimal" = True ] && [ "$status" = OPTIMAL ]; then
    ratio=$(awk -v a="$ours" -v b="$peer" 'BEGIN { printf "%.1fx", b / a }')
  fi
  printf "| %-22s | %-28s | %-28s | %8s |\n" "$label" "$o" "$p" "$ratio"
  local group=${label% #*}
  echo "${group// /_} $optimal $ours $status $peer" >>"$WORK/scale.log"
}
printf "| %-22s | %-28s | %-28s | %8s |\n" case "ours (true D)" "CP-SAT (relaxed R)" ratio
for n in $NS; do
  for ((i = 0; i < BOARDS; i++)); do scale_row "N=$n random #$i" "$WORK/r${n}_$i.txt"; done
done
for n in $DISPLACED; do
  for ((i = 0; i < BOARDS; i++)); do
    scale_row "N=$n solved, $((8 + (i * 8) / (BOARDS > 1 ? BOARDS - 1 : 1))) moved #$i" "$WORK/d${n}_$i.txt"
  done
done
echo "load after: $(uptime)"
# Per group: boards proven by each, median time to proof over the boards both proved.
# Per size: boards proven by each and the median time to proof (a board not proven counts as
# the limit, so the median is a proof time when more than half were proven).
for g in $(awk '{ print $1 }' "$WORK/scale.log" | sort -u); do
  awk -v g="$g" -v lim="$LIMIT" '$1 == g { k++; po += ($2 == "True"); pp += ($4 == "OPTIMAL");
      o[k] = ($2 == "True") ? $3 : lim; p[k] = ($4 == "OPTIMAL") ? $5 : lim }
    function median(a, k,   i, j, t) { for (i = 1; i <= k; i++) for (j = i + 1; j <= k; j++)
      if (a[j] < a[i]) { t = a[i]; a[i] = a[j]; a[j] = t }
      return (k % 2) ? a[(k + 1) / 2] : (a[k / 2] + a[k / 2 + 1]) / 2 }
    END { printf "%s: ours proved %d/%d (median %.2f s), CP-SAT proved %d/%d (median %.2f s)\n",
      g, po, k, median(o, k), pp, k, median(p, k) }' "$WORK/scale.log"
done
