"""The bot's settings: one frozen value built from a mapping (the environment, or a test's dict)."""

from __future__ import annotations

import logging
import re
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final

DISCORD_API_BASE: Final = "https://discord.com/api/v10"
DISCORD_GATEWAY_URL: Final = "wss://gateway.discord.gg"

#: RELAY_KEY's shortest length: secrets.token_urlsafe(32) makes 43 characters (256 bits).
RELAY_KEY_SHORTEST: Final = 32

# Discord tokens are dot-separated base64url parts; anything else is a paste mistake.
_TOKEN = re.compile(r"^[A-Za-z0-9_\-]+(\.[A-Za-z0-9_\-]+){1,2}$")


class SettingsError(Exception):
    """A setting that is missing or malformed; the message says what to set and where."""


@dataclass(frozen=True, slots=True)
class Settings:
    token: str
    database: Path = Path("data/nines.sqlite3")
    #: A PostgreSQL server instead of the SQLite file (postgresql://user:pass@host:port/db).
    database_url: str | None = None
    #: Connections this process keeps to PostgreSQL (None: the driver's POOL_SIZE).
    database_pool_size: int | None = None
    log_level: int = logging.INFO
    dev_guild: int | None = None
    api_base: str = DISCORD_API_BASE
    gateway_url: str = DISCORD_GATEWAY_URL
    sync_commands: str = "auto"  # auto: only when the commands changed; always; never
    computer_workers: int = 1
    #: Seconds to wait for Discord while connecting before giving up and trying again.
    connect_timeout: float = 30.0
    #: Ports of the health check (on 127.0.0.1) and the Prometheus metrics (on every
    #: interface); None: not served.
    health_port: int | None = None
    metrics_port: int | None = None
    #: Gateway shards of the whole bot (None: one process, unsharded, as a small bot runs)
    #: and the ones this process owns (None: all of them).
    shard_count: int | None = None
    shard_ids: tuple[int, ...] | None = None
    #: Upload the card faces as application emojis at start (bot/chat/emojis.py); off: cards as
    #: text, no emoji requests.
    card_emojis: bool = True
    #: The Activity (the web table, bot/activity/): the port its HTTP server listens on (every
    #: interface; Discord's proxy reaches it through the public HTTPS address the Developer
    #: Portal's URL mapping names). None: off, and none of what follows is used.
    activity_port: int | None = None
    #: The application's OAuth2 client id (None: the bot's application id, which it is for
    #: every bot made in the Developer Portal) and secret, with which the server exchanges the
    #: Activity's authorization code for an access token.
    client_id: int | None = None
    client_secret: str | None = None
    #: The key every process shares to encrypt and authenticate the web table's messages
    #: between processes on PostgreSQL (bot/activity/relay.py). None: not relayed.
    relay_key: str | None = None
    #: Sign-ins (``POST /api/token`` and socket hellos) one address may make: a burst, then so
    #: many a minute (answered 429 with Retry-After past it). People reach the table through
    #: Discord's proxy, which hides their addresses, so many share one: generous.
    activity_address_burst: int = 60
    activity_address_per_minute: int = 60
    #: Reverse proxies in front of ACTIVITY_PORT that append the caller to X-Forwarded-For
    #: (0: the address is the connection's own).
    activity_trusted_proxies: int = 0
    #: The Activity's calls to Discord in all (cache misses): a burst, then so many a minute
    #: (bot/activity/discord_api.py says what a flood costs Discord at most with these).
    activity_discord_burst: int = 50
    activity_discord_per_minute: int = 300
    #: Discord's refusals (401, 403, 429) in 10 minutes at which the Activity stops asking:
    #: Discord bans the IP (bot included) at 10,000.
    activity_invalid_limit: int = 1_000
    #: Seconds between re-checks of an open table's token and place in its instance.
    activity_recheck_seconds: int = 300
    #: The address the Activity's server listens on (every interface by default).
    activity_host: str = "0.0.0.0"
    #: Sockets the Activity keeps open at most: in all, from one address, of one person (0:
    #: no cap). Behind Discord's proxy the address is the proxy's (bot/activity/limits.py).
    activity_sockets: int = 2000
    activity_sockets_per_address: int = 200
    activity_sockets_per_person: int = 8
    #: The secret the daily deals are derived from, with the date (bot/game/daily.py): every
    #: process must have the same one, and nobody else (whoever knows it computes tomorrow's
    #: deals). None: the daily is not offered, and /nines daily says why.
    daily_secret: str | None = None

    @property
    def activity_on(self) -> bool:
        """Whether the Activity is served: its port and the client secret are both set."""
        return self.activity_port is not None and self.client_secret is not None

    def __repr__(self) -> str:
        # Never print the token, even in a traceback or a debug log.
        return f"Settings(database={self.database!s}, dev_guild={self.dev_guild}, ...)"

    @classmethod
    def from_mapping(cls, env: Mapping[str, str]) -> Settings:
        token = env.get("DISCORD_TOKEN", "").strip()
        if not token:
            raise SettingsError(
                "DISCORD_TOKEN is not set: put your bot token in .env (see .env.example) "
                "or in the environment."
            )
        if not _TOKEN.match(token):
            raise SettingsError(
                "DISCORD_TOKEN does not look like a bot token: copy it again from the "
                "Discord developer portal (Bot > Reset Token) into .env."
            )
        level_name = env.get("LOG_LEVEL", "INFO").strip().upper()
        level = logging.getLevelName(level_name)
        if not isinstance(level, int):
            raise SettingsError(f"LOG_LEVEL={level_name!r} is not a level: use DEBUG, INFO, ...")
        guild_text = env.get("DEV_GUILD_ID", "").strip()
        if guild_text and not guild_text.isdigit():
            raise SettingsError(f"DEV_GUILD_ID={guild_text!r} must be a server id (digits).")
        sync = env.get("SYNC_COMMANDS", "auto").strip().lower()
        if sync not in ("auto", "always", "never"):
            raise SettingsError(f"SYNC_COMMANDS={sync!r} must be auto, always or never.")
        database_url = env.get("DATABASE_URL", "").strip() or None
        if database_url is not None and not database_url.startswith(
            ("postgresql://", "postgres://")
        ):
            raise SettingsError(
                "DATABASE_URL must be a PostgreSQL URL (postgresql://user:pass@host:port/db); "
                "leave it unset for the SQLite file (DATABASE_PATH)."
            )
        pool_text = env.get("DATABASE_POOL_SIZE", "").strip()
        if pool_text and (not pool_text.isdigit() or not 1 <= int(pool_text) <= 500):
            raise SettingsError(
                f"DATABASE_POOL_SIZE={pool_text!r} must be a whole number from 1 to 500."
            )
        workers_text = env.get("COMPUTER_WORKERS", "1").strip()
        if not workers_text.isdigit() or not 0 <= int(workers_text) <= 16:
            raise SettingsError("COMPUTER_WORKERS must be a whole number from 0 to 16.")
        timeout_text = env.get("DISCORD_TIMEOUT", "30").strip()
        try:
            timeout = float(timeout_text)
        except ValueError:
            timeout = 0.0
        if not 1 <= timeout <= 600:
            raise SettingsError(f"DISCORD_TIMEOUT={timeout_text!r} must be seconds, 1 to 600.")
        card_emojis = env.get("CARD_EMOJIS", "on").strip().lower()
        if card_emojis not in ("on", "off"):
            raise SettingsError(f"CARD_EMOJIS={card_emojis!r} must be on or off.")
        activity = _activity(env)
        daily_secret = env.get("DAILY_SECRET", "").strip() or None
        if daily_secret is not None and (
            len(daily_secret) < RELAY_KEY_SHORTEST or " " in daily_secret
        ):
            raise SettingsError(
                f"DAILY_SECRET must be at least {RELAY_KEY_SHORTEST} characters without spaces: "
                "make one with `python -c 'import secrets; print(secrets.token_urlsafe(32))'`, "
                "give every process the same, and never change it (the day's deals would)."
            )
        return cls(
            token=token,
            database=Path(env.get("DATABASE_PATH", "data/nines.sqlite3").strip()),
            database_url=database_url,
            database_pool_size=int(pool_text) if pool_text else None,
            log_level=level,
            dev_guild=int(guild_text) if guild_text else None,
            api_base=env.get("DISCORD_API_BASE", DISCORD_API_BASE).strip().rstrip("/"),
            gateway_url=env.get("DISCORD_GATEWAY_URL", DISCORD_GATEWAY_URL).strip(),
            sync_commands=sync,
            computer_workers=int(workers_text),
            connect_timeout=timeout,
            health_port=_port(env, "HEALTH_PORT"),
            metrics_port=_port(env, "METRICS_PORT"),
            card_emojis=card_emojis == "on",
            daily_secret=daily_secret,
            **_shards(env),
            **activity,
        )


def _shards(env: Mapping[str, str]) -> dict[str, Any]:
    """SHARD_COUNT and SHARD_IDS (e.g. ``0,2``: the shards this process owns)."""
    count_text = env.get("SHARD_COUNT", "").strip()
    ids_text = env.get("SHARD_IDS", "").strip()
    if not count_text:
        if ids_text:
            raise SettingsError("SHARD_IDS needs SHARD_COUNT (how many shards in all).")
        return {}
    if not count_text.isdigit() or not 1 <= int(count_text) <= 4096:
        raise SettingsError(f"SHARD_COUNT={count_text!r} must be a whole number, 1 or more.")
    count = int(count_text)
    if not ids_text:
        return {"shard_count": count}
    parts = [p.strip() for p in ids_text.split(",")]
    if not all(p.isdigit() and int(p) < count for p in parts):
        raise SettingsError(
            f"SHARD_IDS={ids_text!r} must be shard numbers from 0 to {count - 1}, "
            "separated by commas (e.g. 0,2)."
        )
    return {"shard_count": count, "shard_ids": tuple(sorted({int(p) for p in parts}))}


def _activity(env: Mapping[str, str]) -> dict[str, Any]:
    """ACTIVITY_PORT, DISCORD_CLIENT_ID and DISCORD_CLIENT_SECRET: the Activity is on only
    with a port and a secret; a port without the secret is a half-done setup, said at once.
    RELAY_KEY: the relay's key (several processes), long enough not to be guessed."""
    port = _port(env, "ACTIVITY_PORT")
    secret = env.get("DISCORD_CLIENT_SECRET", "").strip() or None
    client_text = env.get("DISCORD_CLIENT_ID", "").strip()
    if client_text and not client_text.isdigit():
        raise SettingsError(
            f"DISCORD_CLIENT_ID={client_text!r} must be the application id (digits), "
            "or unset for the bot's own."
        )
    if port is not None and secret is None:
        raise SettingsError(
            "ACTIVITY_PORT is set but DISCORD_CLIENT_SECRET is not: copy the client secret "
            "from the Developer Portal (OAuth2 > Client Secret) into .env, or unset "
            "ACTIVITY_PORT to run without the Activity."
        )
    relay_key = env.get("RELAY_KEY", "").strip() or None
    if relay_key is not None and (len(relay_key) < RELAY_KEY_SHORTEST or " " in relay_key):
        raise SettingsError(
            f"RELAY_KEY must be at least {RELAY_KEY_SHORTEST} characters without spaces: make "
            "one with `python -c 'import secrets; print(secrets.token_urlsafe(32))'` and give "
            "every process the same."
        )
    host = env.get("ACTIVITY_HOST", "").strip() or "0.0.0.0"
    if any(c.isspace() or c in "/?#" for c in host):
        raise SettingsError(
            f"ACTIVITY_HOST={host!r} must be an address to listen on (e.g. 0.0.0.0 or 127.0.0.1)."
        )
    return {
        "activity_port": port,
        "client_id": int(client_text) if client_text else None,
        "client_secret": secret,
        "relay_key": relay_key,
        "activity_address_burst": _whole(env, "ACTIVITY_ADDRESS_BURST", 60, 1, 100_000),
        "activity_address_per_minute": _whole(env, "ACTIVITY_ADDRESS_PER_MINUTE", 60, 1, 100_000),
        "activity_trusted_proxies": _whole(env, "ACTIVITY_TRUSTED_PROXIES", 0, 0, 10),
        "activity_discord_burst": _whole(env, "ACTIVITY_DISCORD_BURST", 50, 1, 1_000),
        # At most 1,200 a minute: 20 a second, well under the bot's global 50.
        "activity_discord_per_minute": _whole(env, "ACTIVITY_DISCORD_PER_MINUTE", 300, 1, 1_200),
        # Under Discord's 10,000, with room for the bot's own refusals.
        "activity_invalid_limit": _whole(env, "ACTIVITY_INVALID_LIMIT", 1_000, 1, 5_000),
        "activity_recheck_seconds": _whole(env, "ACTIVITY_RECHECK_SECONDS", 300, 1, 86_400),
        "activity_host": host,
        # Caps on open sockets; 0: no cap.
        "activity_sockets": _whole(env, "ACTIVITY_SOCKETS", 2000, 0, 1_000_000),
        "activity_sockets_per_address": _whole(
            env, "ACTIVITY_SOCKETS_PER_ADDRESS", 200, 0, 1_000_000
        ),
        "activity_sockets_per_person": _whole(env, "ACTIVITY_SOCKETS_PER_PERSON", 8, 0, 1_000_000),
    }


def _whole(env: Mapping[str, str], name: str, default: int, low: int, high: int) -> int:
    """A whole-number setting within [low, high], or its default when unset."""
    text = env.get(name, "").strip()
    if not text:
        return default
    if not text.isdigit() or not low <= int(text) <= high:
        raise SettingsError(f"{name}={text!r} must be a whole number from {low:,} to {high:,}.")
    return int(text)


def _port(env: Mapping[str, str], name: str) -> int | None:
    """A TCP port to listen on, or None when the variable is unset or empty."""
    text = env.get(name, "").strip()
    if not text:
        return None
    if not text.isdigit() or not 1 <= int(text) <= 65535:
        raise SettingsError(f"{name}={text!r} must be a port number (1 to 65535), or empty.")
    return int(text)
