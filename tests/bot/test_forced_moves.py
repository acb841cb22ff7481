"""Which moves play themselves (GameSession.forced_move): a person's last card, and with the
autoplay preference any single legal card; never an exchange, never a Joker (its call is a
choice), never a computer's move (the computer decides it). No Discord here: the rule alone,
over every position of random games."""

from __future__ import annotations

import random
from collections.abc import Iterator

from bot.game.session import GameSession, SeatInfo
from bot.storage import GameRow
from engine import JOKER, Game, Play, Rules


def session_for(game: Game, seats: list[SeatInfo]) -> GameSession:
    rules = game.rules
    row = GameRow(
        id=1,
        guild_id=1,
        channel_id=1,
        thread_id=None,
        kind=rules.game,  # type: ignore[arg-type]
        rules=rules.to_dict(),
        seed=game.seed,
        status="live",
        host_id=100,
        language="en",
        lobby_message_id=None,
        table_message_id=None,
        turn_deadline=None,
        created_at=0.0,
        updated_at=0.0,
        ended_at=None,
        end_reason=None,
        hands_played=None,
        rated=True,
    )
    return GameSession(row, seats, None, players=rules.players, game=game)  # type: ignore[arg-type]


def positions(ruleset: str, seeds: range) -> Iterator[Game]:
    """Every position of random games (legal moves chosen at random)."""
    for seed in seeds:
        game = Game(Rules.from_settings(ruleset, {}), seed)
        rng = random.Random(seed)
        while not game.over:
            yield game
            assert game.turn is not None
            game.apply(game.turn, rng.choice(list(game.legal_actions(game.turn))))


def check(ruleset: str, seeds: range) -> dict[str, int]:
    people = [SeatInfo("a", 100), SeatInfo("b", 101), SeatInfo("c", 102)]
    chose = [SeatInfo("a", 100, autoplay=True), SeatInfo("b", 101), SeatInfo("c", 102)]
    seen = {"last": 0, "forced": 0, "joker_last": 0, "choice": 0}
    for game in positions(ruleset, seeds):
        seat = game.turn
        assert seat is not None
        legal = list(game.legal_actions(seat))
        last = len(game.hands[seat]) == 1
        single = len(legal) == 1 and isinstance(legal[0], Play)
        plain, keen = session_for(game, people), session_for(game, chose)
        expected = legal[0] if single and last else None
        assert plain.forced_move() == expected
        assert (plain.person_due() is None) == (expected is not None)
        # The preference adds every single legal card of its person's seat, nothing else.
        assert keen.forced_move() == (legal[0] if single and (last or seat == 0) else None)
        # A computer's seat is the computer's to play, forced or not.
        cpu = session_for(game, [SeatInfo("x", None, "easy"), *people[1:]])
        if seat == 0:
            assert cpu.forced_move() is None and cpu.person_due() is None
        if last and not single:
            assert game.hands[seat] == [JOKER]  # only a Joker's call leaves a last card open
            seen["joker_last"] += 1
        seen["last"] += last and single
        seen["forced"] += single and not last
        seen["choice"] += len(legal) > 1
    return seen


def test_nines_last_cards_and_forced_cards() -> None:
    seen = check("classic", range(12))
    assert seen["last"] > 0 and seen["forced"] > 0 and seen["choice"] > 0


def test_nein_nine_a_last_joker_is_still_a_choice() -> None:
    seen = check("nein-nine", range(10, 30))  # seed 12 keeps its Joker to the end
    assert seen["last"] > 0 and seen["forced"] > 0 and seen["joker_last"] > 0
