"""Borders: "the Lebanon-Syria border", "the Iraqi border", and "the border" again."""

from __future__ import annotations

import itertools
import re
from bisect import bisect_right

from geo.extract.places.match import _Match
from geo.extract.places.recognise import _Finder
from geo.extract.places.tokens import _Token, _token_range, _TokenIndex
from geo.extract.regions import CountryTable, border_place
from geo.extract.sentences import Spans
from geo.geocoders.gazetteer import Gazetteer, GazetteerPlace
from geo.names import normalize

_BORDER_WORDS = r"(?:border|frontier)(?:\s+(?:region|area|zone|crossing|strip))?"
_BORDER_PAIR = re.compile(
    r"\b(?P<a>[A-Z][\w’']+(?:\s[A-Z][\w’']+)?)\s*[-–/]\s*(?P<b>[A-Z][\w’']+(?:\s[A-Z][\w’']+)?)"
    r"\s+" + _BORDER_WORDS
)
_BORDER_BETWEEN = re.compile(
    r"\bborder\s+between\s+(?P<a>[A-Z][\w’']+(?:\s[A-Z][\w’']+)?)\s+and\s+"
    r"(?P<b>[A-Z][\w’']+(?:\s[A-Z][\w’']+)?)"
)
# "on the Iraqi border": the other side is the country the article is about.
_BORDER_ONE_SIDE = re.compile(r"\b[Tt]he\s+(?P<a>[A-Z][a-z]+)\s+(?:border|frontier)\b")
_BORDER_ANAPHOR = re.compile(r"\b[Tt]he\s+(?P<b>" + _BORDER_WORDS + r")\b")


def _border_matches(
    text: str, tokens: list[_Token], finder: _Finder, countries: CountryTable
) -> list[_Match]:
    """ "the Lebanon-Syria border", "the border between Iraq and Syria": a border place."""
    out = []
    index = _TokenIndex(tokens)
    for pattern in (_BORDER_PAIR, _BORDER_BETWEEN):
        for rm in pattern.finditer(text):
            a = countries.country(rm["a"]) or countries.demonym(rm["a"])
            b = countries.country(rm["b"]) or countries.demonym(rm["b"])
            if a is None or b is None or a == b:
                continue
            place = _story_border(finder.gaz, a.name, b.name, rm.group())
            if place is None:
                place = border_place(a.as_place(), b.as_place())
            first, last = _token_range(index, rm.start(), rm.end())
            out.append(_Match(first, last, rm.start(), rm.end(), normalize(rm.group()), [place],
                              "border"))  # fmt: skip
    for rm in _BORDER_ONE_SIDE.finditer(text):
        one = countries.demonym(rm["a"]) or countries.country(rm["a"])
        if one is None:
            continue
        first, last = _token_range(index, rm.start("a"), rm.end())
        # The other side is the country the article is most about: decided after the vote.
        out.append(_Match(first, last, rm.start("a"), rm.end(), normalize(rm.group()),
                          [one.as_place()], "one-side-border"))  # fmt: skip
    return out


def _story_border(gaz: Gazetteer | None, a: str, b: str, written: str) -> GazetteerPlace | None:
    """The story's own place for this border, if it has one under any of its spellings."""
    if gaz is None:
        return None
    for phrase in (f"{a}-{b} border", f"{b}-{a} border", written):
        story = [p for p in gaz.lookup(phrase) if p.source == "story"]
        if story:
            return story[0]
    return None


def _anaphors(text: str, tokens: list[_Token], taken: list[_Match]) -> list[_Match]:
    """ "the border" after a border was named: the same border again."""
    # Borders by end; latest[k] is the latest-starting of the first k + 1 (the nearest before).
    borders = sorted((m for m in taken if m.kind == "border"), key=lambda m: (m.end, m.start))
    ends = [b.end for b in borders]
    latest = list(itertools.accumulate(borders, lambda a, b: b if b.start >= a.start else a))
    busy = Spans((m.start, m.end) for m in taken)
    index = _TokenIndex(tokens)
    out = []
    for rm in _BORDER_ANAPHOR.finditer(text):
        k = bisect_right(ends, rm.start())
        if not k or busy.overlaps(rm.start(), rm.end()):
            continue
        near = latest[k - 1]
        first, last = _token_range(index, rm.start("b"), rm.end())
        out.append(_Match(first, last, rm.start("b"), rm.end(), near.key,
                          near.candidates, "anaphor"))  # fmt: skip
    return out
