import warnings

# discord.py imports the stdlib `audioop` for voice, which warns on 3.11+; the project runs
# with filterwarnings=error, so import it once here with just that warning silenced.
with warnings.catch_warnings():
    warnings.filterwarnings(
        "ignore", message="'audioop' is deprecated", category=DeprecationWarning
    )
    import discord  # noqa: F401

pytest_plugins = ["tests.fakecord.fixtures", "tests.postgres", "tests.storage_backends"]
