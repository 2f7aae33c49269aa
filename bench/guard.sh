#!/usr/bin/env bash
# Fewest guards on full n x n boards: `queens guard` against the CP-SAT peer, side by side.
# Prints n, the answer, our time and nodes, the peer's answer, status and time, and the ratio
# peer/ours. The peer gets CAP seconds (default 120); once it hits the cap, larger n are not
# given to it (it only gets slower), so the whole run stays short.
#
# Usage: bench/guard.sh [N_FROM] [N_TO]     (default 5 13)
#   THREADS=2 CAP=120 bench/guard.sh 5 14
#        bench/guard.sh frontier [N_FROM] [N_TO]   (default 18 25)
#   The frontier rows: each full board with LIMIT seconds (default 60; the witness search gets
#   0.7 of it): the answer, whether it is proven, the lower bound and its source, the wall time
#   and the CPU time (user + sys). Where a theorem's bound is met, the time is the time to the
#   witness.
#        bench/guard.sh unidom [N_FROM] [N_TO]    (default 12 14)
#   Side by side with Bill Bird's unidom (github billbird/unidom, cloned, or copied from
#   UNIDOM_SRC, and built with its own Makefile under UNIDOM_DIR, default
#   ${TMPDIR:-/tmp}/queens-bench-unidom; never part of this repository), one thread each: ours
#   solves the full n x n board (every smaller size refuted, then a cover), unidom only refutes
#   one queen fewer than our answer (`-I queen -n N -S VARIANT -u K`, VARIANT default
#   MDD_maxMDD_desc, its fastest here). Prints both CPU times (user + sys) and unidom/ours.
#        bench/guard.sh rect [N] [independent]    (default 18)
#   The rectangle table (OEIS A274138, or A299029 with `independent`): `queens guard --table N`
#   with no time limit (every entry proven), one line per board with the seconds since the
#   previous line, then the wall and CPU time (user + sys) of the whole table and the load.
set -euo pipefail
ROOT=$(git -C "$(dirname "$0")" rev-parse --show-toplevel)
SHARED=${SHARED:-$ROOT/../shared}
[ -d "$SHARED/peers" ] || SHARED=/work/shared
PEER="$SHARED/peers/cpsat.py"
MODE=table
if [ "${1:-}" = frontier ]; then MODE=frontier; shift; fi
if [ "${1:-}" = unidom ]; then
  shift
  FROM=${1:-12}; TO=${2:-14}
  UNIDOM_DIR=${UNIDOM_DIR:-${TMPDIR:-/tmp}/queens-bench-unidom}
  UNIDOM_URL=${UNIDOM_URL:-https://github.com/billbird/unidom}
  VARIANT=${VARIANT:-MDD_maxMDD_desc}
  if [ ! -x "$UNIDOM_DIR/unidom" ]; then
    rm -rf "$UNIDOM_DIR"
    if [ -n "${UNIDOM_SRC:-}" ]; then
      cp -r "$UNIDOM_SRC" "$UNIDOM_DIR"
    else
      git clone --quiet --depth 1 "$UNIDOM_URL" "$UNIDOM_DIR"
    fi
    make -C "$UNIDOM_DIR" -j2 >/dev/null
  fi
  cargo build --release --quiet --manifest-path "$ROOT/Cargo.toml"
  uptime
  printf '%-4s %-7s %-10s %-18s %-10s %s\n' n queens ours_cpu unidom_refutes unidom_cpu unidom/ours
  cpu=$(mktemp); out=$(mktemp)
  for n in $(seq "$FROM" "$TO"); do
    /usr/bin/time -f '%U %S' -o "$cpu" "$ROOT/target/release/queens" guard --full "$n" --threads 1 --json >"$out"
    q=$(python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); assert d["optimal"]; print(d["guards"])' "$out")
    ours=$(awk '{print $1 + $2}' "$cpu")
    /usr/bin/time -f '%U %S' -o "$cpu" "$UNIDOM_DIR/unidom" -I queen -n "$n" -S "$VARIANT" -u $((q - 1)) >"$out" 2>&1
    theirs=$(awk '{print $1 + $2}' "$cpu")
    # It must agree: no dominating set of one queen fewer.
    refuted="$((q - 1)): refuted"
    grep -q 'Total Solutions Generated: 0' "$out" || refuted="$((q - 1)): DISAGREES"
    printf '%-4s %-7s %-10s %-18s %-10s %s\n' "$n" "$q" "$ours" "$refuted" "$theirs" \
      "$(python3 -c "print('%.1f' % ($theirs / max($ours, 0.005)))")"
  done
  rm -f "$cpu" "$out"
  uptime
  exit 0
fi
if [ "${1:-}" = rect ]; then
  shift
  N=${1:-18}; FLAG=""
  [ "${2:-}" = independent ] && FLAG=--independent
  cargo build --release --quiet --manifest-path "$ROOT/Cargo.toml"
  uptime
  cpu=$(mktemp)
  start=$(date +%s.%N); last=$start
  printf '%-4s %-4s %-6s %-44s %s\n' n m value source seconds
  while read -r n m value source; do
    now=$(date +%s.%N)
    printf '%-4s %-4s %-6s %-44s %.1f\n' "$n" "$m" "$value" "$source" "$(echo "$now - $last" | bc)"
    last=$now
  done < <(/usr/bin/time -f '%U %S' -o "$cpu" "$ROOT/target/release/queens" guard --table "$N" $FLAG --threads "${THREADS:-2}")
  wait $! 2>/dev/null || true
  echo "total: $(echo "$(date +%s.%N) - $start" | bc) s wall, $(awk '{print $1 + $2}' "$cpu") s CPU"
  rm -f "$cpu"
  uptime
  exit 0
fi
FROM=${1:-5}
TO=${2:-13}
THREADS=${THREADS:-2}
CAP=${CAP:-120}

if [ "$MODE" = frontier ]; then
  FROM=${1:-18}; TO=${2:-25}; LIMIT=${LIMIT:-60}
  cargo build --release --quiet --manifest-path "$ROOT/Cargo.toml"
  uptime
  printf '%-4s %-7s %-8s %-6s %-44s %-9s %s\n' n queens proven bound source seconds cpu_s
  cpu=$(mktemp)
  for n in $(seq "$FROM" "$TO"); do
    line=$(/usr/bin/time -f '%U %S' -o "$cpu" \
      "$ROOT/target/release/queens" guard --full "$n" --time-limit "$LIMIT" --threads "$THREADS" --json \
      | python3 -c 'import json,sys; d=json.load(sys.stdin); print("%-4d %-7d %-8s %-6d %-44s %-9.3f" % (d["rows"], d["guards"], d["optimal"], d["lower_bound"], d["lower_bound_source"], d["seconds"]))')
    echo "$line $(awk '{print $1 + $2}' "$cpu")"
  done
  rm -f "$cpu"
  uptime
  exit 0
fi

python3 -c 'import ortools' 2>/dev/null || pip install --quiet ortools
cargo build --release --quiet --manifest-path "$ROOT/Cargo.toml" 2>"$ROOT/target/guard-bench-build.log" \
  || { cat "$ROOT/target/guard-bench-build.log"; exit 1; }
QUEENS="$ROOT/target/release/queens"
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT

field() { python3 -c "import json,sys; print(json.load(sys.stdin)[\"$1\"])"; }

printf '%-4s %-7s %-10s %-12s %-8s %-10s %-10s %s\n' \
  n queens ours_s nodes peer peer_st peer_s peer/ours
peer_capped=0
for n in $(seq "$FROM" "$TO"); do
  file="$TMP/full$n.txt"
  python3 -c "print('\n'.join(['X' * $n] * $n))" > "$file"
  json=$("$QUEENS" guard "$file" --json --threads "$THREADS")
  q=$(field guards <<<"$json"); s=$(field seconds <<<"$json"); nodes=$(field nodes <<<"$json")
  if [ "$peer_capped" = 1 ]; then
    pv='-'; pst='skipped'; ps="> $CAP"; ratio="> $(python3 -c "print(round($CAP/max($s,1e-6)))")"
  else
    read -r pv pst ps < <(timeout $((CAP + 30)) python3 "$PEER" guard "$file" "$THREADS" "$CAP" || echo "- TIMEOUT $CAP")
    if [ "$pst" = OPTIMAL ]; then
      ratio=$(python3 -c "print('%.0f' % ($ps/max($s,1e-6)))")
    else
      peer_capped=1; ps="> $CAP"; ratio="> $(python3 -c "print(round($CAP/max($s,1e-6)))")"
    fi
  fi
  printf '%-4s %-7s %-10.4f %-12s %-8s %-10s %-10s %s\n' \
    "$n" "$q" "$s" "$nodes" "$pv" "$pst" "$ps" "$ratio"
done
