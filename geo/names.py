"""Place-name matching keys: one spelling-insensitive form for every way a place is written."""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable
from functools import lru_cache

# Arabic article forms as transliterated: the plain `al`/`el` and the sun-letter assimilations
# (`ad-Dawla`, `ash-Sham`, `ez-Zor`). Stripped so "al-Mayadin", "Al Mayadin" and "Mayadin" meet.
ARTICLES = frozenset(
    {"al", "el", "ad", "an", "ar", "as", "ash", "at", "az", "ed", "en", "er", "es", "et", "ez"}
)

# Ayn, hamza and apostrophes: transliterations write them or leave them out at will
# ("Baʿlabakk", "Ba`labakk", "Balabakk"), so they vanish rather than split a word.
_SILENT = dict.fromkeys(map(ord, "ʿʾʻʼ’‘'`´′"), None)
# Letters NFKD does not decompose into a base letter and a mark.
_FOLD = str.maketrans({"ø": "o", "æ": "ae", "œ": "oe", "đ": "d", "ł": "l", "ı": "i", "ħ": "h"})
_ARTICLE_HYPHEN = re.compile(rf"(?<![^\W_])(?:{'|'.join(sorted(ARTICLES))})-(?=[^\W_])")
_NON_WORD = re.compile(r"[\W_]+")


def _strip_marks(text: str) -> str:
    """Drop diacritics: decompose, then remove the combining marks."""
    decomposed = unicodedata.normalize("NFKD", text)
    return "".join(ch for ch in decomposed if not unicodedata.combining(ch))


@lru_cache(maxsize=200_000)
def normalize(name: str) -> str:
    """Matching key of a place name: case, diacritics, Arabic article and punctuation ignored."""
    text = name.casefold()
    if not text.isascii():
        # Compatibility forms can decompose to capitals or apostrophes ("ℌ", "＇"): fold again.
        text = _strip_marks(text).casefold().translate(_FOLD)
    text = text.translate(_SILENT)
    # A hyphen-joined article ("ez-Zor") goes before hyphens turn into spaces.
    text = _ARTICLE_HYPHEN.sub("", text)
    words = _NON_WORD.sub(" ", text).split()
    # A free-standing article only counts as one when a word follows it ("Al Mayadin");
    # a name that is nothing but an article word keeps it.
    kept = [w for i, w in enumerate(words) if not (w in ARTICLES and i + 1 < len(words))]
    return " ".join(kept)


def variants(name: str, aliases: Iterable[str] = ()) -> set[str]:
    """Distinct non-empty matching keys of a name and its aliases."""
    keys = {normalize(n) for n in (name, *aliases) if isinstance(n, str)}
    keys.discard("")
    return keys


def split_aliases(value: object) -> list[str]:
    """Aliases from a places.csv cell (`|`-joined) or an already split list; blanks dropped."""
    if isinstance(value, str):
        items: Iterable[object] = value.split("|")
    elif isinstance(value, Iterable):
        items = value
    else:  # NaN / None from pandas
        return []
    return [s.strip() for s in items if isinstance(s, str) and s.strip()]


def slugify(text: str, fallback: str = "item") -> str:
    """A lowercase ``[a-z0-9-]`` id from any text (accents folded, other characters dropped)."""
    spaced = re.sub(r"[^\w]+", " ", text)  # dashes and punctuation separate words
    folded = unicodedata.normalize("NFKD", spaced).encode("ascii", "ignore").decode()
    slug = re.sub(r"[^a-z0-9]+", "-", folded.lower()).strip("-")
    return slug[:60].strip("-") or fallback
