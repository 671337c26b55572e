"""Which display names look alike: a skeleton per name, compared on sign-up and edit.

"Alice", "ALICE", "A l i c e", "Alice" spelt with a Cyrillic A or a mathematical
bold A, and "Alicé" all read as the same player on a board or a bracket. Two
accounts may not show names with the same skeleton, so nobody can pose as
someone else at a table.

The skeleton follows Unicode TR 39's idea: NFKC, look-alike letters mapped to one
prototype (the Unicode confusables data shipped by ``confusable_homoglyphs``),
accents, case, spacing and punctuation dropped, and the classic Latin look-alikes
(I/l/1, O/0, rn/m, vv/w) folded together.
"""

from __future__ import annotations

import unicodedata
from functools import lru_cache

from confusable_homoglyphs import confusables

_DIRECTION_MARKS = "\u200e\u200f"
# After casefolding: I (now i), l, 1 and | look alike in many fonts, as do o and 0.
_ASCII_FOLD = str.maketrans({"i": "l", "1": "l", "|": "l", "0": "o"})
_SEQUENCES = (("rn", "m"), ("vv", "w"))


@lru_cache(maxsize=4096)
def _prototype(char: str) -> str:
    """An ASCII letter or digit that ``char`` imitates, or ``char`` itself."""
    if char.isascii():
        return char
    for entry in confusables.confusables_data.get(char, ()):
        candidate = entry["c"].strip(_DIRECTION_MARKS)
        if candidate.isascii() and candidate.isalnum():
            return candidate
    return char


def name_skeleton(name: str) -> str:
    """What a name looks like, for telling whether two names can be confused."""
    text = unicodedata.normalize("NFKC", name or "")
    text = "".join(_prototype(char) for char in text)
    # Accents off: NFKD splits them into combining marks, which are dropped.
    text = unicodedata.normalize("NFKD", text)
    text = "".join(
        char for char in text if not unicodedata.category(char).startswith("M")
    )
    text = "".join(_prototype(char) for char in text)
    text = text.casefold().translate(_ASCII_FOLD)
    text = "".join(char for char in text if char.isalnum())
    for sequence, replacement in _SEQUENCES:
        text = text.replace(sequence, replacement)
    return text
