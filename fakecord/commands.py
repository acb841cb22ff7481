"""Application commands the bot has synced, and turning "nines start mode=x" into `data`."""

from __future__ import annotations

import unicodedata
from typing import Any

from .errors import DiscordError, UsageRefused, invalid_form
from .models import Channel, Guild, Role, User

SUB_COMMAND, SUB_COMMAND_GROUP = 1, 2
PRIMARY_ENTRY_POINT = 4  # an Activity's launcher command
STRING, INTEGER, BOOLEAN, USER, CHANNEL, ROLE, MENTIONABLE, NUMBER = 3, 4, 5, 6, 7, 8, 9, 10


#: Discord API docs, Interactions > Application Commands > Application Command Naming:
#: CHAT_INPUT command and option names match ``^[-_'\p{L}\p{N}\p{sc=Deva}\p{sc=Thai}]{1,32}$``
#: (unicode flag), and "if there is a lowercase variant of any letters used, you must use
#: those"; localised names follow the same rules. Python's ``re`` has no ``\p{...}``: the
#: character classes are read from unicodedata, the two scripts from their blocks.
NAME_PUNCTUATION = "-_'"
DEVANAGARI, THAI = ("\u0900", "\u097f"), ("\u0e00", "\u0e7f")


def _name_character(c: str) -> bool:
    return (
        c in NAME_PUNCTUATION
        or unicodedata.category(c)[0] in "LN"
        or any(low <= c <= high for low, high in (DEVANAGARI, THAI))
    )


def chat_input_name_ok(name: str) -> bool:
    """Whether Discord accepts ``name`` for a CHAT_INPUT command or an option: "règles" yes,
    "Règles", "two words" and "arrêter!" no.

    >>> [chat_input_name_ok(n) for n in ("règles", "victoire_immédiate", "Règles", "a b", "")]
    [True, True, False, False, False]
    """
    return (
        1 <= len(name) <= 32
        and all(_name_character(c) for c in name)
        and all(c.lower() == c for c in name)
    )


def _check_names(body: dict[str, Any], where: str) -> None:
    """Refuses, as Discord does (50035), a CHAT_INPUT name or option name, or one of their
    localisations, that breaks the naming rule."""
    names = {"name": body.get("name", "")}
    names |= {
        f"name_localizations.{locale}": text
        for locale, text in (body.get("name_localizations") or {}).items()
    }
    for field, text in names.items():
        if not chat_input_name_ok(str(text)):
            raise invalid_form(
                f"{where}{field}", "APPLICATION_COMMAND_INVALID_NAME", "Command name is invalid"
            )
    for k, option in enumerate(body.get("options") or []):
        _check_names(option, f"{where}options.{k}.")


def check_command(body: dict[str, Any], where: str = "") -> None:
    if body.get("type", 1) == 1:  # user and message commands may have capitals and spaces
        _check_names(body, where)


class CommandRegistry:
    def __init__(self) -> None:
        self.global_commands: dict[str, dict[str, Any]] = {}
        self.guild_commands: dict[int, dict[str, dict[str, Any]]] = {}

    def scope(self, guild_id: int | None) -> dict[str, dict[str, Any]]:
        if guild_id is None:
            return self.global_commands
        return self.guild_commands.setdefault(guild_id, {})

    def put_all(
        self, app_id: int, guild_id: int | None, bodies: list[dict[str, Any]], new_id: Any
    ) -> list[dict[str, Any]]:
        """Bulk overwrite: same name keeps its id, as on Discord."""
        for k, body in enumerate(bodies):
            check_command(body, f"{k}.")
        old = self.scope(guild_id)
        # Once Activities are on, Discord keeps the app's Entry Point command (type 4) and
        # refuses a bulk overwrite that would drop it (50240; serenity-rs/serenity#2993).
        kept = {b["name"] for b in bodies if b.get("type") == PRIMARY_ENTRY_POINT}
        if any(
            c.get("type") == PRIMARY_ENTRY_POINT and c["name"] not in kept for c in old.values()
        ):
            raise DiscordError(50240)
        fresh = {
            b["name"]: self._stored(app_id, guild_id, b, old.get(b["name"]), new_id) for b in bodies
        }
        old.clear()
        old.update(fresh)
        return list(fresh.values())

    def upsert(
        self, app_id: int, guild_id: int | None, body: dict[str, Any], new_id: Any
    ) -> dict[str, Any]:
        check_command(body)
        scope = self.scope(guild_id)
        cmd = self._stored(app_id, guild_id, body, scope.get(body["name"]), new_id)
        scope[body["name"]] = cmd
        return cmd

    @staticmethod
    def _stored(
        app_id: int,
        guild_id: int | None,
        body: dict[str, Any],
        previous: dict[str, Any] | None,
        new_id: Any,
    ) -> dict[str, Any]:
        cmd_id = previous["id"] if previous else str(new_id())
        out = {
            "type": 1,
            "description": "",
            "options": [],
            "default_member_permissions": None,
            "nsfw": False,
            **body,
            "id": cmd_id,
            "application_id": str(app_id),
            "version": str(new_id()),
        }
        if guild_id is not None:
            out["guild_id"] = str(guild_id)
        return out

    def find(self, guild_id: int, name: str) -> dict[str, Any] | None:
        for scope in (self.guild_commands.get(guild_id, {}), self.global_commands):
            cmd = scope.get(name)
            if cmd is not None and cmd.get("type", 1) == 1:
                return cmd
        return None


def build_command_data(
    cmd: dict[str, Any],
    path: list[str],
    options: dict[str, Any],
    guild: Guild,
    *,
    focused: str | None = None,
) -> dict[str, Any]:
    """The `data` of an APPLICATION_COMMAND interaction, as a Discord client builds it; with
    `focused`, of an APPLICATION_COMMAND_AUTOCOMPLETE one (half-typed, nothing required)."""
    resolved: dict[str, dict[str, Any]] = {}
    level: list[dict[str, Any]] = cmd.get("options") or []
    chain: list[dict[str, Any]] = []
    for word in path:
        sub = next(
            (
                o
                for o in level
                if o["name"] == word and o["type"] in (SUB_COMMAND, SUB_COMMAND_GROUP)
            ),
            None,
        )
        if sub is None:
            raise UsageRefused(f"/{cmd['name']} has no subcommand {word!r}")
        chain.append({"type": sub["type"], "name": sub["name"], "options": []})
        level = sub.get("options") or []
    if any(o["type"] in (SUB_COMMAND, SUB_COMMAND_GROUP) for o in level):
        raise UsageRefused(f"/{cmd['name']} {' '.join(path)} needs a subcommand")

    if focused is not None:
        values = _typed_so_far(level, options, focused)
    else:
        values = [_option_value(spec, options, guild, resolved) for spec in level]
    unknown = set(options) - {o["name"] for o in level}
    if unknown:
        raise UsageRefused(f"unknown options {sorted(unknown)}")
    leaf = [v for v in values if v is not None]
    if chain:
        chain[-1]["options"] = leaf
        for outer, inner in zip(reversed(chain[:-1]), reversed(chain[1:]), strict=True):
            outer["options"] = [inner]
        leaf = [chain[0]]
    data: dict[str, Any] = {
        "id": cmd["id"],
        "name": cmd["name"],
        "type": 1,
        "options": leaf,
    }
    if "guild_id" in cmd:
        data["guild_id"] = cmd["guild_id"]
    if resolved:
        data["resolved"] = resolved
    return data


def _typed_so_far(
    level: list[dict[str, Any]], options: dict[str, Any], focused: str
) -> list[dict[str, Any] | None]:
    """Autocomplete sends what the person has typed, as text, and marks the focused option."""
    spec = next((o for o in level if o["name"] == focused), None)
    if spec is None or not spec.get("autocomplete"):
        raise UsageRefused(f"option {focused!r} has no autocomplete")
    out: list[dict[str, Any] | None] = []
    for o in level:
        if o["name"] in options or o["name"] == focused:
            typed = options.get(o["name"], "")
            value = typed if o["type"] == STRING else str(typed)
            item = {"name": o["name"], "type": o["type"], "value": value}
            if o["name"] == focused:
                item["focused"] = True
            out.append(item)
    return out


def _option_value(
    spec: dict[str, Any], given: dict[str, Any], guild: Guild, resolved: dict[str, Any]
) -> dict[str, Any] | None:
    name, kind = spec["name"], spec["type"]
    if name not in given or given[name] is None:
        if spec.get("required"):
            raise UsageRefused(f"option {name!r} is required")
        return None
    raw = given[name]
    value: Any
    if kind == STRING:
        value = str(raw)
        choices = spec.get("choices")
        if choices:
            by_name = {c["name"]: c["value"] for c in choices}
            values = {c["value"] for c in choices}
            if value not in values:
                if value not in by_name:
                    raise UsageRefused(f"{value!r} is not a choice of {name!r}")
                value = by_name[value]
        if len(value) < spec.get("min_length", 0) or len(value) > spec.get("max_length", 6000):
            raise UsageRefused(f"{name!r} has the wrong length")
    elif kind in (INTEGER, NUMBER):
        if isinstance(raw, bool) or not isinstance(raw, int | float):
            raise UsageRefused(f"{name!r} must be a number")
        if kind == INTEGER and not float(raw).is_integer():
            raise UsageRefused(f"{name!r} must be an integer")
        value = int(raw) if kind == INTEGER else float(raw)
        if "min_value" in spec and value < spec["min_value"]:
            raise UsageRefused(f"{name!r} is below {spec['min_value']}")
        if "max_value" in spec and value > spec["max_value"]:
            raise UsageRefused(f"{name!r} is above {spec['max_value']}")
        choices = spec.get("choices")
        if choices and value not in {c["value"] for c in choices}:
            raise UsageRefused(f"{value!r} is not a choice of {name!r}")
    elif kind == BOOLEAN:
        if not isinstance(raw, bool):
            raise UsageRefused(f"{name!r} must be True or False")
        value = raw
    elif kind in (USER, MENTIONABLE) and isinstance(raw, User):
        value = str(raw.id)
        resolved.setdefault("users", {})[value] = raw.to_json()
        member = guild.members.get(raw.id)
        if member is not None:
            resolved.setdefault("members", {})[value] = {
                **member.to_json(with_user=False),
                "permissions": "0",
            }
    elif kind in (ROLE, MENTIONABLE) and isinstance(raw, Role):
        value = str(raw.id)
        resolved.setdefault("roles", {})[value] = raw.to_json()
    elif kind == CHANNEL and isinstance(raw, Channel):
        value = str(raw.id)
        resolved.setdefault("channels", {})[value] = {
            "id": value,
            "name": raw.name,
            "type": raw.type,
            "permissions": "0",
            "parent_id": str(raw.parent_id) if raw.parent_id else None,
        }
    else:
        raise UsageRefused(f"{name!r} (type {kind}) cannot take {raw!r}")
    return {"name": name, "type": kind, "value": value}
