"""The bot: built once with its settings, storage and computer players, then run."""

from __future__ import annotations

import gc
import hashlib
import json
import logging
import sys
from typing import TYPE_CHECKING, Any, Final

import discord
import yarl
from discord.ext import commands
from discord.gateway import DiscordWebSocket
from discord.http import Route

from .computer import Computers
from .settings import Settings
from .storage import Storage

if TYPE_CHECKING:
    from cogs.nines.table import DiscordPresenter

    from .session import Sessions

log = logging.getLogger(__name__)

#: Young-generation size for the garbage collector. A full collection stops every game
#: (measured at 200 games: 27 in 3 minutes, ~140 ms each, before views were unlinked and the
#: start-up heap frozen). 20,000 was tried: rarer but 25-180 ms young collections, no better
#: at p99; 2,100 (with a middle collection every 3): young collections of 1.7 ms at p50 for no
#: less time in all, and 107 KB a live game against 96-98. CPython's default of 700 is kept.
GC_YOUNG: Final = 700

#: Middle-generation collections between full ones (default 10). A full collection walks every
#: live game; at 200 games the default ran one every 2-4 s (50-120 ms each, every game
#: stopped). Clicks make no cyclic garbage any more (no view built, interactions released),
#: so full collections freed ~30 objects each: rarer ones cost no memory. 3.11 also waits
#: until a quarter of the long-lived objects are new.
GC_OLD: Final = 100

#: Only what slash commands and buttons need: guild and channel events, no message content.
INTENTS = discord.Intents(guilds=True)


def apply_endpoints(settings: Settings) -> None:
    """Point discord.py at the configured REST and gateway URLs (a proxy, or a test double).

    discord.py reads both from class attributes, so this is process-wide.
    """
    Route.BASE = settings.api_base
    DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(settings.gateway_url)


class NinesBot(commands.Bot):
    sessions: Sessions
    presenter: DiscordPresenter

    def __init__(self, settings: Settings, storage: Storage, computers: Computers) -> None:
        super().__init__(
            command_prefix=commands.when_mentioned,
            intents=INTENTS,
            help_command=None,
            allowed_mentions=discord.AllowedMentions(everyone=False, roles=False, users=True),
            # No cap on connections to Discord (discord.py's default). A cap of 100 saved
            # ~5 KB a live game at 200 games, only because the Discord double answered slowly,
            # and queued interaction answers behind table edits: with a slow Discord an answer
            # may miss its 3-second deadline (in a run with the cap, one in 92,305 did).
        )
        self.settings = settings
        self.storage = storage
        self.computers = computers

    async def setup_hook(self) -> None:
        from .i18n_commands import CatalogueTranslator

        await self.tree.set_translator(CatalogueTranslator())
        await self.load_extension("cogs.nines")
        await self.sync_commands()
        tune_gc()

    async def command_payload(self, guild: discord.abc.Snowflake | None) -> list[dict[str, Any]]:
        translator = self.tree.translator
        payload = []
        for command in self.tree.get_commands(guild=guild):
            if translator is not None:
                payload.append(await command.get_translated_payload(self.tree, translator))
            else:
                payload.append(command.to_dict(self.tree))
        return payload

    async def sync_commands(self) -> None:
        """Sync slash commands only when they changed (Discord limits creations per day)."""
        mode = self.settings.sync_commands
        if mode == "never":
            return
        guild = discord.Object(self.settings.dev_guild) if self.settings.dev_guild else None
        if guild is not None:
            self.tree.copy_global_to(guild=guild)
        payload = await self.command_payload(guild)
        digest = hashlib.sha256(json.dumps(payload, sort_keys=True).encode()).hexdigest()
        key = f"commands:{guild.id if guild else 'global'}"
        if mode == "auto" and await self.storage.get_meta(key) == digest:
            log.info("slash commands unchanged; not syncing")
            return
        synced = await self.tree.sync(guild=guild)
        await self.storage.set_meta(key, digest)
        log.info(
            "synced %d slash commands %s",
            len(synced),
            f"to guild {guild.id}" if guild else "globally",
        )

    async def close(self) -> None:
        sessions = getattr(self, "sessions", None)
        if sessions is not None:
            await sessions.close()
        await super().close()
        await self.computers.close()
        await self.storage.close()


def tune_gc() -> None:
    """After start-up: move what was built so far (modules, discord.py, restored games) out of
    the collector's reach, so a full collection only walks what games made since, and make
    full collections rarer (see GC_YOUNG, GC_OLD)."""
    gc.collect()
    gc.freeze()
    _, middle, _ = gc.get_threshold()
    gc.set_threshold(GC_YOUNG, middle, GC_OLD)
    # A thread drawing a score chart holds the GIL for up to this long while the loop waits
    # to resume after each system call (default 5 ms).
    sys.setswitchinterval(0.001)


async def build_bot(settings: Settings) -> NinesBot:
    """The whole bot from its settings: endpoints applied, database open, players ready."""
    apply_endpoints(settings)
    storage = await Storage.open(settings.database)
    return NinesBot(settings, storage, Computers(settings.computer_workers))


async def run(settings: Settings) -> None:
    bot = await build_bot(settings)
    async with bot:
        await bot.start(settings.token)
