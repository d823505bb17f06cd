"""Names and untrusted text: place-name matching keys, ids, and text made safe where it goes
(markdown or HTML on a page, map HTML, spreadsheet cells)."""

from __future__ import annotations

import math
import re
import string
import unicodedata
from collections import Counter
from collections.abc import Iterable
from functools import lru_cache
from html import escape

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


# --- untrusted text, made safe for where it goes ------------------------------------------------

SLUG = re.compile(r"[a-z0-9][a-z0-9-]{0,99}")
# Every ASCII punctuation character can start markdown (emphasis, links, images, autolinks,
# math, Streamlit's :colour[] directives) or HTML; as a numeric character reference it is
# only ever the character itself, in markdown and in HTML alike.
_PUNCT = re.compile("[" + re.escape(string.punctuation) + "]")
# Streamlit links bare addresses in text after markdown is parsed, so references do not stop it
# (GFM "autolink literals": http://, https://, www., name@host). An invisible WORD JOINER
# (U+2060) after the scheme or "www" and before "@" breaks the pattern; the text looks the same.
_AUTOLINK = re.compile(r"(?i)(https?|ftp|mailto|xmpp|www)(?=[:.])")
_JOINER = "\u2060"
_NEWLINES = re.compile(r"\r\n|\r|\n|\u2028|\u2029|\x0b|\x0c|\x85")
# Bidirectional embeddings, overrides and isolates (U+202A-202E, U+2066-2069): one in a story's
# title reversed the rest of the heading, the story picker and the PNG caption. Shown text drops
# them; the directions of Arabic and Hebrew letters need none of them.
_BIDI = re.compile("[\u202a-\u202e\u2066-\u2069]")
# Cells a spreadsheet would run as a formula (OWASP "CSV injection").
_FORMULA_START = ("=", "+", "-", "@", "\t", "\r", "\n")


def is_slug(value: object) -> bool:
    """Whether ``value`` is an id: lowercase letters, digits and '-', at most 100 characters."""
    return isinstance(value, str) and SLUG.fullmatch(value) is not None


def _plain(value: object) -> str:
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return ""
    try:
        import pandas as pd

        if value is pd.NA or value is pd.NaT:
            return ""
    except ImportError:  # pragma: no cover
        pass
    text = str(value)
    return _BIDI.sub("", text) if not text.isascii() else text


def one_line(value: object) -> str:
    """``value`` as one line of shown text: bidi controls dropped, every run of white space
    (line and paragraph separators too) one space."""
    return " ".join(_plain(value).split())


def literal(value: object, *, html: bool = False) -> str:
    """``value`` as markdown (or HTML) that shows exactly its text: no markup, link or image.

    Every ASCII punctuation character becomes a character reference, and bare addresses get an
    invisible word joiner so they are not linked. Newlines become ``<br>``
    with ``html=True`` (so a blank line cannot end an HTML block and start markdown), else a
    markdown hard break.
    """
    text = _AUTOLINK.sub(lambda m: m.group() + _JOINER, _plain(value)).replace("@", _JOINER + "@")
    text = _PUNCT.sub(lambda m: f"&#{ord(m.group())};", text)
    lines = _NEWLINES.split(text)
    if html:
        return "<br>".join(lines)
    # Leading spaces would make an indented code block; the text shows the same without them.
    return "  \n".join(line.lstrip() for line in lines)


def spreadsheet_cell(value: object) -> object:
    """A text cell a spreadsheet shows as text, never runs: a leading ``'`` before formulas."""
    if isinstance(value, str) and value.startswith(_FORMULA_START):
        return "'" + value
    return value


def html_text(value: object) -> str:
    """Any value (None, NaN, numbers, text) as HTML that shows its text and nothing else."""
    return escape(_plain(value), quote=True)


def clip(text: str, limit: int = 40) -> str:
    """``text`` cut to at most ``limit`` characters, an ellipsis marking the cut."""
    return text if len(text) <= limit else text[: limit - 1] + "…"


def upper_first(text: str) -> str:
    """``text`` with its first letter upper case and the rest as it is ("ISIS-held" stays)."""
    # str.capitalize() would lower the rest: "ISIS-held" must not become "Isis-held".
    return text[:1].upper() + text[1:]


def plural(n: int, word: str, many: str | None = None) -> str:
    """``n`` and its noun: '1 event', '2 events', '1,204 events', '8 summaries'
    (``many`` for a plural other than word + 's'). The one way counts are written."""
    return f"{n:,} {noun(n, word, many)}"


def noun(n: int, word: str, many: str | None = None) -> str:
    """The noun alone for ``n`` things: 'column' for one, 'columns' for any other number."""
    return word if n == 1 else many or f"{word}s"


def distinct_labels(labels: dict[str, str]) -> dict[str, str]:
    """``labels`` by key, each label two keys share followed by its key: a Streamlit picker
    holds its choice by label, so of two alike the second could not be chosen."""
    seen = Counter(labels.values())
    return {k: v if seen[v] == 1 else f"{v} · {k}" for k, v in labels.items()}
