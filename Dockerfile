# The Nines bot: one process, `python -m bot`, configured from the environment
# (docker run --env-file .env ...), its SQLite database on a volume at /app/data.
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1 \
    DATABASE_PATH=/app/data/nines.sqlite3

WORKDIR /app

# Dependencies and the packages (engine, bot, cogs) only: tests and tools stay out (.dockerignore).
COPY pyproject.toml README.md ./
COPY engine ./engine
COPY bot ./bot
COPY cogs ./cogs
RUN pip install . \
    && useradd --system --uid 10001 --home-dir /app --shell /usr/sbin/nologin nines \
    && mkdir -p /app/data \
    && chown nines:nines /app/data

USER nines
VOLUME ["/app/data"]

CMD ["python", "-m", "bot"]
