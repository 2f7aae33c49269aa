"""The package against the command line built from the same tree: the same JSON, text, judge
output and error messages; and the ways out of a long solve (time limit, Ctrl-C)."""

import json
import random
import signal
import subprocess
import sys
import time

import pytest

import queens
from conftest import EXAMPLES, FIXTURES, MALFORMED


def without_time(answer):
    answer = answer.to_dict()
    answer.pop("seconds")
    return answer


def test_to_dict_is_the_command_lines_json(cli_json):
    weights, board, marks = EXAMPLES / "weights.txt", EXAMPLES / "board.txt", EXAMPLES / "marks.txt"
    nauck = EXAMPLES / "nauck.txt"
    cases = [
        (queens.weight(weights.read_text(), threads=1), ["weight", weights]),
        (queens.repair(board.read_text(), threads=1), ["repair", board]),
        (queens.guard(marks.read_text(), threads=1), ["guard", marks]),
        (queens.guard(marks.read_text(), independent=True, count_sets=True, threads=1),
         ["guard", "--independent", "--count-sets", marks]),
        (queens.guard(8, threads=1), ["guard", "--full", 8]),
        (queens.guard((5, 7), theorems=False, threads=1), ["guard", "--full", "5x7", "--no-theorems"]),
        (queens.complete(nauck.read_text(), threads=1), ["complete", nauck]),
        (queens.complete(nauck.read_text(), count=True, threads=1), ["complete", "--count", nauck]),
        (queens.count(11, threads=1), ["count", 11]),
        (queens.weight(weights.read_text(), minimize=True, threads=1),
         ["weight", "--minimize", weights]),
        (queens.weight((FIXTURES / "weight-bom.txt").read_text(), threads=1),
         ["weight", FIXTURES / "weight-bom.txt"]),
    ]
    for answer, args in cases:
        assert without_time(answer) == cli_json(*args, "--json", "-j", 1), args
        assert json.loads(answer.to_json()) == answer.to_dict()


def test_text_and_svg_are_the_command_lines(cli):
    board = EXAMPLES / "board.txt"
    answer = queens.repair(board.read_text())
    assert str(answer) == cli("repair", board).stdout
    assert answer.svg() == cli("repair", board, "--format", "svg").stdout
    weights = EXAMPLES / "weights.txt"
    assert str(queens.weight(weights.read_text())) == cli("weight", weights).stdout


@pytest.mark.parametrize("name", ["lightoj1061", "uva167", "uva11214"])
def test_judges_answer_as_the_command_line(cli, name):
    path = EXAMPLES / "judge" / f"{name}.in"
    expected = cli("judge", name, path)
    assert expected.returncode == 0
    assert queens.judge(name, path.read_text()) == expected.stdout


def test_solution_lines_are_the_command_lines(cli):
    lines = cli("solutions", 6, "--json").stdout.splitlines()
    assert [s.to_json() for s in queens.solutions(6)] == lines
    assert queens.verify_solutions(6, "\n".join(lines))


def malformed_cases():
    for path in sorted(MALFORMED.iterdir()):
        if "non-utf8" in path.name:
            continue  # Python strings are text; the byte check is the command line's
        kind = path.name.split("-")[0]
        yield pytest.param(kind, path, id=path.name)


def call(kind, text):
    if kind in ("lightoj1061", "uva167", "uva11214"):
        return queens.judge(kind, text)
    return {"weight": queens.weight, "repair": queens.repair, "guard": queens.guard,
            "complete": queens.complete}[kind](text)


@pytest.mark.parametrize("kind,path", list(malformed_cases()))
def test_bad_input_raises_the_command_lines_message(cli, kind, path):
    args = ["judge", kind, path] if kind in ("lightoj1061", "uva167", "uva11214") else [kind, path]
    done = cli(*args)
    assert done.returncode in (1, 2), done
    message = done.stderr.splitlines()[-1]
    assert message.startswith("error: "), message
    expected = message[len("error: "):]
    # Errors of the input name the file; a solver's refusal of a size may not.
    expected = expected[len(f"{path}: "):] if expected.startswith(f"{path}: ") else expected
    error = queens.NoAnswerError if done.returncode == 1 else ValueError
    with pytest.raises(error) as raised:
        call(kind, path.read_text(encoding="utf-8"))
    assert str(raised.value) == expected
    if isinstance(raised.value, queens.InputError):
        assert f"line {raised.value.line}, column {raised.value.column}:" in expected
        if kind in ("lightoj1061", "uva167", "uva11214"):
            assert done.stdout == raised.value.output


def test_bad_values_raise_value_and_type_errors():
    with pytest.raises(queens.InputError) as raised:
        queens.weight([[1, 2], [3]])
    assert (raised.value.line, raised.value.column) == (2, 1) or raised.value.line == 2
    with pytest.raises(queens.InputError, match="does not fit in 64 bits"):
        queens.weight([[1, 2], [3, 2**70]])
    with pytest.raises(TypeError, match="must be an integer, not float"):
        queens.weight([[1.5]])
    with pytest.raises(TypeError):
        queens.weight(42)
    with pytest.raises(ValueError, match="not supported"):
        queens.count(33)
    with pytest.raises(ValueError):
        queens.count(0)
    with pytest.raises(ValueError, match="N = 1180591620717411303424 is not supported"):
        queens.count(2**70)
    with pytest.raises(TypeError):
        queens.count("8")
    with pytest.raises(ValueError, match="not a number of threads"):
        queens.weight([[1]], threads=-1)
    with pytest.raises(ValueError, match="more than the 256 allowed"):
        queens.count(8, threads=1000)
    with pytest.raises(ValueError, match="time_limit"):
        queens.weight([[1]], time_limit=-1)
    with pytest.raises(ValueError, match="unknown judge problem 'uva999'"):
        queens.judge("uva999", "")
    with pytest.raises(queens.InputError, match="line 1, column 2"):
        queens.verify_weight([[1]], '{"problem":"weight",')


def test_no_input_crashes_the_interpreter():
    rng = random.Random(7)
    alphabet = "0123456789 -\n\t.qQxX#{}[],:\"\u00a0\ufeffé"
    for _ in range(300):
        text = "".join(rng.choice(alphabet) for _ in range(rng.randint(0, 40)))
        for kind in ("weight", "repair", "guard", "complete", "lightoj1061", "uva167", "uva11214"):
            try:
                call(kind, text)
            except ValueError:
                pass
        for check in (queens.verify_weight, queens.verify_repair, queens.verify_guard):
            try:
                check("1\n", text)
            except ValueError:
                pass


def test_time_limit_returns_the_answer_so_far():
    started = time.monotonic()
    partial = queens.count(19, threads=1, time_limit=0.3)
    assert time.monotonic() - started < 10
    assert not partial.complete and partial.units_done < partial.units_total
    rng = random.Random(3)
    grid = [[rng.randint(1, 10**6) for _ in range(60)] for _ in range(60)]
    started = time.monotonic()
    best = queens.weight(grid, time_limit=0.3)
    assert time.monotonic() - started < 10
    assert best.bound >= best.sum and queens.verify_weight(grid, best)


INTERRUPTED = """
import queens, sys
print("ready", flush=True)
try:
    queens.count(19, threads=1)
except KeyboardInterrupt as stop:
    answer = stop.answer
    print("interrupted", answer.complete, answer.units_done, answer.units_total, flush=True)
"""


def test_ctrl_c_stops_a_long_count_with_the_answer_so_far():
    child = subprocess.Popen(
        [sys.executable, "-c", INTERRUPTED], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    )
    try:
        assert child.stdout.readline().strip() == "ready"
        time.sleep(1.0)
        sent = time.monotonic()
        child.send_signal(signal.SIGINT)
        out, err = child.communicate(timeout=60)
    finally:
        child.kill()
    assert time.monotonic() - sent < 10, "the count did not stop soon after Ctrl-C"
    words = out.split()
    assert words[:2] == ["interrupted", "False"], (out, err)
    assert int(words[2]) < int(words[3])


def test_ctrl_c_in_a_judge_run_keeps_the_answers_written():
    # A short judge run is not interrupted: the whole output comes back.
    text = (EXAMPLES / "judge" / "uva167.in").read_text()
    assert queens.judge("uva167", text).strip()
