"""bot/base/settings.py: every variable read from the environment, and every refusal in one line."""

from __future__ import annotations

import logging
from pathlib import Path

import pytest

from bot.base import DISCORD_API_BASE, DISCORD_GATEWAY_URL, Settings, SettingsError

TOKEN = "MTIzNDU2Nzg5MDEyMzQ1Njc4.GaBcDe.abcdefghijklmnopqrstuvwxyz0123456789AB"


def settings(**env: str) -> Settings:
    return Settings.from_mapping({"DISCORD_TOKEN": TOKEN, **env})


def refusal(**env: str) -> str:
    with pytest.raises(SettingsError) as caught:
        Settings.from_mapping(env)
    message = str(caught.value)
    assert "\n" not in message, "a refusal is one line"
    return message


def test_defaults_with_only_a_token():
    s = settings()
    assert s.token == TOKEN
    assert s.database == Path("data/nines.sqlite3")
    assert s.log_level == logging.INFO
    assert s.dev_guild is None
    assert s.api_base == DISCORD_API_BASE
    assert s.gateway_url == DISCORD_GATEWAY_URL
    assert s.sync_commands == "auto"
    assert s.computer_workers == 1


def test_every_variable_is_read():
    s = settings(
        DATABASE_PATH=" /var/lib/nines/nines.db ",
        LOG_LEVEL="debug",
        DEV_GUILD_ID="123456789012345678",
        DISCORD_API_BASE="http://127.0.0.1:9999/api/v10/",
        DISCORD_GATEWAY_URL="ws://127.0.0.1:9999/gateway",
        SYNC_COMMANDS="Always",
        COMPUTER_WORKERS="0",
    )
    assert s.database == Path("/var/lib/nines/nines.db")
    assert s.log_level == logging.DEBUG
    assert s.dev_guild == 123456789012345678
    assert s.api_base == "http://127.0.0.1:9999/api/v10"  # trailing slash dropped
    assert s.gateway_url == "ws://127.0.0.1:9999/gateway"
    assert s.sync_commands == "always"
    assert s.computer_workers == 0


@pytest.mark.parametrize("level", ["DEBUG", "INFO", "WARNING", "ERROR", "critical"])
def test_log_levels(level: str):
    assert settings(LOG_LEVEL=level).log_level == getattr(logging, level.upper())


@pytest.mark.parametrize("mode", ["auto", "always", "never"])
def test_sync_modes(mode: str):
    assert settings(SYNC_COMMANDS=mode).sync_commands == mode


def test_token_surrounding_whitespace_is_ignored():
    assert settings(DISCORD_TOKEN=f"  {TOKEN}\n").token == TOKEN


def test_empty_optional_values_mean_the_default():
    assert settings(DEV_GUILD_ID="").dev_guild is None


@pytest.mark.parametrize("env", [{}, {"DISCORD_TOKEN": ""}, {"DISCORD_TOKEN": "   "}])
def test_missing_token(env: dict[str, str]):
    message = refusal(**env)
    assert "DISCORD_TOKEN is not set" in message and ".env" in message


@pytest.mark.parametrize(
    "token", ["not a token", "abc", "Bot " + TOKEN, '"' + TOKEN + '"', "a.b.c.d", "tok€n.x"]
)
def test_malformed_token(token: str):
    message = refusal(DISCORD_TOKEN=token)
    assert "DISCORD_TOKEN does not look like a bot token" in message
    assert token not in message, "the refusal never echoes the token"


@pytest.mark.parametrize(
    ("env", "words"),
    [
        ({"LOG_LEVEL": "LOUD"}, "LOG_LEVEL='LOUD' is not a level"),
        ({"DEV_GUILD_ID": "my-server"}, "DEV_GUILD_ID='my-server' must be a server id"),
        ({"DEV_GUILD_ID": "-5"}, "DEV_GUILD_ID='-5' must be a server id"),
        ({"SYNC_COMMANDS": "sometimes"}, "SYNC_COMMANDS='sometimes' must be auto, always or never"),
        ({"COMPUTER_WORKERS": "many"}, "COMPUTER_WORKERS must be a whole number from 0 to 16"),
        ({"COMPUTER_WORKERS": "17"}, "COMPUTER_WORKERS must be a whole number from 0 to 16"),
        ({"COMPUTER_WORKERS": "-1"}, "COMPUTER_WORKERS must be a whole number from 0 to 16"),
        ({"DATABASE_POOL_SIZE": "0"}, "DATABASE_POOL_SIZE='0' must be a whole number from 1"),
        ({"DATABASE_POOL_SIZE": "lots"}, "DATABASE_POOL_SIZE='lots' must be a whole number"),
        ({"CARD_EMOJIS": "maybe"}, "CARD_EMOJIS='maybe' must be on or off"),
    ],
)
def test_malformed_values(env: dict[str, str], words: str):
    assert words in refusal(DISCORD_TOKEN=TOKEN, **env)


def test_repr_never_shows_the_token():
    s = settings()
    assert TOKEN not in repr(s) and TOKEN not in str(s)


def test_database_url_selects_postgresql():
    assert settings().database_url is None
    url = "postgresql://nines:secret@db:5432/nines"
    s = settings(DATABASE_URL=f" {url} ")
    assert s.database_url == url
    assert "secret" not in repr(s)
    message = refusal(DISCORD_TOKEN=TOKEN, DATABASE_URL="mysql://nines@db/nines")
    assert "DATABASE_URL" in message and "DATABASE_PATH" in message


def test_database_pool_size():
    assert settings().database_pool_size is None  # the driver's default
    assert settings(DATABASE_POOL_SIZE=" 8 ").database_pool_size == 8
    assert settings().card_emojis and not settings(CARD_EMOJIS=" OFF ").card_emojis


def test_the_relay_key_is_read_and_a_short_one_refused() -> None:
    key = "k7W1vQ3y9Zp2RrC8tHnXa4LmE6sJdB0uGfKcYoTiV5w"
    assert settings(RELAY_KEY=f" {key} ").relay_key == key
    assert settings().relay_key is None
    words = refusal(DISCORD_TOKEN=TOKEN, RELAY_KEY="hunter2")
    assert "RELAY_KEY" in words and "secrets.token_urlsafe(32)" in words


def test_the_daily_secret_is_read_and_a_short_one_refused() -> None:
    secret = "s7W1vQ3y9Zp2RrC8tHnXa4LmE6sJdB0uGfKcYoTiV5w"
    assert settings(DAILY_SECRET=f" {secret} ").daily_secret == secret
    assert settings().daily_secret is None  # no daily offered
    words = refusal(DISCORD_TOKEN=TOKEN, DAILY_SECRET="tomorrow")
    assert "DAILY_SECRET" in words and "every process the same" in words
