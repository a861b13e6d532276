"""The one refusal type of the table service."""

from __future__ import annotations

from bot.i18n import Lang, say
from engine.phrase import Refusal


class TableError(Refusal):
    """An action was refused; nothing changed. It carries its sentence as a phrase (an English
    msgid with `{placeholders}` and their values): `str(err)` is the English sentence (logs),
    `err.text(lang)` the sentence in the reader's language from the catalogue."""

    def text(self, lang: Lang) -> str:
        return say(lang, self.phrase)


__all__ = ["TableError"]
