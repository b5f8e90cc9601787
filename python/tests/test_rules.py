"""Rules: option text round trips, presets, options as attributes, errors with the library's message."""

import pytest

import goita


def test_defaults_round_trip():
    rules = goita.Rules()
    assert goita.Rules(rules.to_text()) == rules
    assert rules.players == 4 and rules.target == 150 and rules.teyaku is True
    assert rules.king_face_down == "forbidden"
    assert rules.preset_name == "standard"


def test_options_as_text_keywords_and_attributes():
    a = goita.Rules("king_face_down=allowed, target=100")
    b = goita.Rules(king_face_down="allowed", target=100)
    assert a == b and a.to_text() == b.to_text()
    assert a.king_face_down == "allowed" and a.target == 100
    a.teyaku = False
    assert a.teyaku is False and "teyaku=off" in a.to_text()
    assert goita.Rules(a.to_text()) == a
    assert set(a.options()) >= {"players", "teyaku", "goshi", "king_attack", "target", "scale"}


@pytest.mark.parametrize("name", goita.Rules.presets())
def test_every_preset_round_trips(name):
    rules = goita.Rules.preset(name)
    assert rules.preset_name == name
    assert goita.Rules(rules.to_text()) == rules


def test_three_players():
    rules = goita.Rules(players=3)
    assert rules.hand_size == 10 and rules.sides == 3 and rules.teyaku is False
    assert [rules.side_of(s) for s in range(3)] == [0, 1, 2]


def test_bad_options_raise_with_the_library_message():
    with pytest.raises(goita.UnknownOption) as e:
        goita.Rules("target=100,king_attak=a_or_b")
    assert e.value.status == -3 and e.value.name == "EOPTION"
    assert "king_attak" in e.value.message and e.value.position == 1
    with pytest.raises(goita.InvalidValue) as e:
        goita.Rules(king_face_down="sometimes")
    assert "sometimes" in str(e.value)
    rules = goita.Rules()
    with pytest.raises(goita.InvalidValue):
        rules.players = 7
    assert rules.players == 4  # unchanged after the error
