"""Turning a message body (JSON or multipart payload_json plus files) into a stored message."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from .errors import invalid_form
from .models import EPHEMERAL, LOADING, Attachment, Message, User
from .store import Store

# Flags a sender may set; Discord ignores others (crossposted, has-thread, ...).
SETTABLE_FLAGS = (1 << 2) | (1 << 6) | (1 << 12) | (1 << 15)


_USER_MENTION = re.compile(r"<@!?(\d+)>")


def _pinged(store: Store, content: str, allowed: dict[str, Any] | None) -> list[User]:
    """Users a message notifies: mentioned in the content and allowed by allowed_mentions
    (absent = everything allowed, as on Discord)."""
    ids = [int(m) for m in _USER_MENTION.findall(content)]
    if allowed is not None:
        listed = {int(u) for u in allowed.get("users") or []}
        if "users" not in (allowed.get("parse") or []):
            ids = [i for i in ids if i in listed]
    seen: dict[int, User] = {}
    for i in ids:
        if i in store.users and i not in seen:
            seen[i] = store.users[i]
    return list(seen.values())


@dataclass(frozen=True)
class Upload:
    """One `files[n]` part of a multipart body."""

    index: int
    filename: str
    content_type: str
    data: bytes


def _uploads_to_attachments(
    store: Store,
    body: dict[str, Any],
    uploads: list[Upload],
    url_base: str,
    channel_id: int,
) -> list[Attachment]:
    described = {str(a.get("id")): a for a in body.get("attachments") or [] if isinstance(a, dict)}
    out = []
    for up in uploads:
        meta = described.get(str(up.index), {})
        att_id = store.snowflake()
        filename = meta.get("filename") or up.filename
        out.append(
            Attachment(
                id=att_id,
                filename=filename,
                content_type=up.content_type,
                data=up.data,
                url=f"{url_base}/attachments/{channel_id}/{att_id}/{filename}",
                description=meta.get("description"),
            )
        )
    return out


def fill_new(
    store: Store, msg: Message, body: dict[str, Any], uploads: list[Upload], url_base: str
) -> Message:
    msg.content = body.get("content") or ""
    msg.mentions = _pinged(store, msg.content, body.get("allowed_mentions"))
    msg.embeds = list(body.get("embeds") or [])
    msg.components = list(body.get("components") or [])
    msg.flags |= int(body.get("flags") or 0) & SETTABLE_FLAGS
    msg.attachments = _uploads_to_attachments(store, body, uploads, url_base, msg.channel_id)
    if isinstance(ref := body.get("message_reference"), dict) and ref.get("message_id"):
        msg.message_reference = {
            "type": 0,
            "message_id": str(ref["message_id"]),
            "channel_id": str(ref.get("channel_id") or msg.channel_id),
        }
        msg.type = 19
    if msg.flags & EPHEMERAL and msg.ephemeral_for is None:
        raise invalid_form("flags", "BASE_TYPE_INVALID", "Ephemeral needs an interaction")
    msg.history.append((msg.content, list(msg.embeds)))
    return msg


def apply_edit(
    store: Store, msg: Message, body: dict[str, Any], uploads: list[Upload], url_base: str
) -> Message:
    """PATCH semantics: fields present replace, absent stay; `attachments` lists who stays."""
    if "content" in body:
        msg.content = body["content"] or ""
        # An edit notifies nobody new, but the mention list follows the content.
        kept = {u.id for u in msg.mentions}
        now = _pinged(store, msg.content, body.get("allowed_mentions"))
        msg.mentions = [u for u in now if u.id in kept]
    if "embeds" in body:
        msg.embeds = list(body["embeds"] or [])
    if "components" in body:
        msg.components = list(body["components"] or [])
    if "flags" in body and body["flags"] is not None:
        keep = msg.flags & (EPHEMERAL | (1 << 15))
        msg.flags = keep | (int(body["flags"]) & SETTABLE_FLAGS & ~EPHEMERAL)
    if "attachments" in body and body["attachments"] is not None:
        kept_ids = {str(a.get("id")) for a in body["attachments"] if isinstance(a, dict)}
        msg.attachments = [a for a in msg.attachments if str(a.id) in kept_ids]
    msg.attachments += _uploads_to_attachments(store, body, uploads, url_base, msg.channel_id)
    msg.flags &= ~LOADING
    msg.edited_timestamp = store.iso_now()
    msg.history.append((msg.content, list(msg.embeds)))
    return msg
