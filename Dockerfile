# The Oh Hell bot. Build:  docker build -t ohhell-bot .
# Run:    docker run -d --name ohhell --env-file .env -v ohhell-data:/data ohhell-bot
# The database lives on the /data volume, so the image can be replaced without losing games:
# DATA_DIR=/data holds a relative (or empty) DATABASE_PATH, so an env file cannot move it off the
# volume by accident. Check:  docker exec ohhell python -m bot where
# A bind-mounted folder instead of a volume (-v "$PWD/data:/data") must be writable by uid 10001:
#   mkdir -p data && sudo chown 10001:10001 data

# ---- build: the dependencies in their own layer, then the project, into a virtualenv ----
FROM python:3.11-slim AS build

ENV PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1 \
    PYTHONDONTWRITEBYTECODE=1

RUN python -m venv /opt/venv
ENV PATH="/opt/venv/bin:$PATH"

WORKDIR /src
# Dependencies first, from pyproject.toml alone: this layer is rebuilt only when the
# dependencies change, not on every change to the code.
COPY pyproject.toml ./
RUN python -c "import tomllib; print('\n'.join(tomllib.load(open('pyproject.toml', 'rb'))['project']['dependencies']))" > requirements.txt \
    && pip install -r requirements.txt

# Then the code (.dockerignore keeps tests, benchmarks, .env and databases out).
COPY README.md ./
COPY engine ./engine
COPY data ./data
COPY bot ./bot
COPY cogs ./cogs
RUN pip install --no-deps .
# The hard player's compiled kernels, made now so no game waits on the compiler: numba keeps
# them beside the installed code, which the run stage copies as it is (engine/warm.py). From
# another folder than /src, so that the installed package is the one compiled.
RUN cd /tmp && python -m engine.warm

# ---- run: the virtualenv only, as an unprivileged user ----
FROM python:3.11-slim

ENV PATH="/opt/venv/bin:$PATH" \
    PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    DATA_DIR=/data \
    MPLCONFIGDIR=/tmp/matplotlib

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

# Healthy while the bot is connected to Discord and its event loop runs: the bot touches its
# heartbeat file every 15 s only while connected, and the check fails once it is over 60 s old.
# The file is named on both command lines, not in ENV, so no env file can empty it.
HEALTHCHECK --interval=30s --timeout=10s --start-period=60s --retries=3 \
    CMD ["python", "-m", "bot", "--heartbeat", "/tmp/ohhell-heartbeat", "health"]

# Exits at once with one line naming DISCORD_TOKEN when no token is given.
CMD ["python", "-m", "bot", "--heartbeat", "/tmp/ohhell-heartbeat"]
