"""The web contract's schema (docs/activity-protocol.schema.json) as a check on frames: what the
bot's tests read from the real server and what the browser tests' server sends and receives
must be the schema's, so the page is drawn from what the bot sends and the bot reads what the
page sends."""

from __future__ import annotations

import functools
import json
from pathlib import Path
from typing import Any

from jsonschema import Draft7Validator  # type: ignore[import-untyped]
from jsonschema.exceptions import best_match  # type: ignore[import-untyped]

SCHEMA_PATH = Path(__file__).resolve().parents[1] / "docs" / "activity-protocol.schema.json"


@functools.cache
def schema() -> dict[str, Any]:
    loaded: dict[str, Any] = json.loads(SCHEMA_PATH.read_text())
    return loaded


@functools.cache
def _validator(definition: str) -> Any:
    definitions = schema()["definitions"]
    if definition not in definitions:
        raise KeyError(f"the schema defines no {definition}")
    return Draft7Validator(
        {"definitions": definitions, **_inlined(definitions[definition], definitions)}
    )


def _inlined(node: Any, definitions: dict[str, Any], within: tuple[str, ...] = ()) -> Any:
    """``node`` with each reference to a definition replaced by the definition itself (one
    that refers back to itself keeps its reference): the same checks, but jsonschema looks up
    no reference per value, a third less CPU a table (the contract tests check thousands).
    Draft 7 ignores whatever sits beside a ``$ref``, so the definition stands alone."""
    if isinstance(node, list):
        return [_inlined(item, definitions, within) for item in node]
    if not isinstance(node, dict):
        return node
    ref = node.get("$ref")
    prefix = "#/definitions/"
    if isinstance(ref, str) and ref.startswith(prefix) and ref[len(prefix) :] not in within:
        name = ref[len(prefix) :]
        return _inlined(definitions[name], definitions, (*within, name))
    return {key: _inlined(value, definitions, within) for key, value in node.items()}


def problem(value: Any, definition: str) -> str | None:
    """What makes ``value`` not a ``definition`` of the schema (its most telling error, with
    where), or None when it is one."""
    error = best_match(_validator(definition).iter_errors(value))
    if error is None:
        return None
    where = "/".join(str(p) for p in error.absolute_path) or "(the whole)"
    return f"{definition} at {where}: {error.message}"


def check(value: Any, definition: str) -> None:
    """AssertionError unless ``value`` is a ``definition`` of the schema."""
    said = problem(value, definition)
    assert said is None, said


def frame_definition(frame: Any, union: str) -> str:
    """The definition of ``union`` (``ServerFrame``, ``ClientFrame``) whose ``op`` the frame
    has, so that what is wrong is said of that frame, not of the union; ``union`` itself when
    no definition has that op."""
    defs = schema()["definitions"]
    op = frame.get("op") if isinstance(frame, dict) else None
    for branch in defs[union]["oneOf"]:
        name = branch["$ref"].rsplit("/", 1)[1]
        if defs[name]["properties"]["op"].get("const") == op:
            return str(name)
    return union


def check_server_frame(frame: Any) -> None:
    check(frame, frame_definition(frame, "ServerFrame"))


def check_client_frame(frame: Any) -> None:
    check(frame, frame_definition(frame, "ClientFrame"))
