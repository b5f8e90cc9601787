"""Records: JSON written by goita and by Python read back, replayed and written again."""

import json

import pytest

import goita
from goita import Game, Player, Record


def test_a_record_of_goita_watch_reads_and_round_trips(cli, tmp_path):
    path = tmp_path / "game.json"
    cli("watch", "--seed", "11", "--player", "random", "--delay", "0", "--record", str(path))
    rec = Record.from_json(path.read_text())
    assert rec.seed == 11 and rec.over and len(rec) >= 1
    assert rec.rounds[0].dealt == Game(seed=11).round.dealt
    again = Record.from_json(rec.to_json())
    assert [r.history() for r in again.rounds] == [r.history() for r in rec.rounds]
    assert again.scores == rec.scores and again.winner_side == rec.winner_side


def test_a_python_game_record_round_trips_and_goita_replays_it(cli, tmp_path):
    game = Game(seed=21, record=True)
    game.play([Player("random", seed=s) for s in range(4)])
    rec = game.record(names=["ann", "bob", "cy", "di"], engines=["random"] * 4)
    text = rec.to_json()
    assert json.loads(text)["seed"] == "21"  # 64-bit seeds are strings in JSON
    back = Record.from_json(text)
    assert back.names == ["ann", "bob", "cy", "di"] and back.scores == game.scores
    assert len(back) == game.round_index
    path = tmp_path / "py.json"
    path.write_text(text)
    cli("replay", "--check", str(path))


def test_a_broken_record_names_the_field():
    game = Game(seed=4, record=True)
    game.play(Player("random"))
    doc = json.loads(game.record().to_json())
    doc["rounds"][0]["history"] = doc["rounds"][0]["history"] + ",1p"
    with pytest.raises(goita.GoitaError) as e:
        Record.from_json(json.dumps(doc))
    assert "rounds[0]" in e.value.message
    with pytest.raises(goita.GoitaError):
        Record.from_json("{")
