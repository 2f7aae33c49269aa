"""Shared helpers: the repository's fixtures and the command line built from the same tree."""

import json
import os
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "examples"
MALFORMED = ROOT / "tests" / "malformed"
FIXTURES = ROOT / "tests" / "fixtures"


def cli_path():
    """The `queens` binary: $QUEENS_BIN, or the release build of this repository."""
    given = os.environ.get("QUEENS_BIN")
    if given:
        return Path(given)
    return ROOT / "target" / "release" / "queens"


@pytest.fixture(scope="session")
def cli():
    """Runs the command line: cli(*args, input=None) -> CompletedProcess (text)."""
    path = cli_path()
    if not path.exists():
        if os.environ.get("QUEENS_BIN"):
            pytest.fail(f"QUEENS_BIN={path} does not exist")
        pytest.skip("the command line is not built (cargo build --release, or set QUEENS_BIN)")

    def run(*args, input=None):
        return subprocess.run(
            [str(path), *map(str, args)], input=input, capture_output=True, text=True, timeout=120
        )

    return run


@pytest.fixture(scope="session")
def cli_json(cli):
    """The command line's --json answer as a dict, with its time removed."""

    def run(*args):
        done = cli(*args)
        assert done.returncode == 0, done.stderr
        answer = json.loads(done.stdout)
        answer.pop("seconds")
        return answer

    return run
