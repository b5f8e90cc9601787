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


def test_the_options_come_from_the_library_table():
    options = goita.Rules.known_options()
    names = [o["name"] for o in options]
    assert names[0] == "preset" and names[1:] == list(goita.Rules().options())
    by_name = {o["name"]: o for o in options}
    assert by_name["target"]["kind"] == "number" and by_name["target"]["max"] == 10000
    assert by_name["target"]["scaled"] and by_name["target"]["section"] == "6, 10"
    assert by_name["double_goshi"]["kind"] == "choice_or_points"
    assert "redeal_or_play" in by_name["double_goshi"]["values"]
    assert by_name["preset"]["values"] == goita.Rules.presets()
    # every default, as written, reads back as the defaults
    text = ",".join("%s=%s" % (o["name"], o["default"]) for o in options[1:])
    assert goita.Rules(text) == goita.Rules()
    # values typed by the table: a number stays an int, on/off a bool
    rules = goita.Rules(double_goshi="points:30")
    assert rules.double_goshi == "points:30" and rules.players == 4 and rules.goshi is True
