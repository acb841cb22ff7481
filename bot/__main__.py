"""``python -m bot`` (or ``nines-bot``): read the settings, set up logging, run the bot."""

from __future__ import annotations

import asyncio
import os
import sys

import discord
from dotenv import find_dotenv, load_dotenv

from .app import run
from .settings import Settings, SettingsError


def main() -> None:
    # .env in the working directory (or above it), not beside the installed package.
    load_dotenv(find_dotenv(usecwd=True))
    try:
        settings = Settings.from_mapping(os.environ)
    except SettingsError as error:
        print(f"nines-bot: {error}", file=sys.stderr)
        raise SystemExit(2) from None
    discord.utils.setup_logging(level=settings.log_level, root=True)
    try:
        asyncio.run(run(settings))
    except discord.LoginFailure:
        print(
            "nines-bot: Discord refused DISCORD_TOKEN: reset it in the developer portal and "
            "put the new one in .env.",
            file=sys.stderr,
        )
        raise SystemExit(2) from None
    except KeyboardInterrupt:
        pass


if __name__ == "__main__":
    main()
