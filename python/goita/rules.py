"""Rule options (docs/RULES.md 12) as a Python object over struct goita_rules."""

import ctypes

from . import _lib
from .errors import raise_for


_KINDS = {0: "choice", 1: "number", 2: "choice_or_points"}


def known_options():
    """The rule options as the library's table has them (docs/RULES.md 12), in the order the
    option text writes them: a list of dicts with name, kind ("choice", "number" or
    "choice_or_points": a choice or points:N), values (or None), min, max, scaled (the number
    is written on the rules' scale), default, section, seeds and help."""
    count = ctypes.c_size_t()
    rows = _lib.lib.goita_rules_options(ctypes.byref(count))
    out = []
    for i in range(count.value):
        row = rows[i]
        out.append({
            "name": row.name.decode(),
            "kind": _KINDS[row.kind],
            "values": _lib.strings(row.values) if row.values else None,
            "min": row.min,
            "max": row.max,
            "scaled": bool(row.scaled),
            "default": row.default_value.decode(),
            "section": row.section.decode(),
            "seeds": row.seeds.decode(),
            "help": row.help.decode(),
        })
    return out


_OPTIONS = None


def _option(name):
    global _OPTIONS
    if _OPTIONS is None:
        _OPTIONS = {o["name"]: o for o in known_options()}
    return _OPTIONS.get(name)


def _text_value(name, text):
    """Turns an option's text value into Python by the library's table: an off/on choice ->
    bool, a number -> int, anything else (points:N included) -> str."""
    option = _option(name)
    if option and option["values"] == ["off", "on"]:
        return text == "on"
    if option and option["kind"] == "number":
        return int(text)
    return text


def _value_text(value):
    if value is True:
        return "on"
    if value is False:
        return "off"
    return str(value)


class Rules:
    """A set of rule options. Rules() are the defaults; Rules("king_face_down=allowed,
    target=100") or Rules(king_face_down="allowed", target=100) read option text over them,
    Rules.preset("french") a named rule set (RULES.md 11). Options read and write as
    attributes with the values of the option text: rules.target == 150,
    rules.teyaku is True, rules.king_face_down == "forbidden"; setting one re-reads the text
    through the library, so a bad value raises InvalidValue with its message."""

    __slots__ = ("_c",)

    def __init__(self, text="", **options):
        object.__setattr__(self, "_c", _lib.goita_rules())
        extra = ",".join("%s=%s" % (k, _value_text(v)) for k, v in options.items())
        full = ",".join(t for t in (text or "", extra) if t)
        self._parse(full)

    def _parse(self, text):
        err = _lib.goita_error()
        c = _lib.goita_rules()
        raise_for(_lib.lib.goita_rules_parse(ctypes.byref(c), text.encode(), ctypes.byref(err)), err)
        ctypes.pointer(self._c)[0] = c

    @classmethod
    def preset(cls, name, **options):
        """The rules of a named rule set (see presets()), with options overriding it."""
        return cls("preset=" + name, **options)

    @staticmethod
    def known_options():
        """The library's table of rule options (see goita.rules.known_options)."""
        return known_options()

    @staticmethod
    def presets():
        """The names of the rule sets the library knows."""
        return _lib.strings(_lib.lib.goita_rules_preset_names())

    @classmethod
    def _from_c(cls, c):
        rules = cls.__new__(cls)
        object.__setattr__(rules, "_c", _lib.goita_rules())
        ctypes.pointer(rules._c)[0] = c
        return rules

    def to_text(self):
        """Every option as text that Rules(text) reads back to equal rules."""
        buf = ctypes.create_string_buffer(_lib.RULES_TEXT_SIZE)
        raise_for(_lib.lib.goita_rules_format(ctypes.byref(self._c), buf, len(buf)))
        return buf.value.decode()

    def options(self):
        """The options as a dict, name -> value (as attributes give them), in the library's order."""
        return {name: _text_value(name, value)
                for name, value in (item.split("=", 1) for item in self.to_text().split(","))}

    @property
    def preset_name(self):
        """The name of the rule set these rules are exactly, or None."""
        name = _lib.lib.goita_rules_preset(ctypes.byref(self._c))
        return name.decode() if name else None

    @property
    def hand_size(self):
        return _lib.lib.goita_rules_hand_size(ctypes.byref(self._c))

    @property
    def sides(self):
        """Scoring sides: 2 teams with 4 players, else one per player."""
        return _lib.lib.goita_rules_sides(ctypes.byref(self._c))

    def side_of(self, seat):
        return _lib.lib.goita_rules_side_of(ctypes.byref(self._c), seat)

    def shown_points(self, points):
        """Points as the rules' scale shows them (150 reads 15 with scale=ones)."""
        return _lib.lib.goita_rules_shown_points(ctypes.byref(self._c), points)

    def __getattr__(self, name):
        options = self.options()
        if name in options:
            return options[name]
        raise AttributeError("Rules has no option %r" % name)

    def __setattr__(self, name, value):
        # The parser refuses an option given twice: replace it in the full text.
        items = [item for item in self.to_text().split(",") if item.split("=", 1)[0] != name]
        self._parse(",".join(items + ["%s=%s" % (name, _value_text(value))]))

    def __eq__(self, other):
        return isinstance(other, Rules) and self.to_text() == other.to_text()

    def __hash__(self):
        return hash(self.to_text())

    def __str__(self):
        return self.to_text()

    def __repr__(self):
        return "Rules(%r)" % self.to_text()

    def copy(self):
        return Rules._from_c(self._c)


def as_rules(rules):
    """Accepts Rules, option text or None (the defaults) and returns Rules."""
    if isinstance(rules, Rules):
        return rules
    return Rules(rules or "")
