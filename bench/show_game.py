"""Print what each person sees in one game, as Discord would show it (a script, not a test).

    .venv/bin/python bench/show_game.py [--lang fr] [--ruleset classic] [--start 3]
        [--rounds 2] [--seed 1] [--text] [--duplicate]

The real bot (its own startup) against the Discord double: Élodie Côté (in the chosen
language, also the server's) and Alexandre (English) with computers in the other seats (one,
or two in a four-seat game: partnership, four-player). Every public message, each person's
private messages and every notification are printed in order, the way a person reads them:
content, embeds (title, description, fields as Discord shows them, a bold name over its
value, and footer), buttons (disabled ones in brackets). Cards show as the faces' emojis
(uploaded to the double at start, as the bot does), written ``:queen_of_hearts:`` (the name
Discord shows on hover and a screen reader says, without its hash); ``--text``: no faces.
``--duplicate``: a duplicate match (``/nines start duplicate:on``), every game of it.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import random
import re
import sys
import tempfile
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from engine import RULESETS  # noqa: E402

EMOJI = re.compile(r"<:([a-z0-9_]+)_[0-9a-f]{6}:\d+>")


def button_text(button: Any) -> str:
    emoji = button.emoji
    face = ""
    if emoji is not None:
        name = str(emoji.get("name") if isinstance(emoji, dict) else emoji.name)
        face = f":{name.rsplit('_', 1)[0]}:" if re.search(r"_[0-9a-f]{6}$", name) else name
    return " ".join(part for part in (face, button.label or "") if part)


def shown(message: object) -> str:
    from fakecord.models import Message

    assert isinstance(message, Message)
    lines = []
    if message.content:
        lines.append(message.content)
    for embed in message.embeds:
        for key in ("title", "description"):
            if embed.get(key):
                lines.append(str(embed[key]))
        for field in embed.get("fields", []):  # Discord: the name in bold above the value
            lines.append(f"**{field['name']}**\n{field['value']}")
        if embed.get("footer"):
            lines.append(f"({embed['footer']['text']})")
    for row in message.button_rows():
        lines.append(
            " ".join(f"[{button_text(b)}]" if b.disabled else f"<{button_text(b)}>" for b in row)
        )
    if message.attachments:
        lines.append(f"(picture: {', '.join(a.filename for a in message.attachments)})")
    text = "\n".join("    " + line for text in lines for line in text.splitlines())
    return EMOJI.sub(r":\1:", text)


def ends(fake: object) -> int:
    """How many game ends are posted: public messages that offer a rematch (any language)."""
    from fakecord import FakeDiscord

    assert isinstance(fake, FakeDiscord)
    return sum(
        ends_game(m)
        for m in fake.store.messages.get(fake.channel.id, [])
        if m.ephemeral_for is None
    )


def ends_game(message: Any) -> bool:
    """A game's end: the message offers a rematch."""
    return any(":rematch:" in (b.custom_id or "") for b in message.buttons())


@contextlib.asynccontextmanager
async def bot_against_double(lang: str, faces: bool = True) -> AsyncIterator[Any]:
    """The real bot (its own startup, a throwaway database) connected to a fresh double whose
    server speaks ``lang``; yields the double."""
    from bot.process.run import build_bot
    from fakecord import FakeDiscord
    from fakecord.wiring import discord_pointed_at, run_client, stop_client
    from testbed.settings import bot_settings

    fake = FakeDiscord()
    await fake.start()
    try:
        with discord_pointed_at(fake), tempfile.TemporaryDirectory() as work:
            fake.guild.preferred_locale = "fr" if lang == "fr" else "en-US"
            emojis = "on" if faces else "off"
            bot = await build_bot(
                bot_settings(fake, Path(work) / "nines.sqlite3", CARD_EMOJIS=emojis)
            )
            bot._connection.guild_ready_timeout = 0.05
            task = await run_client(bot, fake)
            await fake.settle()
            if bot.card_faces_synced is not None:
                await bot.card_faces_synced
            try:
                yield fake
            finally:
                await stop_client(bot, task)
    finally:
        await fake.stop()


async def main(args: argparse.Namespace) -> None:
    from testbed.games import game_id_of
    from testbed.people import NotifiedPerson

    async with bot_against_double(args.lang, faces=not args.text) as fake:
        alice = fake.add_user("Élodie Côté", locale=args.lang)
        bob = fake.add_user("Alexandre")
        options = {"ruleset": args.ruleset, "start": args.start}
        if "start" not in RULESETS[args.ruleset].settings:  # Nein Nine: a short game by rounds
            options = {"ruleset": args.ruleset, "rounds": args.rounds}
        if args.duplicate:
            options["duplicate"] = "on"
        res = await fake.slash(alice, fake.channel, "nines start", **options)
        assert res.message is not None, res.errors
        game = game_id_of(res.message)
        computers = RULESETS[args.ruleset].players - 2  # the seats the two people leave
        clicks = [(bob, "join"), *[(alice, "cpu-normal")] * computers, (alice, "start")]
        for who, verb in clicks:
            await fake.click(who, res.message, f"nines:1:lobby:{game}:{verb}")
        people = [NotifiedPerson(fake, u, fake.channel) for u in (alice, bob)]
        rng = random.Random(args.seed)
        printed: set[tuple[int, str]] = set()

        def dump() -> None:
            for message in fake.store.messages.get(fake.channel.id, []):
                text = shown(message)
                if (message.id, text) in printed:
                    continue
                printed.add((message.id, text))
                who = "everyone"
                if message.ephemeral_for is not None:
                    who = "only " + fake.store.users[message.ephemeral_for].name
                pinged = ", ".join(u.name for u in message.mentions)
                state = " (deleted)" if message.deleted else ""
                print(
                    f"--- message {message.id % 10000} for {who}{state}"
                    + (f"; notifies {pinged}" if pinged else "")
                )
                print(text)

        for _ in range(3000):
            await fake.settle()
            dump()
            if ends(fake) >= (RULESETS[args.ruleset].players if args.duplicate else 1):
                break
            for p in people:  # a game's end notifies too: no move to make on it
                p.seen.update(m.id for m in p.notifications() if ends_game(m))
            # Told by a notification, or by the answer to their own click (no ping then).
            due = [p for p in people if p.notifications() or p.answered_turn]
            if not due:
                await asyncio.sleep(0.05)
                continue
            print(f"=== {due[0].user.name} plays")
            await due[0].act(rng)


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--lang", default="fr")
    parser.add_argument("--ruleset", default="classic", choices=sorted(RULESETS))
    parser.add_argument("--start", type=int, default=3, help="Nines: the starting score")
    parser.add_argument("--rounds", type=int, default=2, help="Nein Nine: the number of rounds")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--text", action="store_true", help="no card faces: cards as text")
    parser.add_argument(
        "--duplicate", action="store_true", help="a duplicate match: the deals once per seat"
    )
    asyncio.run(main(parser.parse_args()))
