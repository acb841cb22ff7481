"""The tournament's refusal, said to the person who asked in their words (the catalogue's)."""

from __future__ import annotations


class TournamentError(Exception):
    """A refusal for the person who asked: a catalogue key and its values."""

    def __init__(self, key: str, **values: object) -> None:
        super().__init__(key)
        self.key = key
        self.values = values
