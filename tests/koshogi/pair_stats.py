"""The strength of engine A against engine B from games played in pairs: each opening is played
twice, colours swapped, so that what an opening gives one colour cancels out within its pair.
The pair, not the game, is the unit of the statistics: the two games of a pair are not
independent (the same opening favours the same side), and their scores are summed first.

pair_scores: A's points in each pair, 0 to 2 (a win 1, a draw 1/2).
Returns a dict: pairs, the count of pairs of each score (the pentanomial, keys "0" to "2"),
A's mean score per game, the Elo difference, and its 95% interval from the spread of the pair
scores (normal approximation). An Elo, or a bound, is None where the score reaches 0 or 1 (no
finite Elo)."""
import math


def elo_of(score):
    """Elo difference of a mean score per game, None at 0 or 1."""
    if score <= 0 or score >= 1:
        return None
    return -400 * math.log10(1 / score - 1) + 0.0  # + 0.0: no "-0.0" for an even score


def pair_stats(pair_scores):
    n = len(pair_scores)
    counts = {k: sum(1 for s in pair_scores if s == v) for k, v in
              (("0", 0), ("0.5", 0.5), ("1", 1), ("1.5", 1.5), ("2", 2))}
    if n == 0:
        return dict(pairs=0, pentanomial=counts, score=None, elo=None, elo_low=None, elo_high=None)
    per_game = [s / 2 for s in pair_scores]
    mean = sum(per_game) / n
    variance = sum((x - mean) ** 2 for x in per_game) / (n - 1) if n > 1 else 0.0
    margin = 1.96 * math.sqrt(variance / n)
    low, high = mean - margin, mean + margin
    return dict(pairs=n, pentanomial=counts, score=mean, elo=elo_of(mean), elo_low=elo_of(low),
                elo_high=elo_of(high))
