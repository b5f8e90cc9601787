"""Exceptions: each libgoita status code is a GoitaError subclass carrying the library's message."""

from . import _lib


class GoitaError(Exception):
    """A libgoita call failed. status is the code (negative), name its name without prefix
    ("EILLEGAL"), position where it happened (token index, option number; -1 when not known)
    and message the library's sentence (or the code's generic text)."""

    status = None

    def __init__(self, status, message=None, position=-1):
        self.status = status
        self.name = _lib.lib.goita_err_name(status).decode()
        self.position = position
        self.message = message or _lib.lib.goita_strerror(status).decode()
        super().__init__(self.message)


class InvalidArgument(GoitaError, ValueError):
    """GOITA_EINVAL."""


class ParseError(GoitaError, ValueError):
    """GOITA_EPARSE: malformed text (a history string, a move, a record)."""


class UnknownOption(GoitaError, ValueError):
    """GOITA_EOPTION: an unknown rule option name."""


class InvalidValue(GoitaError, ValueError):
    """GOITA_EVALUE: a rule option value or parameter out of range."""


class IllegalMove(GoitaError):
    """GOITA_EILLEGAL."""


class NotYourTurn(GoitaError):
    """GOITA_ETURN: the move's seat is not the seat to move."""


class RoundOver(GoitaError):
    """GOITA_EOVER: the round or game is over."""


class NoSpace(GoitaError):
    """GOITA_ENOSPACE: an output buffer was too small (a binding bug)."""


class InvalidDeal(GoitaError, ValueError):
    """GOITA_EDEAL: hands that do not fit the set or the rules."""


class InvalidState(GoitaError):
    """GOITA_ESTATE: the operation is not valid in this state."""


class OutOfMemory(GoitaError, MemoryError):
    """GOITA_ENOMEM."""


_BY_NAME = {
    "EINVAL": InvalidArgument, "EPARSE": ParseError, "EOPTION": UnknownOption,
    "EVALUE": InvalidValue, "EILLEGAL": IllegalMove, "ETURN": NotYourTurn, "EOVER": RoundOver,
    "ENOSPACE": NoSpace, "EDEAL": InvalidDeal, "ESTATE": InvalidState, "ENOMEM": OutOfMemory,
}


def error_class(status):
    """Returns the exception class of a status code (GoitaError for a code this binding does
    not know by name, so a newer library still raises something sensible)."""
    return _BY_NAME.get(_lib.lib.goita_err_name(status).decode(), GoitaError)


def raise_for(status, err=None):
    """Raises the exception for a negative status, with err's message and position when the
    call filled a goita_error; returns status unchanged when it is not an error."""
    if status >= 0:
        return status
    message, position = None, -1
    if err is not None and err.status == status and err.message:
        message, position = err.message.decode("utf-8", "replace"), err.position
    raise error_class(status)(status, message, position)
