"""The one refusal type of the table service."""

from __future__ import annotations


class TableError(ValueError):
    """An action was refused; str(err) is a sentence a player can read. Nothing changed."""


__all__ = ["TableError"]
