"""Starting the bot: a bad token ends at once in one line; commands sync only when they changed;
the gateway intents are guilds only."""

from __future__ import annotations

import os
import re
import socket
import subprocess
import sys
from pathlib import Path

import discord
import pytest

from bot.app import INTENTS, NinesBot
from bot.process.run import build_bot
from fakecord import FakeDiscord
from fakecord.wiring import run_client, stop_client
from testbed.settings import bot_settings

from .conftest import StartBot


def run_bot(cwd: Path, **env: str) -> subprocess.CompletedProcess[str]:
    """`python -m bot` in a clean environment (no inherited DISCORD_*), in `cwd`."""
    clean = {"PATH": os.environ.get("PATH", ""), "HOME": str(cwd), "LANG": "C.UTF-8", **env}
    return subprocess.run(
        [sys.executable, "-m", "bot"],
        cwd=cwd,
        env=clean,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )


def assert_one_clear_line(done: subprocess.CompletedProcess[str], *words: str) -> None:
    assert done.returncode == 2, (done.returncode, done.stderr)
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1, done.stderr
    assert "Traceback" not in done.stderr
    assert done.stdout == ""
    for word in words:
        assert word in lines[0], lines[0]


@pytest.mark.parametrize("token", [None, "", "   "])
def test_missing_token_ends_at_once_in_one_line(tmp_path: Path, token: str | None):
    env = {} if token is None else {"DISCORD_TOKEN": token}
    done = run_bot(tmp_path, **env)
    assert_one_clear_line(done, "DISCORD_TOKEN is not set", ".env")


def test_malformed_token_ends_at_once_in_one_line(tmp_path: Path):
    done = run_bot(tmp_path, DISCORD_TOKEN="paste the token here")
    assert_one_clear_line(done, "DISCORD_TOKEN does not look like a bot token", ".env")


def test_the_token_is_read_from_dotenv_in_the_working_directory(tmp_path: Path):
    (tmp_path / ".env").write_text("DISCORD_TOKEN=oops not a token\n")
    done = run_bot(tmp_path)
    assert_one_clear_line(done, "DISCORD_TOKEN does not look like a bot token")


def test_other_malformed_settings_also_end_in_one_line(tmp_path: Path):
    token = "MTIzNDU2Nzg5MDEyMzQ1Njc4.GaBcDe.abcdefghijklmnopqrstuvwxyz0123456789AB"
    done = run_bot(tmp_path, DISCORD_TOKEN=token, SYNC_COMMANDS="sometimes")
    assert_one_clear_line(done, "SYNC_COMMANDS")
    assert not (tmp_path / "data").exists(), "nothing is created before the settings are valid"


async def test_intents_are_guilds_only(fake_discord: FakeDiscord, start_bot: StartBot):
    bot = await start_bot()
    assert bot.intents.value == discord.Intents(guilds=True).value == INTENTS.value
    assert not bot.intents.message_content and not bot.intents.members
    assert fake_discord.gateway.intents == discord.Intents(guilds=True).value


def command_puts(fake: FakeDiscord) -> list[str]:
    return [r.route for r in fake.requests if r.method == "PUT" and r.route.endswith("/commands")]


async def start_and_stop(fake: FakeDiscord, database: Path, **env: str) -> NinesBot:
    bot = await build_bot(bot_settings(fake, database, **env))
    bot._connection.guild_ready_timeout = 0.05  # the double sends its guilds at once
    task = await run_client(bot, fake)
    await fake.settle()
    await stop_client(bot, task)
    return bot


async def test_commands_sync_only_when_they_changed(fake_discord: FakeDiscord, database: Path):
    fake = fake_discord
    await start_and_stop(fake, database)
    assert command_puts(fake) == ["/applications/{application_id}/commands"]
    assert fake.commands.find(fake.guild.id, "nines") is not None
    # Same commands, same database: a restart does not sync again.
    await start_and_stop(fake, database)
    assert len(command_puts(fake)) == 1
    # SYNC_COMMANDS=always syncs anyway; never does not even on a fresh database.
    await start_and_stop(fake, database, SYNC_COMMANDS="always")
    assert len(command_puts(fake)) == 2
    await start_and_stop(fake, database.with_name("fresh.sqlite3"), SYNC_COMMANDS="never")
    assert len(command_puts(fake)) == 2


async def test_commands_sync_again_when_they_changed(fake_discord: FakeDiscord, database: Path):
    fake = fake_discord
    await start_and_stop(fake, database)
    bot = await build_bot(bot_settings(fake, database))
    await bot.storage.set_meta("commands:global", "an older digest")
    await bot.close()
    await start_and_stop(fake, database)
    assert len(command_puts(fake)) == 2


async def test_dev_guild_commands_sync_to_that_guild(fake_discord: FakeDiscord, database: Path):
    fake = fake_discord
    await start_and_stop(fake, database, DEV_GUILD_ID=str(fake.guild.id))
    assert command_puts(fake) == ["/applications/{application_id}/guilds/{guild_id}/commands"]
    await start_and_stop(fake, database, DEV_GUILD_ID=str(fake.guild.id))
    assert len(command_puts(fake)) == 1


@pytest.mark.parametrize(
    ("name", "value"),
    [
        ("DISCORD_TIMEOUT", "soon"),
        ("DISCORD_TIMEOUT", "0"),
        ("HEALTH_PORT", "http"),
        ("METRICS_PORT", "70000"),
    ],
)
def test_malformed_timeout_and_ports_end_in_one_line(tmp_path: Path, name: str, value: str):
    token = "MTIzNDU2Nzg5MDEyMzQ1Njc4.GaBcDe.abcdefghijklmnopqrstuvwxyz0123456789AB"
    done = run_bot(tmp_path, DISCORD_TOKEN=token, **{name: value})
    assert_one_clear_line(done, name)


def readme_run_command() -> str:
    text = (Path(__file__).resolve().parents[2] / "README.md").read_text()
    blocks = re.findall(r"```sh\n(.*?)\n```", text, flags=re.S)
    return str(blocks[0])


@pytest.mark.parametrize("shell", ["sh", "bash"])
def test_the_readme_creates_env_once_and_goes_on_when_it_exists(tmp_path: Path, shell: str):
    """The README's run command, its .env step: whatever cp does with -n (GNU coreutils 9.4
    exits 1 when the file exists), the command must go on to start the bot."""
    (step,) = [part for part in readme_run_command().split(" && ") if ".env.example" in part]
    (tmp_path / ".env.example").write_text("DISCORD_TOKEN=\n")
    for _ in range(2):
        done = subprocess.run(
            [shell, "-c", f"{step} && echo started"],
            cwd=tmp_path,
            capture_output=True,
            text=True,
            check=False,
        )
        assert (done.returncode, done.stdout, done.stderr) == (0, "started\n", "")
        (tmp_path / ".env").write_text("DISCORD_TOKEN=mine\n")
    assert (tmp_path / ".env").read_text() == "DISCORD_TOKEN=mine\n"  # never overwritten


def test_a_port_in_use_ends_in_one_line(tmp_path: Path):
    token = "MTIzNDU2Nzg5MDEyMzQ1Njc4.GaBcDe.abcdefghijklmnopqrstuvwxyz0123456789AB"
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = str(taken.getsockname()[1])
        done = run_bot(tmp_path, DISCORD_TOKEN=token, HEALTH_PORT=port, LOG_LEVEL="WARNING")
    assert_one_clear_line(done, f"127.0.0.1:{port}", "HEALTH_PORT", "in use")
