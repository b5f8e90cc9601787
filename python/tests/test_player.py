"""Computer players from Python: reproducible by seed, with what they thought."""

import pytest

import goita
from goita import Player, Round


def test_levels_and_specs():
    levels = Player.levels()
    assert "random" in levels and "expert" in levels
    assert Player.describe("random")
    assert Player.describe("nonsense") is None
    p = Player("sampler:samples=8")
    assert p.spec.startswith("sampler:samples=8")
    p.set("samples=16")
    assert "samples=16" in p.spec


@pytest.mark.parametrize("spec", ["random", "rules", "sampler:samples=8"])
def test_a_choice_is_reproducible_by_seed(spec):
    round = Round.deal(9, dealer=2)
    while not round.over:
        view = round.view(round.turn)
        a, b = Player(spec, seed=5), Player(spec, seed=5)
        move = a.choose(view)
        assert b.choose(view) == move and a.choose(view) == move  # no memory of earlier calls
        assert move in view.legal_moves()
        round.apply(move)


def test_info_reports_values():
    round = Round.deal(3)
    view = round.view(round.turn)
    move, thought = Player("sampler:samples=8", seed=1).choose(view, info=True)
    assert thought.has_values and len(thought.values) == len(thought.moves) > 0
    assert move in thought.moves
    # master says how many deals valued each move and agreed it was best
    move, thought = Player("master:ms=2", seed=1).choose(view, info=True)
    assert len(thought.deals) == len(thought.moves) and thought.samples >= max(thought.deals) > 0
    assert 0 < sum(thought.agree) and all(a <= d for a, d in zip(thought.agree, thought.deals))


def test_errors():
    with pytest.raises(goita.GoitaError) as e:
        Player("grandmaster")
    assert "grandmaster" in e.value.message
    round = Round.deal(3)
    other = (round.turn + 1) % 4
    with pytest.raises(goita.NotYourTurn):
        Player("random").choose(round.view(other))


def test_a_whole_game():
    game = goita.Game(seed=3)
    scores = game.play(Player("rules", seed=1))
    assert game.over and max(scores) >= 150 and game.winner_side == scores.index(max(scores))
