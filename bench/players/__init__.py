"""The players' laboratory: duels, baselines and experiments that measure the engine's levels
(``docs/players.md``). Run from the repository root: ``python -m bench.players.duel ...``."""
