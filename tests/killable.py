"""A child process to kill at random moments: the crash and durability tests share it.

The child writes one line per write it acknowledges; a reader thread keeps the whole lines, since
a line cut by the kill was never acknowledged.
"""

from __future__ import annotations

import signal
import subprocess
import sys
import threading
from collections.abc import Callable
from typing import Generic, TypeVar

Line = TypeVar("Line")


class KillableChild(Generic[Line]):
    """`python script args...` with its acknowledged lines read as `parse` says."""

    def __init__(self, script: str, args: list[str], parse: Callable[[bytes], Line]) -> None:
        self.process = subprocess.Popen(
            [sys.executable, script, *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE
        )
        self.lines: list[Line] = []
        self._parse = parse
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()

    def _read(self) -> None:
        assert self.process.stdout is not None
        for raw in self.process.stdout:
            if raw.endswith(b"\n"):  # a line cut by the kill was never acknowledged
                self.lines.append(self._parse(raw))

    def kill(self) -> list[Line]:
        """SIGKILL it; the lines it acknowledged. Fails when it had died by itself."""
        self.process.send_signal(signal.SIGKILL)
        self.process.wait(timeout=30)
        self._reader.join(timeout=30)
        assert self.process.stderr is not None
        error = self.process.stderr.read().decode()
        self.process.stderr.close()
        assert self.process.returncode == -signal.SIGKILL, f"the child died by itself:\n{error}"
        return list(self.lines)
