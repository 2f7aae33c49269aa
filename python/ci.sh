#!/usr/bin/env bash
# The Python package's checks (run by .ci/run after `cargo test --release`, which builds the
# command line the tests compare with): install it with the README's command into a fresh
# virtual environment, run its tests, then build the wheel with `maturin build --release` and
# install that into a second fresh environment whose PATH has no Rust toolchain.
set -euo pipefail
cd "$(dirname "$0")/.."
root="$PWD"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
python3 -m venv "$work/venv"
"$work/venv/bin/pip" install -q "maturin>=1.5,<2" pytest numpy
"$work/venv/bin/pip" install -q ./python
(cd "$work" && "$work/venv/bin/python" -c "import queens; print(queens.count(12).solutions)")
QUEENS_BIN="$root/target/release/queens" "$work/venv/bin/python" -m pytest -q python/tests
# The wheels, installed where no Rust is: the default one (CPython 3.10's stable ABI) and the
# one for CPython 3.9 (`--features py39`), each into its own fresh environment.
"$work/venv/bin/maturin" build --release --quiet -m python/Cargo.toml -o "$work/dist"
"$work/venv/bin/maturin" build --release --quiet -m python/Cargo.toml --features py39 -o "$work/dist39"
ls "$work"/dist/*-cp310-abi3-*.whl "$work"/dist39/*-cp39-abi3-*.whl >/dev/null
bare_path=/usr/local/bin:/usr/bin:/bin
if PATH="$bare_path" command -v cargo >/dev/null 2>&1 || PATH="$bare_path" command -v rustc >/dev/null 2>&1; then
  echo "error: a Rust toolchain is on $bare_path; the no-Rust install check needs a PATH without one" >&2
  exit 1
fi
for dist in dist dist39; do
  python3 -m venv "$work/bare-$dist"
  (cd "$work" && env -i HOME="$work" PATH="$bare_path" "$work/bare-$dist/bin/pip" install -q --no-index "$work/$dist"/*.whl)
  (cd "$work" && env -i HOME="$work" PATH="$bare_path" "$work/bare-$dist/bin/python" -c \
    "import queens; assert queens.count(12).solutions == 14200; assert queens.weight([[1, 2, 3, 4]] * 4).sum == 10; print('wheel without Rust ($dist): ok')")
done
