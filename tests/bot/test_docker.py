"""The Dockerfile without a Docker engine: its dependency layer, health check and ignore list."""

from __future__ import annotations

import fnmatch
import json
import re
import shlex
import subprocess
import sys
import tomllib
from pathlib import Path

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


def test_the_health_check_runs_the_heartbeat_check() -> None:
    steps = instructions()
    check = next(rest for word, rest in steps if word == "HEALTHCHECK")
    assert json.loads(check.split("CMD", 1)[1]) == ["python", "-m", "bot", "health"]
    env = " ".join(rest for word, rest in steps if word == "ENV")
    assert "HEARTBEAT_PATH=" in env


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
