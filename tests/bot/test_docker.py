"""The Dockerfile and compose.yaml without a Docker engine: the dependency layer, the ignore
list, and where a container keeps its games and its heartbeat, resolved as the container would."""

from __future__ import annotations

import fnmatch
import json
import os
import re
import shlex
import subprocess
import sys
import tomllib
from pathlib import Path
from typing import Any

import pytest

from bot.health import beat
from tests.bot import yaml_subset

ROOT = Path(__file__).resolve().parents[2]
DOCKERFILE = (ROOT / "Dockerfile").read_text()


def instructions() -> list[tuple[str, str]]:
    """(INSTRUCTION, arguments) in order, continuation lines joined."""
    text = re.sub(r"\\\n\s*", " ", DOCKERFILE)
    out = []
    for line in text.splitlines():
        line = line.strip()
        if line and not line.startswith("#"):
            word, _, rest = line.partition(" ")
            out.append((word.upper(), rest.strip()))
    return out


def test_dependencies_install_from_pyproject_alone_before_the_code(tmp_path: Path) -> None:
    steps = instructions()
    copies = [i for i, (word, _) in enumerate(steps) if word == "COPY"]
    first_copy = steps[copies[0]][1]
    assert first_copy.split()[0] == "pyproject.toml"
    extract = next(rest for word, rest in steps if word == "RUN" and "tomllib" in rest)
    code_copies = [i for i in copies if steps[i][1].split()[0] in ("engine", "bot", "cogs")]
    assert all(i > steps.index(("RUN", extract)) for i in code_copies)
    # run the layer's own command on the real pyproject.toml, in a folder holding nothing else
    (tmp_path / "pyproject.toml").write_bytes((ROOT / "pyproject.toml").read_bytes())
    command = extract.split("&&")[0].strip()
    script = shlex.split(command.split(">")[0])[2]
    listed = subprocess.run([sys.executable, "-c", script], cwd=tmp_path, capture_output=True,
                            text=True, check=True).stdout.split()
    wanted = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["dependencies"]
    assert listed == [d.replace(" ", "") for d in wanted]
    assert any(word == "RUN" and "--no-deps" in rest for word, rest in steps)


def test_secrets_databases_and_tests_stay_out_of_the_build_context() -> None:
    patterns = [p.strip() for p in (ROOT / ".dockerignore").read_text().splitlines()
                if p.strip() and not p.startswith("#")]

    def ignored(path: str) -> bool:
        result = False
        for p in patterns:
            keep = p.startswith("!")
            if fnmatch.fnmatch(path, p.lstrip("!")) or path.split("/")[0] == p.lstrip("!"):
                result = not keep
        return result

    for path in (".env", "ohhell.sqlite3", ".venv", "tests", "bench", ".git",
                 "ohhell.sqlite3.commands.json"):
        assert ignored(path), path
    for path in ("pyproject.toml", "README.md", "engine", "bot", "cogs", "data"):
        assert not ignored(path), path


# ---- the running container, without Docker ------------------------------------------------------


def run_stage() -> list[tuple[str, str]]:
    """The instructions of the image that runs (after the last FROM)."""
    steps = instructions()
    last = max(i for i, (word, _) in enumerate(steps) if word == "FROM")
    return steps[last + 1:]


def exec_form(text: str) -> list[str]:
    argv = json.loads(text)
    assert isinstance(argv, list) and argv[:3] == ["python", "-m", "bot"], argv
    return argv


def env_file(text: str) -> dict[str, str]:
    """`docker run --env-file` / compose's env_file: KEY=VALUE lines taken as written (an empty
    value sets the variable empty), comments and blank lines skipped."""
    found = {}
    for line in text.splitlines():
        line = line.strip()
        if line and not line.startswith("#") and "=" in line:
            key, _, value = line.partition("=")
            found[key.strip()] = value
    return found


class Container:
    """The image's file system under a folder of the test, and its processes run as the image
    runs them: its ENV, then the env file over it (as `--env-file` does), its WORKDIR."""

    def __init__(self, root: Path, env_lines: dict[str, str],
                 environment: dict[str, str] | None = None) -> None:
        self.root = root
        steps = run_stage()
        self.volumes = [self.host(v) for word, rest in steps if word == "VOLUME"
                        for v in json.loads(rest)]
        self.workdir = self.host(next(rest for word, rest in steps if word == "WORKDIR"))
        self.workdir.mkdir(parents=True, exist_ok=True)
        for volume in self.volumes:
            volume.mkdir(parents=True, exist_ok=True)
        image_env = {}
        for word, rest in steps:
            if word == "ENV":
                for pair in shlex.split(rest):
                    key, _, value = pair.partition("=")
                    if key != "PATH":  # the host's Python stands in for /opt/venv's
                        image_env[key] = str(self.host(value)) if value.startswith("/") else value
        self.env = {k: v for k, v in os.environ.items()
                    if k in ("PATH", "HOME", "LANG", "SYSTEMROOT")}
        self.env.update(image_env)
        self.env.update(env_lines)
        self.env.update(environment or {})
        self.env["PYTHONPATH"] = str(ROOT)
        self.cmd = exec_form(next(rest for word, rest in steps if word == "CMD"))
        self.healthcheck = exec_form(
            next(rest for word, rest in steps if word == "HEALTHCHECK").split("CMD", 1)[1])

    def host(self, container_path: str) -> Path:
        return self.root / container_path.lstrip("/")

    def run(self, argv: list[str]) -> subprocess.CompletedProcess[str]:
        args = [str(self.host(a)) if a.startswith("/") else a for a in argv[1:]]
        return subprocess.run([sys.executable, *args], cwd=self.workdir, env=self.env,
                              capture_output=True, text=True, timeout=120)

    def where(self) -> dict[str, str]:
        """What the bot, started by the image's CMD, would open and beat."""
        shown = self.run([*self.cmd, "where"])
        assert shown.returncode == 0, shown.stderr
        return dict(line.split(": ", 1) for line in shown.stdout.splitlines())


OLD_ENV_EXAMPLE = "DISCORD_TOKEN=x\nDATABASE_PATH=ohhell.sqlite3\nHEARTBEAT_PATH=\nDATABASE_URL=\n"
"""What .env.example used to set, and so what many a .env still holds."""


@pytest.mark.parametrize(
    "env_text",
    [(ROOT / ".env.example").read_text().replace("DISCORD_TOKEN=", "DISCORD_TOKEN=x"),
     OLD_ENV_EXAMPLE],
    ids=["env.example", "an older env file"],
)
def test_the_readme_docker_run_keeps_the_games_on_the_volume_and_turns_healthy(
    tmp_path: Path, env_text: str
) -> None:
    """`cp .env.example .env` and `docker run --env-file .env -v ohhell-data:/data`: the games
    land on the volume, and the health check passes once the bot beats."""
    box = Container(tmp_path, env_file(env_text))
    (volume,) = box.volumes
    where = box.where()
    database = Path(where["database"].split(" (")[0])
    assert database.parent == volume, where
    sick = box.run(box.healthcheck)
    assert sick.returncode == 1 and sick.stdout.startswith("unhealthy: no heartbeat"), sick.stdout
    beat(Path(where["heartbeat"]))  # what the bot does every 15 s while connected
    well = box.run(box.healthcheck)
    assert well.returncode == 0, well.stdout + well.stderr
    assert well.stdout.strip() == (f"healthy: heartbeat {where['heartbeat']} is fresh; the "
                                   f"games are kept in {database}")


def test_compose_builds_one_image_and_each_process_turns_healthy(tmp_path: Path) -> None:
    compose: dict[str, Any] = yaml_subset.load((ROOT / "compose.yaml").read_text())
    services: dict[str, dict[str, Any]] = compose["services"]
    builders = [name for name, service in services.items() if "build" in service]
    assert len(builders) == 1, builders
    (builder,) = builders
    assert (ROOT / services[builder]["build"] / "Dockerfile").exists()
    image = services[builder]["image"]
    bots = [name for name, service in services.items() if service.get("image") == image]
    assert len(bots) == 2
    for name in bots:
        service = services[name]
        assert "command" not in service and "healthcheck" not in service  # the image's own
        if name != builder:
            assert service.get("pull_policy") == "never"  # never a registry's image
        env_text = (ROOT / ".env.example").read_text().replace("DISCORD_TOKEN=",
                                                                 "DISCORD_TOKEN=x")
        assert service["env_file"] == ".env"
        box = Container(tmp_path / name, env_file(env_text), service["environment"])
        where = box.where()
        assert where["database"] == "postgresql://ohhell:***@postgres/ohhell (DATABASE_URL)"
        beat(Path(where["heartbeat"]))
        well = box.run(box.healthcheck)
        assert well.returncode == 0 and well.stdout.startswith("healthy"), well.stdout
