"""Request bodies checked against Discord's OpenAPI spec, plus the limits the spec can't say."""

from __future__ import annotations

import functools
import json
import os
import re
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final

from jsonschema import Draft202012Validator, validators  # type: ignore[import-untyped]
from jsonschema.exceptions import (  # type: ignore[import-untyped]
    ValidationError,
    best_match,
)

# Where the spec lives: $DISCORD_API_SPEC, else shared/discord-api-spec/ in a folder holding
# the checkout (CI clones main with shared/ next to it; a worktree may sit a level deeper). No
# machine's own path: the checkout's ancestors are searched instead.
SPEC_CANDIDATES = (
    *((Path(os.environ["DISCORD_API_SPEC"]),) if os.environ.get("DISCORD_API_SPEC") else ()),
    *(
        folder / "shared" / "discord-api-spec" / "openapi.json"
        for folder in Path(__file__).resolve().parents[1:]
    ),
)

_PARAM = re.compile(r"\{([^}]+)\}")


@dataclass(frozen=True)
class RouteMatch:
    template: str
    params: dict[str, str]


@functools.cache
def _spec() -> dict[str, Any]:
    for path in SPEC_CANDIDATES:
        if path.is_file():
            data: dict[str, Any] = json.loads(path.read_text())
            return data
    raise FileNotFoundError(f"Discord's OpenAPI spec is in none of {SPEC_CANDIDATES}")


# Where Discord's behaviour (and documentation) is looser than the preview spec. Discord takes
# snowflakes as integers too, and discord.py sends new attachments' ids as integer indexes.
SCHEMA_OVERRIDES: dict[str, dict[str, Any]] = {
    "SnowflakeType": {
        "anyOf": [
            {"type": "string", "pattern": "^(0|[1-9][0-9]*)$"},
            {"type": "integer", "minimum": 0},
        ]
    },
}


@functools.cache
def _components() -> dict[str, Any]:
    components = dict(_spec()["components"])
    components["schemas"] = {**components["schemas"], **SCHEMA_OVERRIDES}
    return components


@functools.cache
def _routes() -> list[tuple[re.Pattern[str], str]]:
    """Spec paths as regexes; literal segments win over parameters (@original vs {message_id})."""
    out = []
    for template in _spec()["paths"]:
        parts = []
        for seg in template.strip("/").split("/"):
            m = _PARAM.fullmatch(seg)
            parts.append(f"(?P<{m.group(1)}>[^/]+)" if m else re.escape(seg))
        out.append((re.compile("^/" + "/".join(parts) + "$"), template))
    out.sort(key=lambda p: (p[1].count("{"), -len(p[1])))
    return out


def match_route(path: str) -> RouteMatch | None:
    for rx, template in _routes():
        if m := rx.match(path):
            return RouteMatch(template, m.groupdict())
    return None


@functools.cache
def _validator(template: str, method: str) -> Draft202012Validator | None:
    op = _spec()["paths"].get(template, {}).get(method.lower())
    if not op or "requestBody" not in op:
        return None
    schema = op["requestBody"]["content"]["application/json"]["schema"]
    wrapped = {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "components": _components(),
        **schema,
    }
    return Draft202012Validator(wrapped)


def answer_problem(template: str, method: str, status: int, body: Any) -> str | None:
    """What in an answer's body the spec's response for that status does not allow (None:
    nothing); for checking the double's own answers in its tests."""
    op = _spec()["paths"][template][method.lower()]
    responses = op["responses"]
    found = responses.get(str(status)) or responses.get(f"{str(status)[0]}XX")
    if found is None:
        return f"the spec has no {status} answer for {method} {template}"
    if "$ref" in found:
        found = _components()["responses"][found["$ref"].rsplit("/", 1)[-1]]
    schema = found.get("content", {}).get("application/json", {}).get("schema")
    if schema is None:
        return None if body is None else "the spec's answer has no body"
    wrapped = {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "components": _components(),
        **schema,
    }
    error = best_match(Draft202012Validator(wrapped).iter_errors(body))
    return None if error is None else f"{list(error.absolute_path)}: {error.message}"


# The quick check. Discord's unions are wide (an interaction callback is one of 9 bodies, a
# component one of 20 types, most enums a oneOf of consts), and jsonschema works out every
# error of every branch before it moves on: it was about 10 ms a body, two thirds of a bot
# test's CPU. This validator skips the branches a body's own values rule out at a glance
# (another const, another JSON type, another component `type`), each of which would fail
# anyway, and stops at the first error: the same valid/invalid answer, about 6 times faster.
# A body it finds invalid is checked again by the full validator for Discord's error tree.
_JSON_TYPES: dict[str, tuple[type, ...]] = {
    "null": (type(None),),
    "object": (dict,),
    "array": (list,),
    "string": (str,),
    "boolean": (bool,),
    "integer": (int,),
    "number": (int, float),
}


def _is_json_type(instance: Any, name: str) -> bool | None:
    kinds = _JSON_TYPES.get(name)
    if kinds is None:
        return None  # not a name this knows: make no claim
    if isinstance(instance, bool) and name in ("integer", "number"):
        return False
    return isinstance(instance, kinds)


def _rules_out(schema: dict[str, Any], instance: Any) -> bool:
    """True only when `instance` certainly fails `schema` (a $ref already resolved)."""
    const = schema.get("const")
    if (
        "const" in schema
        and type(const) in (int, str)
        and type(instance) in (int, str)
        and (type(const) is not type(instance) or const != instance)
    ):
        return True
    kinds = schema.get("type")
    if kinds is not None:
        answers = [
            _is_json_type(instance, k) for k in ([kinds] if isinstance(kinds, str) else kinds)
        ]
        if all(a is False for a in answers):
            return True
    tag = instance.get("type") if isinstance(instance, dict) else None
    prop = (schema.get("properties") or {}).get("type")
    if type(tag) is int and isinstance(prop, dict):
        allowed = [prop["const"]] if "const" in prop else prop.get("enum")
        if allowed is not None and all(type(a) is int for a in allowed) and tag not in allowed:
            return True
    return False


_REFERENCED: dict[str, Any] = {}


def _referenced(validator: Any, ref: str) -> Any:
    """What a $ref names; every validator here has the same components, so one table."""
    if not ref.startswith("#/components/"):
        return validator._resolver.lookup(ref).contents
    if ref not in _REFERENCED:
        _REFERENCED[ref] = validator._resolver.lookup(ref).contents
    return _REFERENCED[ref]


def _branches(validator: Any, subschemas: list[Any], instance: Any) -> Iterable[tuple[int, Any]]:
    for index, subschema in enumerate(subschemas):
        target = subschema
        if isinstance(subschema, dict) and "$ref" in subschema:
            target = _referenced(validator, subschema["$ref"])
        if not (isinstance(target, dict) and _rules_out(target, instance)):
            yield index, subschema


#: Whether a union's branch passes a value, by the branch and the value's JSON: the bot sends
#: the same buttons, rows and embed fields request after request, and the answer for a value
#: never changes. The branches are the spec's own dicts, alive as long as the process, so
#: their ids stand for them. Measured on one game's 157 request bodies: half the CPU.
_PASSED: dict[tuple[int, str], bool] = {}
_PASSED_MOST: Final = 100_000


def _passes(validator: Any, instance: Any, subschema: Any, index: int) -> bool:
    key = (id(subschema), json.dumps(instance, sort_keys=True))
    known = _PASSED.get(key)
    if known is None:
        known = next(validator.descend(instance, subschema, schema_path=index), None) is None
        if len(_PASSED) >= _PASSED_MOST:
            _PASSED.clear()
        _PASSED[key] = known
    return known


def _any_of(validator: Any, subschemas: list[Any], instance: Any, schema: Any) -> Any:
    if not any(
        _passes(validator, instance, s, i) for i, s in _branches(validator, subschemas, instance)
    ):
        yield ValidationError(f"{instance!r} is not valid under any of the given schemas")


def _one_of(validator: Any, subschemas: list[Any], instance: Any, schema: Any) -> Any:
    passing = (
        i
        for i, s in _branches(validator, subschemas, instance)
        if _passes(validator, instance, s, i)
    )
    if next(passing, None) is None or next(passing, None) is not None:
        yield ValidationError(f"{instance!r} is not valid under exactly one of the given schemas")


_QuickValidator = validators.extend(Draft202012Validator, {"anyOf": _any_of, "oneOf": _one_of})


@functools.cache
def _quick_validator(template: str, method: str) -> Any:
    full = _validator(template, method)
    return None if full is None else _QuickValidator(full.schema)


def _nest(path: Iterable[Any], leaf: dict[str, Any]) -> dict[str, Any]:
    """Discord's 50035 `errors` tree: {"content": {"_errors": [{"code", "message"}]}}."""
    node: dict[str, Any] = {"_errors": [leaf]}
    for key in reversed(list(path)):
        node = {str(key): node}
    return node


_CODES = {
    "maxLength": "BASE_TYPE_MAX_LENGTH",
    "minLength": "BASE_TYPE_MIN_LENGTH",
    "maxItems": "BASE_TYPE_MAX_LENGTH",
    "required": "BASE_TYPE_REQUIRED",
    "type": "BASE_TYPE_INVALID",
    "enum": "BASE_TYPE_CHOICES",
    "maximum": "NUMBER_TYPE_MAX",
    "minimum": "NUMBER_TYPE_MIN",
}


@dataclass(frozen=True)
class BodyProblem:
    """One reason Discord would answer 50035, with the `errors` tree it would send."""

    where: str
    reason: str
    errors: dict[str, Any]


# Errors that say "this was another branch of a union" rather than what is wrong.
_WEAK = {"enum", "const", "anyOf", "oneOf", "type", "required", "additionalProperties"}


def _most_telling(errors: list[ValidationError]) -> ValidationError | None:
    """Among a union's branches, the deepest concrete complaint (a length, a range, ...)."""
    if not errors:
        return None
    leaves: list[ValidationError] = []
    stack = list(errors)
    while stack:
        err = stack.pop()
        if err.context:
            stack.extend(err.context)
        else:
            leaves.append(err)
    strong = [e for e in leaves if e.validator not in _WEAK]
    if strong:
        return max(strong, key=lambda e: len(e.absolute_path))
    return best_match(errors)


def validate_schema(template: str, method: str, body: Any) -> BodyProblem | None:
    validator = _validator(template, method)
    if validator is None or _quick_validator(template, method).is_valid(body):
        return None
    error = _most_telling(list(validator.iter_errors(body)))
    if error is None:
        return None
    leaf = {"code": _CODES.get(str(error.validator), "BASE_TYPE_INVALID"), "message": error.message}
    where = ".".join(str(p) for p in error.absolute_path) or "<body>"
    return BodyProblem(where, error.message[:300], _nest(error.absolute_path, leaf))


# Limits the spec does not express ---------------------------------------------------------
IS_COMPONENTS_V2 = 1 << 15
MAX_CONTENT, MAX_EMBED_CHARS, MAX_ROWS, MAX_ROW_BUTTONS, MAX_CUSTOM_ID = 2000, 6000, 5, 5, 100
MAX_V2_COMPONENTS = 40


def _embed_chars(embed: dict[str, Any]) -> int:
    n = len(embed.get("title") or "") + len(embed.get("description") or "")
    n += len((embed.get("footer") or {}).get("text") or "")
    n += len((embed.get("author") or {}).get("name") or "")
    for f in embed.get("fields") or []:
        n += len(f.get("name") or "") + len(f.get("value") or "")
    return n


def _message_parts(body: dict[str, Any]) -> dict[str, Any] | None:
    """The message-shaped part of a body: itself, or `data` of an interaction callback."""
    if "type" in body and "data" in body and isinstance(body["data"], dict):
        return body["data"] if body["type"] in (4, 7) else None
    return body


def check_limits(body: Any, inherited_flags: int = 0) -> BodyProblem | None:
    """`inherited_flags`: the flags of the message an edit targets (components v2 sticks)."""
    if not isinstance(body, dict):
        return None
    msg = _message_parts(body)
    if msg is None:
        return None

    def problem(path: list[Any], code: str, text: str) -> BodyProblem:
        where = ".".join(str(p) for p in path)
        return BodyProblem(where, text, _nest(path, {"code": code, "message": text}))

    content = msg.get("content")
    if isinstance(content, str) and len(content) > MAX_CONTENT:
        return problem(["content"], "BASE_TYPE_MAX_LENGTH", "Must be 2000 or fewer in length.")
    embeds = msg.get("embeds") or []
    if isinstance(embeds, list) and sum(_embed_chars(e) for e in embeds if isinstance(e, dict)) > (
        MAX_EMBED_CHARS
    ):
        return problem(
            ["embeds"], "MAX_EMBED_SIZE_EXCEEDED", "Embed size exceeds maximum size of 6000"
        )
    components = msg.get("components") or []
    if not isinstance(components, list):
        return None
    v2 = (int(msg.get("flags") or 0) | inherited_flags) & IS_COMPONENTS_V2
    if v2 and (msg.get("content") or msg.get("embeds")):
        return problem(
            ["content"],
            "MESSAGE_CANNOT_USE_LEGACY_FIELDS_WITH_COMPONENTS_V2",
            "The 'content' and 'embeds' fields cannot be used with components v2",
        )
    if not v2 and len(components) > MAX_ROWS:
        return problem(["components"], "BASE_TYPE_BAD_LENGTH", "Must be between 1 and 5 in length.")
    seen: set[str] = set()
    total = 0
    stack: list[Any] = list(components)
    while stack:
        comp = stack.pop()
        if not isinstance(comp, dict):
            continue
        total += 1
        inner = [c for c in comp.get("components") or [] if isinstance(c, dict)]
        stack.extend(inner)
        if isinstance(comp.get("accessory"), dict):
            stack.append(comp["accessory"])
        if comp.get("type") == 1 and sum(c.get("type") == 2 for c in inner) > MAX_ROW_BUTTONS:
            return problem(
                ["components", "components"],
                "BASE_TYPE_BAD_LENGTH",
                "An action row holds at most 5 buttons.",
            )
        cid = comp.get("custom_id")
        if isinstance(cid, str):
            if len(cid) > MAX_CUSTOM_ID:
                return problem(
                    ["components", "custom_id"],
                    "BASE_TYPE_MAX_LENGTH",
                    "Must be 100 or fewer in length.",
                )
            if cid in seen:
                return problem(
                    ["components"],
                    "COMPONENT_CUSTOM_ID_DUPLICATED",
                    f"Component custom id cannot be duplicated: {cid!r}",
                )
            seen.add(cid)
    if v2 and total > MAX_V2_COMPONENTS:
        return problem(
            ["components"], "BASE_TYPE_BAD_LENGTH", "At most 40 components in a message."
        )
    return None


def validate(template: str, method: str, body: Any, inherited_flags: int = 0) -> BodyProblem | None:
    return validate_schema(template, method, body) or check_limits(body, inherited_flags)
