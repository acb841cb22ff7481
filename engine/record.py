"""Game records in the ``nines-record/1`` format (shared/spec/game-record.md)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from .game import Game
from .rules import Trump

FORMAT = "nines-record/1"


def _trump(trump: Trump) -> str | None:
    return trump.value if trump is not None else None


def game_record(
    game: Game, players: Sequence[str] | None = None, *, abandoned: bool = False
) -> dict[str, Any]:
    """The record of a finished (or, with ``abandoned``, unfinished) game as a JSON object.

    Only a game that is over or abandoned may be exported: a record shows every hand dealt.
    """
    if not game.over and not abandoned:
        raise ValueError("Only a finished or abandoned game can be exported.")
    rules = game.rules
    names = list(players) if players is not None else [f"Seat {i + 1}" for i in range(game.players)]
    if len(names) != game.players:
        raise ValueError(f"{len(names)} names for {game.players} seats.")
    hands = []
    for log in game.hands_log:
        if log.result is None:
            continue  # the hand in progress of an abandoned game is not a played hand
        tricks = []
        for trick in log.tricks:
            entry: dict[str, Any] = {
                "leader": trick.leader,
                "cards": [c.code for c in trick.cards],
                "winner": trick.winner,
            }
            if trick.joker is not None:
                entry["joker"] = trick.joker
            tricks.append(entry)
        hand: dict[str, Any] = {
            "number": log.number,
            "dealer": log.dealer,
            "trump": _trump(log.trump),
            "dealt": [[c.code for c in cards] for cards in log.dealt],
            "spare": [c.code for c in log.spare] if log.spare is not None else None,
            "exchange": [{"seat": seat, "swap": swap} for seat, swap in log.exchange],
            "tricks": tricks,
            "tricks_won": list(log.result.tricks_won),
            "scores": list(log.result.scores),
        }
        if log.result.instant_win:
            hand["instant_win"] = True
        if log.result.nines:
            hand["nines"] = list(log.result.nines)
        hands.append(hand)
    record: dict[str, Any] = {
        "format": FORMAT,
        "game": rules.game,
        "rules": rules.to_dict(),
        "seed": game.seed,
        "players": names,
    }
    if rules.teams:
        record["teams"] = [list(team) for team in rules.teams]
    record["first_dealer"] = game.first_dealer
    record["hands"] = hands
    record["winners"] = [] if abandoned and not game.over else list(game.winners or ())
    return record
