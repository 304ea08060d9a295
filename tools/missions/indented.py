"""JSON laid out exactly as ``json.dumps(value, indent=2, ensure_ascii=False, default=str)``
lays it out, in about a third of the time.

With ``indent`` the standard library cannot use its C encoder and walks the value with
nested generators, one call per token: for a large ``status --json`` answer that was most of
the time spent after the analysis, on one core. Here the containers are walked by one
recursive function and every string, the bulk of the text, is escaped by the C encoder's own
function (``json.encoder.encode_basestring``); the output is byte for byte the standard
library's (``tests/test_indented.py`` compares them on generated values and real answers).
"""

from __future__ import annotations

import json.encoder
from typing import Any

_escape = json.encoder.encode_basestring  # the C function where CPython has it (as json uses)
_INFINITY = float("inf")


def dumps(value: Any) -> str:
    """``json.dumps(value, indent=2, ensure_ascii=False, default=str)``."""
    parts: list[str] = []
    _encode(value, "\n", parts)
    return "".join(parts)


def _float(value: float) -> str:
    if value != value:
        return "NaN"
    if value == _INFINITY:
        return "Infinity"
    if value == -_INFINITY:
        return "-Infinity"
    return float.__repr__(value)


def _key(key: Any) -> str:
    """A mapping key as ``json`` converts it (``skipkeys`` off: others are an error)."""
    if isinstance(key, str):
        return key
    if key is True:
        return "true"
    if key is False:
        return "false"
    if key is None:
        return "null"
    if isinstance(key, int):
        return int.__repr__(key)
    if isinstance(key, float):
        return _float(key)
    raise TypeError(f"keys must be str, int, float, bool or None, not {type(key).__name__}")


def _encode(value: Any, newline: str, parts: list[str]) -> None:
    """Append ``value``'s text; ``newline`` is a line break and the current indentation."""
    if isinstance(value, str):
        parts.append(_escape(value))
    elif value is None:
        parts.append("null")
    elif value is True:
        parts.append("true")
    elif value is False:
        parts.append("false")
    elif isinstance(value, int):
        parts.append(int.__repr__(value))
    elif isinstance(value, float):
        parts.append(_float(value))
    elif isinstance(value, list | tuple):
        if not value:
            parts.append("[]")
            return
        inner = newline + "  "
        parts.append("[")
        separator = inner
        for item in value:
            parts.append(separator)
            _encode(item, inner, parts)
            separator = "," + inner
        parts.append(newline)
        parts.append("]")
    elif isinstance(value, dict):
        if not value:
            parts.append("{}")
            return
        inner = newline + "  "
        parts.append("{")
        separator = inner
        for key, item in value.items():
            parts.append(separator)
            parts.append(_escape(_key(key)))
            parts.append(": ")
            _encode(item, inner, parts)
            separator = "," + inner
        parts.append(newline)
        parts.append("}")
    else:  # `default=str`: the text of anything else, encoded as what str gives
        _encode(str(value), newline, parts)
