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
in NUMBA_CACHE_DIR where that is not writable.
"""
