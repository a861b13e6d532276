"""The hard player's simulator compiled to machine code (numba): the same play as its plain
Python definition (tests/ai/plain_sim.py, on engine/ai/policy.py), card for card, at a small
fraction of the CPU.

A decision's CPU is the deals it simulates (issue 24: 20 ms must buy the 200 deals the 0.5 s
player searches). The Python simulator is near its floor; these kernels run the same rules on
int64 bit sets. Tests play both on the same positions and require the same cards, tricks and
scores (tests/ai/test_kernel.py); the searches over them (search.py: the joint search of a
batch of sampled deals, best_response) the same values, bit for bit
(tests/ai/test_kernel_search.py).

Compiled once per machine: numba keeps the machine code beside the source (`cache=True`), or
in NUMBA_CACHE_DIR where that is not writable. `python -m engine.warm` compiles them all
ahead (the Dockerfile does, and the bot's computer processes as they start).
"""

from __future__ import annotations

import hashlib
from pathlib import Path

_HERE = Path(__file__).parent
DIGEST_FILE = "kernels.digest"


def clear_stale_cache(folder: Path = _HERE) -> bool:
    """Drop the kernels' cached machine code when any kernel's source has changed since it was
    made; True when it did. numba checks only the file a kernel lives in, so a kernel calling
    into another file that was edited would go on running that file's old code (seen while
    testing chain.py after an edit of sample.py). A digest of every source is kept beside the
    cache. A read-only install keeps its cache: it was compiled from these very sources."""
    digest = hashlib.sha256(
        b"".join(path.read_bytes() for path in sorted(folder.glob("*.py")))
    ).hexdigest()
    cache = folder / "__pycache__"
    stamp = cache / DIGEST_FILE
    try:
        if stamp.read_text(encoding="ascii") == digest:
            return False
    except OSError:
        pass
    try:
        cache.mkdir(exist_ok=True)
        for stale in [*cache.glob("*.nbi"), *cache.glob("*.nbc")]:
            stale.unlink(missing_ok=True)
        stamp.write_text(digest, encoding="ascii")
    except OSError:
        return False
    return True


clear_stale_cache()
