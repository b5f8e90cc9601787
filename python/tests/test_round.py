"""Rounds, views and history strings against the goita command."""

import json
import re

import pytest

import goita
from goita import Move, Round, View

# Example E4 of docs/RECORDS.md 1.4 (tests/cli/solve.sh uses it too).
E4 = "11244556,12234569,11123378,11113457,s3,371,411,115,2p,3p,4p,145,252,3p,4p,124,2p"
E4_RULES = "king_face_down=allowed"


@pytest.mark.parametrize("seed", [1, 7, 11, 2024])
def test_a_seeded_game_deals_what_goita_watch_deals(cli, seed):
    out = cli("watch", "--seed", str(seed), "--player", "random", "--delay", "0")
    first = out.split("Round 2")[0]
    dealer = int(re.search(r"Round 1, dealer seat (\d)", first).group(1)) - 1
    hands = re.findall(r"seat \d: \S+\s+\((\d+)\)", first)
    game = goita.Game(seed=seed)
    assert game.first_dealer == dealer
    round = game.round
    assert round.dealt == hands
    assert round.history().startswith(",".join(hands) + ",s%d" % (dealer + 1))


def test_deal_is_reproducible_and_setup_gives_the_same_round():
    a, b = Round.deal(42, dealer=1), Round.deal(42, dealer=1)
    assert a == b and a.history() == b.history()
    assert Round.deal(43, dealer=1) != a
    c = Round.setup(a.dealt, dealer=1)
    assert c.history() == a.history()


HISTORIES = [
    "12345678,12345679,11112345,11112345,s1",
    "12345678,12345679,11112345,11112345,s1,113,2p,3p",
    E4,
    "11244556,12234569,11123378,11113457,s3,371,411",
]


@pytest.mark.parametrize("history", HISTORIES)
def test_legal_moves_equal_goita_legal(cli, history):
    round = Round.from_history(history)
    want = cli("legal", history).split()
    assert [str(m) for m in round.legal_moves()] == want
    view = round.view(round.turn)
    assert [str(m) for m in view.legal_moves()] == want
    assert round.history() == history


def test_hidden_history_in_and_out(cli):
    round = Round.from_history(E4, E4_RULES)
    for seat in range(4):
        view = round.view(seat)
        text = view.history()
        assert "x" in text  # others' pieces are hidden
        again = View.from_history(text, E4_RULES)
        assert again.seat == seat and again.history() == text and again.same(view)
    mover = round.view(round.turn)
    assert [str(m) for m in mover.legal_moves()] == cli("legal", "--rules", E4_RULES, mover.history()).split()


def test_apply_play_out_and_result():
    round = Round.deal(5)
    while not round.over:
        round.apply(round.legal_moves()[0])
    result = round.result
    assert result.end in ("finish", "teyaku", "double_goshi", "redeal")
    assert Round.from_history(round.history()).result == result


def test_moves_parse_and_format():
    assert Move.parse("113") == Move(goita.PLAY, 0, 1, 3)
    assert str(Move.pass_(1)) == "2p"
    assert str(Move.decide(2, True)) == "3r" and str(Move.decide(2, False)) == "3g"
    assert Move.parse("289").same("288")
    with pytest.raises(goita.ParseError):
        Move.parse("5x")


def test_errors_carry_the_library_message():
    round = Round.from_history("12345678,12345679,11112345,11112345,s1")
    with pytest.raises(goita.NotYourTurn) as e:
        round.apply("2p")
    assert e.value.status == -6 and e.value.message == "seat 2 moved, but it is seat 1's turn"
    with pytest.raises(goita.IllegalMove) as e:
        round.apply("1p")
    assert e.value.name == "EILLEGAL" and str(e.value) == "seat 1 leads and cannot pass"
    before = round.history()
    with pytest.raises(goita.IllegalMove):
        round.apply(Move.play(0, 9, 9))
    assert round.history() == before
    with pytest.raises(goita.IllegalMove) as e:
        Round.from_history("11244556,12234569,11123378,11113457,s3,399")
    # The same sentence goita solve prints for this string (tests/cli/solve.sh).
    assert e.value.position == 5 and e.value.message.startswith('token 6 "399"')
    with pytest.raises(goita.ParseError):
        Round.from_history("hello")
    with pytest.raises(goita.InvalidDeal):
        Round.setup(["11111111", "11111111", "11111111", "11111111"])
