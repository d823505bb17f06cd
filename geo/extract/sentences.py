"""Sentence splitting with character spans, for news prose."""

from __future__ import annotations

import itertools
import re
from bisect import bisect_left, bisect_right
from dataclasses import dataclass

# Words that end with a full stop without ending the sentence.
_ABBREVIATIONS = frozenset(
    {
        "mr", "mrs", "ms", "dr", "prof", "gen", "lt", "col", "maj", "capt", "sgt", "cpl", "adm",
        "gov", "sen", "rep", "rev", "st", "mt", "ft", "vs", "etc", "approx", "jan", "feb",
        "mar", "apr", "jun", "jul", "aug", "sep", "sept", "oct", "nov", "dec", "inc", "ltd",
        "corp", "dept", "e.g", "i.e", "a.m", "p.m", "u.s", "u.n", "u.k", "e.u",
    }
)  # fmt: skip

# A candidate end: terminal punctuation, optional closing quotes/brackets, then space. It
# starts where a run of terminal punctuation starts (a match inside a run would end where the
# run's own does): a search from every dot of "......" made a run of them quadratic.
_END = re.compile(r"(?<![.!?])[.!?]+[\"'”’)\]]*(?=\s)")
# The first character after spaces.
_NOT_SPACE = re.compile(r"\S")
# The word before a full stop, dots and all ("U.S", "Gen"): an abbreviation or a word.
_WORD_BEFORE_DOT = re.compile(r"([A-Za-z][A-Za-z.]*)$")
_OPENERS = "\"'“‘([" + "–—-"
_TERMINAL = (".", "!", "?", ":", '"', "”", "’", "'", ")")
# Lines shorter than this that end without punctuation are headings or captions.
_SHORT_LINE = 60


@dataclass(frozen=True)
class Sentence:
    """One sentence: its index, text and [start, end) span in the article text."""

    index: int
    start: int
    end: int
    text: str


def _is_abbreviation(text: str, dot: int) -> bool:
    """True when the full stop at ``dot`` closes an abbreviation or an initial."""
    m = _WORD_BEFORE_DOT.search(text[max(0, dot - 20) : dot])
    if not m:
        return False
    word = m.group(1).lower().rstrip(".")
    # A single letter is an initial (J. Smith) unless it is the pronoun "I".
    return word in _ABBREVIATIONS or (len(word) == 1 and word != "i")


def _next_starts_sentence(text: str, pos: int) -> bool:
    """True when the text after ``pos`` (skipping spaces) looks like a sentence start."""
    # Found in place: a copy of the rest of the text at every full stop was quadratic.
    found = _NOT_SPACE.search(text, pos)
    if found is None:
        return True
    first = found.group()
    return first.isupper() or first.isdigit() or first in _OPENERS


def _line_breaks(text: str) -> list[int]:
    """Offsets where a newline ends a sentence: paragraph breaks, headings, captions."""
    cuts = []
    for m in re.finditer(r"\n", text):
        pos = m.start()
        line_start = text.rfind("\n", 0, pos) + 1
        line = text[line_start:pos].rstrip()
        blank_next = text.startswith("\n", pos + 1)
        prev_blank = line == ""
        if blank_next or prev_blank or line.endswith(_TERMINAL) or len(line) < _SHORT_LINE:
            cuts.append(pos)
    return cuts


def split_sentences(text: str) -> list[Sentence]:
    """Split ``text`` into sentences with spans; newlines that end paragraphs or lines end them."""
    cuts = set(_line_breaks(text))
    for m in _END.finditer(text):
        end = m.end()
        if m.group().startswith(".") and len(m.group()) == 1 and _is_abbreviation(text, m.start()):
            continue
        if _next_starts_sentence(text, end):
            cuts.add(end)
    sentences: list[Sentence] = []
    start = 0
    for cut in [*sorted(cuts), len(text)]:
        chunk = text[start:cut]
        lead = len(chunk) - len(chunk.lstrip())
        body = chunk.strip()
        if body:
            s = start + lead
            sentences.append(Sentence(len(sentences), s, s + len(body), body))
        start = cut
    return sentences


def sentence_index(sentences: list[Sentence], pos: int) -> int:
    """Index of the sentence holding offset ``pos`` (the previous one when between two)."""
    return max(0, bisect_right(sentences, pos, key=lambda s: s.start) - 1)


class Spans:
    """Character spans asked "does any overlap [start, end)?" in log time, not by a scan.

    A scan per lookup made a 1 MB article quadratic (minutes); this keeps it about linear.
    """

    def __init__(self, spans):
        self.spans = list(spans)
        order = sorted(self.spans)
        self._starts = [s for s, _ in order]
        self._reach = list(itertools.accumulate((e for _, e in order), max))

    def overlaps(self, start: int, end: int) -> bool:
        k = bisect_left(self._starts, end)  # the spans starting before ``end``
        return k > 0 and self._reach[k - 1] > start
