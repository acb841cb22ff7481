# The Nines bot: one process, `python -m bot`, configured from the environment
# (docker run --env-file .env ...), its SQLite database on a volume at /app/data.
# An exact Python release on Debian 12 (bookworm): a rebuild gets the same interpreter.
FROM python:3.11.13-slim-bookworm

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1 \
    DATABASE_PATH=/app/data/nines.sqlite3 \
    HEALTH_PORT=8080

WORKDIR /app

# The dependencies alone, from pyproject.toml's list: this layer is rebuilt only when that
# file changes, not on every code change.
COPY pyproject.toml ./
RUN python -c "import tomllib; print('\n'.join(tomllib.load(open('pyproject.toml', 'rb'))['project']['dependencies']))" > /tmp/requirements.txt \
    && pip install --no-cache-dir -r /tmp/requirements.txt \
    && rm /tmp/requirements.txt \
    && groupadd --system --gid 10001 nines \
    && useradd --system --uid 10001 --gid 10001 --home-dir /app --shell /usr/sbin/nologin nines \
    && mkdir -p /app/data \
    && chown nines:nines /app/data

# Then the packages (engine, bot, cogs) only: tests and tools stay out (.dockerignore).
COPY README.md ./
COPY engine ./engine
COPY bot ./bot
COPY cogs ./cogs
RUN pip install --no-cache-dir --no-deps .

USER 10001:10001
VOLUME ["/app/data"]

# Healthy while connected to Discord's gateway with the database answering (bot/process/health.py).
HEALTHCHECK --interval=30s --timeout=10s --start-period=60s --retries=3 \
    CMD ["python", "-m", "bot.process.health"]

# `docker stop` sends SIGTERM to the bot itself (exec form: python is PID 1): it stops taking
# clicks, answers and stores those in progress, and exits within a few seconds.
STOPSIGNAL SIGTERM
CMD ["python", "-m", "bot"]
