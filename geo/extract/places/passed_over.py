"""The capitalised names looked at and let go, for the editor to add by hand."""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Callable

from geo.extract.actors import ActorMention
from geo.extract.places.match import _Match
from geo.extract.places.records import PassedOver
from geo.extract.places.tokens import _Token
from geo.extract.places.words import WordLists
from geo.names import ARTICLES

# The finder's reasons for a known name that say it is no name a reader takes for a place:
# a common word, an acronym, an adjective, a model, a word opening a sentence.
_NOT_A_NAME = frozenset({"stopword", "acronym", "demonym", "product", "sentence-start"})
_REASON_WORDS = {"not-a-place-after": "disease", "short-alternate": "alternate name"}


def _reject_known(m: _Match, reasons: list[str], rejected: list[tuple[int, int, str]]) -> None:
    """Note a name the gazetteer knows that the finder let go, unless a reason says it is no
    name at all (a common word, an acronym, a word opening a sentence)."""
    target = m.base if m.base is not None else m
    # Borders and anaphors ("the Syrian border", "the border") are phrases, not names.
    if target.kind not in ("story", "country", "geonames", "area") or target.first < 0:
        return
    if any(r in _NOT_A_NAME for r in reasons):
        return
    rejected.append((target.first, target.last, _REASON_WORDS.get(reasons[0], reasons[0])))


def _actor_kinds(actors: list[ActorMention]) -> Callable[[int, int], str]:
    """The kind of the last actor starting before ``end`` when it overlaps [start, end), else
    "": one bisection, not a scan of the actors per name."""
    listed = sorted((a.start, a.end, a.kind) for a in actors if a.kind != "state")
    starts = [a[0] for a in listed]

    def kind(start: int, end: int) -> str:
        k = bisect_left(starts, end) - 1  # the last actor starting before ``end``
        return listed[k][2] if k >= 0 and listed[k][1] > start else ""

    return kind


# What before a word makes it open a clause as a sentence's first word does: a dateline's dash
# ("BEIRA — Hundreds of"), a colon, an opening quote or bracket.
_OPENERS = frozenset("—–-:\"“‘'(")


def _opens(text: str, tokens: list[_Token], i: int) -> bool:
    """Whether token ``i`` opens a sentence, a line or a clause after a dash or quote."""
    if tokens[i].first_in_sentence or i == 0:
        return True
    gap = text[tokens[i - 1].end : tokens[i].start]
    return "\n" in gap or gap.rstrip()[-1:] in _OPENERS


def _passed_over(
    text: str, tokens: list[_Token], rejected: list[tuple[int, int, str]], words: WordLists
) -> list[PassedOver]:
    """The rejected names as records, in text order, none overlapping another.

    A single word opening a sentence (or a line, or a clause after a dash) is kept only when
    the article also writes it capitalised elsewhere: otherwise it is as likely an ordinary
    word ("Residents fled", "BEIRA — Hundreds of"). Plurals of stopwords ("on Thursdays") are
    common words too.
    """
    mid: set[str] | None = None  # keys written capitalised inside a clause, when first asked
    kept: list[tuple[int, int, str]] = []
    for first, last, reason in sorted(rejected, key=lambda r: (r[0], -r[1])):
        key = tokens[first].key
        if first == last and key.endswith("s") and key[:-1] in words.stopwords:
            continue
        if first == last and _opens(text, tokens, first):
            if mid is None:
                mid = {t.key for k, t in enumerate(tokens) if t.cap and not _opens(text, tokens, k)}
            if key not in mid:
                continue
        if kept and first <= kept[-1][1]:
            continue  # inside a longer name already noted
        prev = kept[-1] if kept else None
        # "Hammam" and "al-Alil" are read as two runs: one name when an article joins them.
        # "title" only says the first is part of a longer name; the rest tells that name's fate.
        if (
            prev is not None and prev[1] + 1 == first and tokens[prev[1]].joins_next
            and not tokens[first].cap and tokens[first].key in ARTICLES
        ):  # fmt: skip
            kept[-1] = (prev[0], last, reason if prev[2] == "title" else prev[2])
            continue
        kept.append((first, last, reason))
    return [
        PassedOver(text[tokens[f].start : tokens[la].end], tokens[f].start, tokens[la].end, r)
        for f, la, r in kept
    ]
