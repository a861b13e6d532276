"""Every benchmark's --help reads whole: its description is its docstring's first paragraph, to the
last word, and every option says what it is."""

from __future__ import annotations

import ast
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SCRIPTS = sorted((ROOT / "bench").glob("*.py"))


@pytest.mark.parametrize("script", SCRIPTS, ids=[path.name for path in SCRIPTS])
def test_help_reads_whole(script: Path) -> None:
    env = {**os.environ, "PYTHONPATH": str(ROOT), "COLUMNS": "100"}
    result = subprocess.run([sys.executable, str(script), "--help"], capture_output=True,
                            text=True, env=env, cwd=ROOT, timeout=120)
    assert result.returncode == 0, result.stderr
    doc = ast.get_docstring(ast.parse(script.read_text(encoding="utf-8")))
    assert doc is not None
    first = doc.split("\n\n")[0]
    rest = result.stdout.split("\n\n", 1)[1]  # after the usage
    description, options = rest.split("\noptions:\n", 1)
    assert description.split() == first.split(), description
    assert description.rstrip().endswith((".", ")")), description

    # each option: its help on the same line (after two spaces) or on the next, indented
    entries = re.split(r"\n(?=  -)", "\n" + options)
    for entry in entries:
        if not entry.strip():
            continue
        lines = entry.strip("\n").splitlines()
        said = re.split(r"\s{2,}", lines[0].strip(), maxsplit=1)
        assert len(said) == 2 or len(lines) > 1, f"{script.name}: {lines[0].strip()} has no help"
