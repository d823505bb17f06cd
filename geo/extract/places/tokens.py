"""Word tokens with their spans, sentences and what joins each to the next."""

from __future__ import annotations

import itertools
import math
import re
from bisect import bisect_left, bisect_right
from dataclasses import dataclass

from geo.extract.sentences import Sentence
from geo.names import normalize

_TOKEN = re.compile(r"[^\W_][\w’']*")
_POSSESSIVE = re.compile(r"['’]s?$")
_QUOTES = frozenset("'’")
# Gaps a name runs over: a space, a hyphen or dash, or a line break inside a sentence (text
# wrapped at a fixed width: "Central\nAnatolia", "Gareth\nBale").
_JOINING_GAPS = frozenset({" ", "-", "–", "- ", " - ", "\n", " \n", "\n "})
_JOINING_ABBREVIATIONS = frozenset({"st", "ste", "mt", "ft", "pt"})


@dataclass(slots=True)
class _Token:
    text: str
    start: int
    end: int
    key: str
    cap: bool
    sentence: int
    first_in_sentence: bool
    joins_next: bool = False
    hyphen_next: bool = False  # joined to the next word by a hyphen or dash ("al-Bab")
    dash_next: bool = False  # by a dash with a space after it ("Trump - Wisconsin")


def tokenize(text: str, sentences: list[Sentence]) -> list[_Token]:
    """Word tokens with spans; a possessive 's is left out of the token."""
    tokens: list[_Token] = []
    last_sentence = -1
    # Tokens come in text order: walk the sentences along instead of a search per token
    # (the same answer as sentence_index: the previous sentence when between two).
    starts = [s.start for s in sentences]
    idx = 0
    # The next sentence's start: the walk moves on only once a token reaches it.
    next_start = starts[1] if len(starts) > 1 else math.inf
    append = tokens.append
    for m in _TOKEN.finditer(text):
        word = m.group()
        # _POSSESSIVE, without a regex call for the many words that do not end in ' or 's.
        if len(word) > 3 and (word[-1] in _QUOTES or (word[-1] == "s" and word[-2] in _QUOTES)):
            word = _POSSESSIVE.sub("", word)
        start = m.start()
        if start >= next_start:
            while idx + 1 < len(starts) and starts[idx + 1] <= start:
                idx += 1
            next_start = starts[idx + 1] if idx + 1 < len(starts) else math.inf
        append(
            _Token(word, start, start + len(word), normalize(word), word[:1].isupper(), idx,
                   idx != last_sentence)
        )  # fmt: skip
        last_sentence = idx
    prev: _Token | None = None
    for a, b in itertools.pairwise(tokens):
        gap = text[a.end : b.start]
        if gap == " ":  # the common case: no hyphen, dash, dot or possessive to look at
            a.joins_next = a.sentence == b.sentence
            prev = a
            continue
        # Names run over spaces and hyphens only: never over a comma, a possessive or a line.
        a.joins_next = a.sentence == b.sentence and gap in _JOINING_GAPS
        a.hyphen_next = a.joins_next and gap.strip() in ("-", "–")
        a.dash_next = a.joins_next and gap in ("- ", " - ")
        # "St. Louis", "Mt. Hood", "Ft. Worth": the abbreviation's dot does not end the name.
        if gap == ". " and a.key in _JOINING_ABBREVIATIONS and a.cap and b.cap:
            a.joins_next = True
        # "Charles W. Murphy": a middle initial after a name joins the surname (not the "S" of
        # "U.S. Army", which follows a dot).
        if (
            gap == ". " and len(a.text) == 1 and a.text.isupper() and b.cap and prev is not None
            and a.sentence == b.sentence
            and prev.joins_next and not prev.hyphen_next and prev.cap and len(prev.text) > 1
        ):  # fmt: skip
            a.joins_next = True
        if text[a.end : a.end + 2] in ("'s", "’s"):
            a.joins_next = False
        prev = a
    return tokens


class _TokenIndex:
    """Token boundaries for bisecting (tokens are in text order and never overlap)."""

    def __init__(self, tokens: list[_Token]):
        self.starts = [t.start for t in tokens]
        self.ends = [t.end for t in tokens]


def _token_range(index: _TokenIndex, start: int, end: int) -> tuple[int, int]:
    """First and last token indexes inside [start, end)."""
    return bisect_left(index.starts, start), bisect_right(index.ends, end) - 1
