"""The bot on the bench: what the tests and the benchmarks (``bench/``) share beyond the Discord
double (``fakecord/``): the bot's settings pointed at the double, people who play through it,
games set up and played to the end, the presenter's notebook of a game, a throwaway
PostgreSQL server and the chaos run of failover.

A development package, like ``fakecord``: imported by ``tests/`` and ``bench/``, never by the
bot, and not installed with it (pyproject.toml's package list, .dockerignore). ``bench/``
imports nothing from ``tests/`` (tests/test_layers.py)."""
