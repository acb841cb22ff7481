"""Running the process: the bot built and run (``run.py``), the health and metrics
endpoints, several processes sharing the shards. The top room: only the entry point
(``bot/__main__.py``) and the tests import it, by its modules' names: ``python -m
bot.process.health`` (the Docker HEALTHCHECK) starts without the rest, so nothing is imported
here."""
