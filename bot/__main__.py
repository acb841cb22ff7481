"""``python -m bot`` (or ``nines-bot``): read the settings, set up logging, run the bot until
SIGTERM or SIGINT. What retrying cannot mend ends it with one line and exit status 2."""

from __future__ import annotations

import asyncio
import os
import sys
from typing import NoReturn

import discord
from dotenv import find_dotenv, load_dotenv

from .base import Settings, SettingsError
from .process.health import EndpointError
from .process.logs import setup_logging
from .process.run import run


def main() -> None:
    # .env in the working directory (or above it), not beside the installed package.
    load_dotenv(find_dotenv(usecwd=True))
    try:
        settings = Settings.from_mapping(os.environ)
    except SettingsError as error:
        print(f"nines-bot: {error}", file=sys.stderr)
        raise SystemExit(2) from None
    setup_logging(settings.log_level)
    try:
        asyncio.run(run(settings))
    except EndpointError as error:
        fail(str(error))
    except discord.LoginFailure:
        fail(
            "Discord refused DISCORD_TOKEN: reset it in the developer portal and "
            "put the new one in .env."
        )
    except discord.PrivilegedIntentsRequired:
        fail("Discord refused the gateway intents the bot asked for: this bot needs none.")
    except discord.ConnectionClosed as closed:
        fail(f"Discord's gateway closed the connection for good (code {closed.code}).")
    except KeyboardInterrupt:  # before the signal handlers were set
        pass


def fail(line: str) -> NoReturn:
    print(f"nines-bot: {line}", file=sys.stderr)
    raise SystemExit(2) from None


if __name__ == "__main__":
    main()
