"""Bit operations for the kernels: LLVM's count-leading-zeros and population count, which
numba does not expose, and the typed `jit` every kernel is compiled with."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar, cast

from llvmlite import ir
from numba import njit, types
from numba.extending import intrinsic

F = TypeVar("F", bound=Callable[..., Any])

_I64 = ir.IntType(64)


def jit(function: F) -> F:
    """Compile `function` in nopython mode, cached on disk; its type is kept for mypy."""
    return cast(F, njit(cache=True)(function))


def inline(function: F) -> F:
    """`jit`, inlined into its callers (the innermost helpers)."""
    return cast(F, njit(cache=True, inline="always")(function))


def _ctlz_typed(typingctx: Any, x: Any) -> Any:
    signature = types.int64(types.int64)

    def codegen(context: Any, builder: Any, sig: Any, args: Any) -> Any:
        fnty = ir.FunctionType(_I64, [_I64, ir.IntType(1)])
        function = builder.module.declare_intrinsic("llvm.ctlz", [_I64], fnty)
        return builder.call(function, [args[0], ir.Constant(ir.IntType(1), 0)])

    return signature, codegen


def _ctpop_typed(typingctx: Any, x: Any) -> Any:
    signature = types.int64(types.int64)

    def codegen(context: Any, builder: Any, sig: Any, args: Any) -> Any:
        fnty = ir.FunctionType(_I64, [_I64])
        function = builder.module.declare_intrinsic("llvm.ctpop", [_I64], fnty)
        return builder.call(function, [args[0]])

    return signature, codegen


_ctlz: Any = intrinsic(_ctlz_typed)
_ctpop: Any = intrinsic(_ctpop_typed)


@inline
def bit_length(mask: int) -> int:
    """int.bit_length of a non-negative int64."""
    return 64 - _ctlz(mask)  # type: ignore[no-any-return]


@inline
def bit_count(mask: int) -> int:
    """int.bit_count of a non-negative int64."""
    return _ctpop(mask)  # type: ignore[no-any-return]


@inline
def lowest(mask: int) -> int:
    """The lowest card of a non-empty set."""
    return bit_length(mask & -mask) - 1


@inline
def highest(mask: int) -> int:
    """The highest card of a non-empty set."""
    return bit_length(mask) - 1


SUIT = 0x1FFF
"""One suit's 13 ranks; suit s is `SUIT << 13 * s`."""


@inline
def suit_mask(suit: int) -> int:
    return SUIT << (13 * suit)


@inline
def legal(hand: int, led: int, trump: int, must_trump: bool, after_broken: bool,
          broken: bool) -> int:
    """engine/ai/bits.py legal_mask."""
    if led < 0:
        if after_broken and trump >= 0 and not broken:
            side = hand & ~suit_mask(trump)
            if side:
                return side
        return hand
    follow = hand & suit_mask(led)
    if follow:
        return follow
    if must_trump and trump >= 0:
        trumps = hand & suit_mask(trump)
        if trumps:
            return trumps
    return hand
