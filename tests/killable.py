"""A child process to kill at random moments: the crash and durability tests share it.

The child writes one line per write it acknowledges; a reader thread keeps the whole lines, since
a line cut by the kill was never acknowledged. Another thread drains its stderr (keeping the
end), so a child that logs a lot never blocks on a full pipe (which would stall it).
"""

from __future__ import annotations

import signal
import subprocess
import sys
import threading
from collections.abc import Callable
from typing import Generic, TypeVar

Line = TypeVar("Line")
ERRORS_KEPT = 64 * 1024


class KillableChild(Generic[Line]):
    """`python script args...` with its acknowledged lines read as `parse` says."""

    def __init__(self, script: str, args: list[str], parse: Callable[[bytes], Line]) -> None:
        self.process = subprocess.Popen(
            [sys.executable, script, *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE
        )
        self.lines: list[Line] = []
        self._parse = parse
        self._errors = bytearray()
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()
        self._error_reader = threading.Thread(target=self._read_errors, daemon=True)
        self._error_reader.start()

    def _read(self) -> None:
        assert self.process.stdout is not None
        for raw in self.process.stdout:
            if raw.endswith(b"\n"):  # a line cut by the kill was never acknowledged
                self.lines.append(self._parse(raw))

    def _read_errors(self) -> None:
        stream = self.process.stderr
        assert stream is not None
        for chunk in iter(lambda: stream.read1(65536), b""):
            self._errors += chunk
            del self._errors[:-ERRORS_KEPT]

    def errors(self) -> str:
        """The end of what the child wrote to stderr so far."""
        return self._errors.decode(errors="replace")

    def kill(self) -> list[Line]:
        """SIGKILL it; the lines it acknowledged. Fails when it had died by itself."""
        self.process.send_signal(signal.SIGKILL)
        self.process.wait(timeout=30)
        self._reader.join(timeout=30)
        self._error_reader.join(timeout=30)
        assert self.process.returncode == -signal.SIGKILL, (
            f"the child died by itself:\n{self.errors()}"
        )
        return list(self.lines)
