"""The solver from Python against goita solve's JSON."""

import json

import pytest

import goita
from goita import Round, Solver

E4 = "11244556,12234569,11123378,11113457,s3,371,411,115,2p,3p,4p,145,252,3p,4p,124,2p"

POSITIONS = [
    ("king_face_down=allowed", E4),
    ("king_face_down=allowed", "11244556,12234569,11123378,11113457,s3,371,411,115,2p,3p,4p,145"),
    ("", "11344556,11233578,11123479,11122456,s1,113,2p,3p,4p,156,2p,3p,4p"),
    ("", "12345678,12345679,11112345,11112345,s1,113,2p,3p,4p,124"),
]


@pytest.fixture(scope="module")
def solver():
    with Solver(table_mb=16) as s:
        yield s


@pytest.mark.parametrize("rules,history", POSITIONS)
def test_values_equal_goita_solve(cli, solver, rules, history):
    args = ["solve"] + (["--rules", rules] if rules else []) + [history]
    want = json.loads(cli(*args))
    got = solver.solve(Round.from_history(history, rules))
    assert got.complete and got.value == want["value"]
    assert got.move_values() == {m["move"]: m["value"] for m in want["moves"]}
    assert got.best is not None and got.move_values()[str(got.best)] == got.value
    assert solver.value(Round.from_history(history, rules)) == want["value"]


def test_example_e4_of_records_md(solver):
    # go-goita's solver gives 3p -40, 381 -40, 382 -50, 383 -40 (docs/RECORDS.md 1.4).
    got = solver.solve(Round.from_history(E4, "king_face_down=allowed"))
    assert got.value == -40
    assert got.move_values() == {"3p": -40, "381": -40, "382": -50, "383": -40}


def test_a_node_limit_gives_bounds():
    with Solver(table_mb=1) as s:
        got = s.solve(Round.from_history("12345678,12345679,11112345,11112345,s1"), max_nodes=2000)
    assert not got.complete and got.value is None and got.lower <= got.upper


def test_win_loss_gives_the_sign(solver):
    got = solver.solve(Round.from_history(E4, "king_face_down=allowed"), win_loss=True)
    assert got.complete and got.upper < 0
