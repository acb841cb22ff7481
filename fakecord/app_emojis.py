"""The application's own emojis (Discord's docs, Emoji > List/Get/Create/Modify/Delete
Application Emoji; https://discord.com/developers/docs/resources/emoji).

- List answers ``{"items": [...]}``; an emoji object has ``id``, ``name``, ``roles`` (empty),
  ``user`` (the bot, "if uploaded using the API"), ``require_colons``, ``managed``,
  ``animated``, ``available``, as the spec's EmojiResponse requires.
- Create takes ``name`` and ``image``, image data (a data URI: ``data:image/png;base64,...``,
  Discord's docs, Reference > Image Data). The spec checks the name's length (2 to 32); the
  double also checks what Discord refuses beyond it, each a 400 with Discord's error shape:
  a name of other than letters, digits and ``_`` (50035 ``name``), one the application already
  has (50035 ``APPLICATION_EMOJI_NAME_ALREADY_TAKEN``, the code bots see: e.g. discord.js and
  JDA bots test for it), an image that is not image data (50035 ``image``), over 256 KiB
  (50035 ``BINARY_TYPE_MAX_SIZE``), and a 2,001st emoji (30008 "Maximum number of emojis
  reached").
- ``fake.app_emojis.refuse_uploads = code`` makes every create answer that Discord error
  (e.g. 50013 Missing Permissions, 30008): the bot's fallback is tested with it.
- A message whose component (a button, a select option) shows a custom emoji the application
  does not have (never uploaded, or deleted) is refused whole, as Discord refuses it: 50035
  ``BUTTON_COMPONENT_INVALID_EMOJI`` "Invalid emoji" at the emoji's id (the error bots report,
  e.g. ``components.0.components.1.emoji.id``). The double has no server emojis, so every
  custom emoji must be one of the application's.
"""

from __future__ import annotations

import base64
import binascii
import re
from collections.abc import Container
from dataclasses import dataclass, field
from typing import Any, Final

from .errors import DiscordError, invalid_form
from .models import User
from .rest import NO_CONTENT, Call, RestApi, Result, route
from .spec import BodyProblem, _message_parts, _nest

#: Emojis an application may own ("An application can own up to 2000 emojis").
MAX_EMOJIS: Final = 2000
#: "Emojis and animated emojis have a maximum file size of 256 KiB".
MAX_BYTES: Final = 256 * 1024
NAME: Final = re.compile(r"^[A-Za-z0-9_]{2,32}$")
IMAGE_DATA: Final = re.compile(r"^data:image/(png|jpeg|gif|webp|avif);base64,(.*)$", re.DOTALL)


@dataclass
class AppEmoji:
    id: int
    name: str
    image: bytes  # the decoded upload (what the CDN would serve)
    content_type: str
    user: User

    def to_json(self) -> dict[str, Any]:
        return {
            "id": str(self.id),
            "name": self.name,
            "roles": [],
            "user": self.user.to_json(),
            "require_colons": True,
            "managed": False,
            "animated": self.content_type == "image/gif",
            "available": True,
        }


@dataclass
class AppEmojis:
    """The application's emojis, by id, in creation order."""

    items: dict[int, AppEmoji] = field(default_factory=dict)
    #: A Discord error code every create answers (None: creates succeed).
    refuse_uploads: int | None = None
    created: int = 0  # creates that succeeded
    deleted: int = 0

    def named(self, name: str) -> AppEmoji | None:
        return next((e for e in self.items.values() if e.name == name), None)

    def get(self, emoji_id: int) -> AppEmoji:
        found = self.items.get(emoji_id)
        if found is None:
            raise DiscordError(10014)
        return found


def _emojis(api: RestApi, call: Call) -> AppEmojis:
    api.app(call)
    emojis: AppEmojis = api.fake.app_emojis
    return emojis


def _check_name(emojis: AppEmojis, name: str, *, other_than: int | None = None) -> None:
    if not NAME.match(name):
        raise invalid_form(
            "name",
            "BASE_TYPE_BAD_LENGTH" if not 2 <= len(name) <= 32 else "INVALID_NAME",
            "Must be between 2 and 32 in length, letters, digits and underscores only.",
        )
    taken = emojis.named(name)
    if taken is not None and taken.id != other_than:
        raise invalid_form(
            "name",
            "APPLICATION_EMOJI_NAME_ALREADY_TAKEN",
            "Application emoji with this name already exists.",
        )


@route("GET", "/applications/{application_id}/emojis")
async def list_emojis(api: RestApi, call: Call) -> Result:
    return 200, {"items": [e.to_json() for e in _emojis(api, call).items.values()]}


@route("GET", "/applications/{application_id}/emojis/{emoji_id}")
async def get_emoji(api: RestApi, call: Call) -> Result:
    return 200, _emojis(api, call).get(call.int_param("emoji_id")).to_json()


@route("POST", "/applications/{application_id}/emojis")
async def create_emoji(api: RestApi, call: Call) -> Result:
    emojis = _emojis(api, call)
    if emojis.refuse_uploads is not None:
        raise DiscordError(emojis.refuse_uploads, detail="uploads refused by the test")
    name, image = str(call.body["name"]), str(call.body["image"])
    _check_name(emojis, name)
    matched = IMAGE_DATA.match(image)
    try:
        data = base64.b64decode(matched.group(2), validate=True) if matched else b""
    except binascii.Error:
        data = b""
    if matched is None or not data:
        raise invalid_form("image", "IMAGE_INVALID", "Invalid image data")
    if len(data) > MAX_BYTES:
        raise invalid_form("image", "BINARY_TYPE_MAX_SIZE", "File cannot be larger than 256.0 kb.")
    if len(emojis.items) >= MAX_EMOJIS:
        raise DiscordError(30008)
    emoji = AppEmoji(api.store.snowflake(), name, data, f"image/{matched.group(1)}", api.fake.bot)
    emojis.items[emoji.id] = emoji
    emojis.created += 1
    return 201, emoji.to_json()


@route("PATCH", "/applications/{application_id}/emojis/{emoji_id}")
async def rename_emoji(api: RestApi, call: Call) -> Result:
    emojis = _emojis(api, call)
    emoji = emojis.get(call.int_param("emoji_id"))
    if "name" in call.body:
        _check_name(emojis, str(call.body["name"]), other_than=emoji.id)
        emoji.name = str(call.body["name"])
    return 200, emoji.to_json()


@route("DELETE", "/applications/{application_id}/emojis/{emoji_id}")
async def delete_emoji(api: RestApi, call: Call) -> Result:
    emojis = _emojis(api, call)
    del emojis.items[emojis.get(call.int_param("emoji_id")).id]
    emojis.deleted += 1
    return NO_CONTENT


def unknown_emoji(body: Any, known: Container[int]) -> BodyProblem | None:
    """The first component emoji of a message body that is not one of ``known`` (the
    application's emoji ids), as Discord's 50035 at that emoji's id."""
    if not isinstance(body, dict):
        return None
    message = _message_parts(body)
    if message is None:
        return None
    stack: list[tuple[list[Any], Any]] = [
        (["components", i], c) for i, c in enumerate(message.get("components") or [])
    ]
    while stack:
        path, comp = stack.pop()
        if not isinstance(comp, dict):
            continue
        emoji = comp.get("emoji")
        if isinstance(emoji, dict) and emoji.get("id") is not None:
            emoji_id = str(emoji["id"])
            if not emoji_id.isdigit() or int(emoji_id) not in known:
                where = [*path, "emoji", "id"]
                leaf = {"code": "BUTTON_COMPONENT_INVALID_EMOJI", "message": "Invalid emoji"}
                return BodyProblem(".".join(map(str, where)), "Invalid emoji", _nest(where, leaf))
        for key in ("components", "options"):
            for i, inner in enumerate(comp.get(key) or []):
                stack.append(([*path, key, i], inner))
        if isinstance(comp.get("accessory"), dict):
            stack.append(([*path, "accessory"], comp["accessory"]))
    return None
