# The Oh Hell bot. Build:  docker build -t ohhell-bot .
# Run:    docker run -d --name ohhell --env-file .env -v ohhell-data:/data ohhell-bot
# The database lives on the /data volume, so the image can be replaced without losing games.

# ---- build: install the project and its dependencies into a virtualenv ----
FROM python:3.11-slim AS build

ENV PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1 \
    PYTHONDONTWRITEBYTECODE=1

RUN python -m venv /opt/venv
ENV PATH="/opt/venv/bin:$PATH"

WORKDIR /src
# Only what the package needs (no tests, benchmarks, local .env or databases).
COPY pyproject.toml README.md ./
COPY engine ./engine
COPY data ./data
COPY bot ./bot
COPY cogs ./cogs
RUN pip install .

# ---- run: the virtualenv only, as an unprivileged user ----
FROM python:3.11-slim

ENV PATH="/opt/venv/bin:$PATH" \
    PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    DATABASE_PATH=/data/ohhell.sqlite3

RUN groupadd --system --gid 10001 ohhell \
    && useradd --system --uid 10001 --gid ohhell --home-dir /home/ohhell --create-home \
       --shell /usr/sbin/nologin ohhell \
    && mkdir -p /data \
    && chown ohhell:ohhell /data

COPY --from=build /opt/venv /opt/venv

USER ohhell
# The working directory is not the code: `python -m bot` imports the installed package, and a
# .env file is optional (pass settings with --env-file or -e instead).
WORKDIR /home/ohhell
VOLUME ["/data"]

# Exits at once with one line naming DISCORD_TOKEN when no token is given.
CMD ["python", "-m", "bot"]
