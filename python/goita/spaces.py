"""The environment's spaces: Gymnasium's own when gymnasium can be imported, else small
stand-ins with the same methods (seed, sample with a mask, contains) so that code written
for Gymnasium spaces runs without it.

A stand-in Box holds bytes (or any sequence of ints) when numpy is missing, numpy arrays
when it is there; a Dict holds named spaces.
"""

import numbers
import random

try:
    import numpy as np
except ImportError:
    np = None
try:
    import gymnasium
except ImportError:
    gymnasium = None


class Discrete:
    """The integers 0 .. n-1."""

    def __init__(self, n):
        self.n = int(n)
        self.start = 0
        self.shape = ()
        self.dtype = "int64"
        self._rng = random.Random()

    def seed(self, seed=None):
        self._rng = random.Random(seed)
        return [seed]

    def sample(self, mask=None):
        """A uniformly random element; with mask (n values, 1 = allowed) one of the allowed,
        or 0 when none is (as Gymnasium's Discrete does)."""
        if mask is None:
            return self._rng.randrange(self.n)
        if len(mask) != self.n:
            raise ValueError("the mask has %d values, not %d" % (len(mask), self.n))
        allowed = [i for i in range(self.n) if mask[i]]
        return self._rng.choice(allowed) if allowed else 0

    def contains(self, x):
        return isinstance(x, numbers.Integral) and not isinstance(x, bool) and 0 <= x < self.n

    __contains__ = contains

    def __eq__(self, other):
        return isinstance(other, Discrete) and other.n == self.n

    def __repr__(self):
        return "Discrete(%d)" % self.n


class Box:
    """Fixed-length vectors of integers in [low, high] of one dtype ("uint8" or "int8")."""

    def __init__(self, low, high, length, dtype):
        self.low, self.high, self.shape, self.dtype = low, high, (length,), dtype
        self._rng = random.Random()

    def seed(self, seed=None):
        self._rng = random.Random(seed)
        return [seed]

    def sample(self, mask=None):
        values = [self._rng.randint(self.low, self.high) for _ in range(self.shape[0])]
        if np is not None:
            return np.array(values, dtype=self.dtype)
        return bytes(values) if self.low >= 0 else values

    def contains(self, x):
        if np is not None and isinstance(x, np.ndarray):
            if x.shape != self.shape or not np.can_cast(x.dtype, self.dtype):
                return False
            return bool(((x >= self.low) & (x <= self.high)).all())
        try:
            values = list(x)
        except TypeError:
            return False
        return (len(values) == self.shape[0]
                and all(isinstance(v, numbers.Integral) and self.low <= v <= self.high for v in values))

    __contains__ = contains

    def __eq__(self, other):
        return (isinstance(other, Box) and (other.low, other.high, other.shape, other.dtype)
                == (self.low, self.high, self.shape, self.dtype))

    def __repr__(self):
        return "Box(%d, %d, %r, %s)" % (self.low, self.high, self.shape, self.dtype)


class Dict:
    """A dict of named spaces."""

    def __init__(self, spaces):
        self.spaces = dict(spaces)

    def __getitem__(self, key):
        return self.spaces[key]

    def seed(self, seed=None):
        rng = random.Random(seed)
        for space in self.spaces.values():
            space.seed(rng.getrandbits(64))
        return [seed]

    def sample(self, mask=None):
        return {key: space.sample() for key, space in self.spaces.items()}

    def contains(self, x):
        return (isinstance(x, dict) and set(x) == set(self.spaces)
                and all(space.contains(x[key]) for key, space in self.spaces.items()))

    __contains__ = contains

    def __eq__(self, other):
        return isinstance(other, Dict) and other.spaces == self.spaces

    def __repr__(self):
        return "Dict(%r)" % self.spaces


def discrete(n):
    """Discrete(n): Gymnasium's when it is there."""
    return gymnasium.spaces.Discrete(n) if gymnasium else Discrete(n)


def observation_dict(obs_size, mask_size):
    """The space of {"observation": uint8[obs_size], "action_mask": int8[mask_size] of 0/1}."""
    if gymnasium:
        return gymnasium.spaces.Dict({
            "observation": gymnasium.spaces.Box(0, 255, (obs_size,), np.uint8),
            "action_mask": gymnasium.spaces.Box(0, 1, (mask_size,), np.int8)})
    return Dict({"observation": Box(0, 255, obs_size, "uint8"), "action_mask": Box(0, 1, mask_size, "int8")})
