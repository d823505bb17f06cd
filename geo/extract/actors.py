"""Actors in news text: groups, armies and states from an editable list, plus unknown units."""

from __future__ import annotations

import re
import tomllib
from bisect import bisect_left
from collections.abc import Iterator
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from geo.extract.sentences import Sentence, sentence_index

ACTORS_FILE = Path(__file__).parent / "data" / "actors.toml"

# Head words that make a capitalised phrase a group: "Abu Fadl Brigade", "Nusra Front".
_GROUP_HEADS = (
    r"Brigades?|Front|Army|Battalions?|Movement|Forces|Regiment|Division|Corps|Party|Militia|"
    r"Council|Committees?|Organi[sz]ation|Group|Guards?|Units|Mobili[sz]ation|Legion|Brotherhood"
)
# Capitalised words that start sentences or name times, never part of a group's name.
_NOT_NAME = frozenset(
    [
        "The", "A", "An", "On", "In", "At", "By", "For", "From", "Of", "To", "With", "And",
        "Or", "But", "As", "After", "Before", "During", "Since", "Its", "Their", "His",
        "Her", "This", "That", "These", "Those", "Both", "Two", "Three", "Monday",
        "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday", "January",
        "February", "March", "April", "May", "June", "July", "August", "September",
        "October", "November", "December", "When", "While", "Meanwhile", "Earlier", "Later",
        "Today", "Yesterday",
    ]
)  # fmt: skip
# Name words: capitalised, Arabic-article ("al-Abbas") or ordinal ("93rd").
_CAPWORD = (
    r"(?:[A-Z][\w’'-]*|(?:al|el|ad|ash|as|at|az|ar|ibn|bin)-[A-Z][\w’'-]*|\d+(?:st|nd|rd|th))"
)
_GENERIC = re.compile(
    r"\b(?:" + _CAPWORD + r"\s+){1,4}(?:" + _GROUP_HEADS + r")\b"
    r"|\b(?:" + _GROUP_HEADS + r")\s+of\s+(?:the\s+)?" + _CAPWORD + r"(?:\s+" + _CAPWORD + r")?"
)


@dataclass(frozen=True)
class Actor:
    """One actor of the editable list."""

    name: str
    kind: str
    aliases: tuple[str, ...]


@dataclass(frozen=True)
class ActorMention:
    """An actor named in the text, with its span and sentence."""

    name: str
    text: str
    start: int
    end: int
    sentence: int
    kind: str
    listed: bool

    @property
    def span(self) -> tuple[int, int]:
        """[start, end) character offsets in the article text."""
        return (self.start, self.end)

    def to_dict(self) -> dict[str, object]:
        """JSON-ready mapping."""
        return {
            "name": self.name,
            "text": self.text,
            "span": [self.start, self.end],
            "sentence": self.sentence,
            "kind": self.kind,
            "listed": self.listed,
        }


def load_actors(path: str | Path | None = None) -> tuple[Actor, ...]:
    """Actors from a TOML file of ``[[actor]]`` tables (the bundled list by default)."""
    return _load_actors(str(path or ACTORS_FILE))


@lru_cache(maxsize=8)
def _load_actors(path: str) -> tuple[Actor, ...]:
    with open(path, "rb") as fh:
        data = tomllib.load(fh)
    actors = []
    for row in data.get("actor", []):
        aliases = tuple(dict.fromkeys([row["name"], *row.get("aliases", [])]))
        actors.append(Actor(row["name"], row.get("kind", "armed-group"), aliases))
    return tuple(actors)


def _alias_pattern(alias: str) -> str:
    """Regex for one alias: flexible spaces and hyphens, exact case for short acronyms."""
    parts = [re.escape(p) for p in re.split(r"[\s-]+", alias)]
    body = r"[\s-]+".join(parts)
    if alias.isupper() and len(alias.replace(".", "")) <= 5:
        return r"(?-i:" + body + r")"
    return body


@dataclass(frozen=True)
class _ActorMatcher:
    """The alias alternation, split by first letter so a word tries only its letter's aliases.

    ``finditer`` gives the matches of ``pattern.finditer``: every match starts at a word start
    (the lookbehind) with an alias's first letter (``starts`` finds those); there, only the
    aliases beginning with that letter can match, tried in the same order. A non-ASCII letter
    (case-insensitive matching folds some onto ASCII ones), or any letter when an alias starts
    with one, tries the whole alternation.
    """

    pattern: re.Pattern[str]
    groups: dict[str, Actor]
    starts: re.Pattern[str]
    by_letter: dict[str, re.Pattern[str]]

    def finditer(self, text: str) -> Iterator[re.Match[str]]:
        """Leftmost, non-overlapping alias matches in text order."""
        pos = 0
        for start in self.starts.finditer(text):
            at = start.start()
            if at < pos:
                continue
            letter = start.group()
            pattern = self.pattern
            if letter.isascii():
                pattern = self.by_letter.get(letter.lower(), pattern)
            m = pattern.match(text, at)
            if m is not None:
                yield m
                pos = m.end()


def _alternation(branches: list[str]) -> re.Pattern[str]:
    # \w lookarounds rather than \b: aliases such as "U.S." end with a non-word character.
    body = "|".join(branches)
    return re.compile(r"(?<![\w-])(?:" + body + r")(?![\w-]|-led)", re.IGNORECASE)


@lru_cache(maxsize=8)
def _actor_regex(actors: tuple[Actor, ...]) -> _ActorMatcher:
    """One alternation over every alias, longest first, and the group name -> actor map."""
    groups: dict[str, Actor] = {}
    branches: list[tuple[int, str, str]] = []
    for i, actor in enumerate(actors):
        for j, alias in enumerate(actor.aliases):
            if not alias:
                continue
            key = f"a{i}_{j}"
            groups[key] = actor
            branches.append((len(alias), alias[0], f"(?P<{key}>{_alias_pattern(alias)})"))
    branches.sort(key=lambda b: -b[0])
    by_letter: dict[str, list[str]] = {}
    if all(first.isascii() for _, first, _ in branches):
        for _, first, branch in branches:
            by_letter.setdefault(first.lower(), []).append(branch)
    firsts = "".join(sorted({re.escape(first) for _, first, _ in branches}))
    return _ActorMatcher(
        _alternation([b for _, _, b in branches]),
        groups,
        re.compile(r"(?<![\w-])[" + (firsts or r"^\s\S") + "]", re.IGNORECASE),
        {k: _alternation(v) for k, v in by_letter.items()},
    )


def _trim_generic(text: str, start: int, end: int) -> tuple[int, int] | None:
    """Drop leading sentence words ("The", "On", weekdays) from a generic group match."""
    words = list(re.finditer(r"\S+", text[start:end]))
    # "Ukraine's 93rd Brigade": the owner is not part of the unit's name.
    owners = [k for k, w in enumerate(words) if w.group().endswith(("'s", "’s"))]
    first = owners[-1] + 1 if owners else 0
    for k, w in enumerate(words[first:], start=first):
        if w.group() not in _NOT_NAME:
            new_start = start + w.start()
            # A head word alone ("Army") is not a name.
            return (new_start, end) if k < len(words) - 1 or " of " in text[new_start:end] else None
    return None


def find_actors(
    text: str, sentences: list[Sentence] | None = None, actors: tuple[Actor, ...] | None = None
) -> list[ActorMention]:
    """Listed actors and capitalised unit names ("X Brigade") in text order."""
    matcher = _actor_regex(actors or load_actors())
    groups = matcher.groups
    found: list[ActorMention] = []
    taken: list[tuple[int, int]] = []
    for m in matcher.finditer(text):
        actor = groups[m.lastgroup or ""]
        idx = sentence_index(sentences, m.start()) if sentences else 0
        found.append(ActorMention(actor.name, m.group(), m.start(), m.end(), idx, actor.kind, True))
        taken.append((m.start(), m.end()))
    for m in _GENERIC.finditer(text):
        trimmed = _trim_generic(text, m.start(), m.end())
        if trimmed is None:
            continue
        start, end = trimmed
        # taken is sorted and never overlaps itself: only the neighbours can overlap. It holds
        # the listed actors only: the generic matches never overlap one another (an insertion
        # of each moved the whole list along).
        k = bisect_left(taken, (start, end))
        if (k and taken[k - 1][1] > start) or (k < len(taken) and taken[k][0] < end):
            continue
        name = text[start:end]
        idx = sentence_index(sentences, start) if sentences else 0
        found.append(ActorMention(name, name, start, end, idx, "armed-group", False))
    found += _described_actors(text, sentences, taken + [(a.start, a.end) for a in found])
    found.sort(key=lambda a: a.start)
    return found


# Actors no list holds, named by how news describes them: "Sudan's army", "Kenyan police",
# "the Rapid Support Forces (RSF)" then "RSF", "General Abdel Fattah al-Burhan" then "Burhan".
_FORCE = (r"(?P<force>army|military|armed forces|police|government|security forces|navy"
          r"|air force|junta|presidential guard|electoral commission|troops|soldiers)")  # fmt: skip
_OWNED_FORCE = re.compile(r"\b(?P<owner>[A-Z][a-z]+(?: [A-Z][a-z]+)?)['’]s " + _FORCE + r"\b")
_DEMONYM_FORCE = re.compile(
    r"\b(?P<owner>[A-Z][a-z]+(?:an|ian|ese|i|ish|ch|ic))\s+" + _FORCE + r"\b"
)
_DEFINED = re.compile(
    r"\b(?P<name>(?:[A-Z][\w’'-]+\s+(?:of\s+|for\s+|and\s+)?){1,6}[A-Z][\w’'-]+)\s+"
    r"\((?P<abbr>[A-Z]{2,6})\)"
)
_TITLED = re.compile(
    r"\b(?:President|General|Gen\.|Lt\.? Gen\.|Lieutenant General|Prime Minister|Colonel|Col\."
    r"|Major|Maj\.|Captain|Capt\.|army chief|commander|warlord|opposition leader)\s+"
    r"(?P<name>(?:[A-Z][\w’'-]+\s+){0,3}(?:(?:al|el)-)?[A-Z][\w’'-]+)"
)
_INSTITUTION_WORDS = frozenset({
    "Security", "Staff", "Assembly", "Command", "Intelligence", "Directorate", "Council",
    "Secretary", "Court", "Hospital", "Headquarters", "Authority", "Service", "Services",
    "Office", "Ministry", "Committee", "Agency", "Motors",
})  # fmt: skip
# The most named actors whose short names are then looked for (one alternation of them).
_MAX_DESCRIBED = 50


def _described_actors(
    text: str, sentences: list[Sentence] | None, taken: list[tuple[int, int]]
) -> list[ActorMention]:
    """Actors named by description, and their later short names, outside ``taken`` spans."""
    busy = sorted(taken)

    def free(start: int, end: int) -> bool:
        k = bisect_left(busy, (start, end))
        return not ((k and busy[k - 1][1] > start) or (k < len(busy) and busy[k][0] < end))

    out: list[ActorMention] = []
    short: dict[str, tuple[str, str]] = {}  # short name -> (actor name, kind)

    def add(name: str, start: int, end: int, kind: str) -> None:
        if not free(start, end):
            return
        idx = sentence_index(sentences, start) if sentences else 0
        out.append(ActorMention(name, text[start:end], start, end, idx, kind, False))
        busy.insert(bisect_left(busy, (start, end)), (start, end))

    for m in _DEFINED.finditer(text):
        name = m.group("name")
        first = name.split()[0]
        if first in _NOT_NAME:
            name = name[len(first) :].strip()
        if " " not in name:
            continue
        add(name, m.start("name") + m.group("name").index(name), m.end(), "organisation")
        if len(short) < _MAX_DESCRIBED:
            short.setdefault(m.group("abbr"), (name, "organisation"))
    for pattern, kind in ((_OWNED_FORCE, "army"), (_DEMONYM_FORCE, "army")):
        for m in pattern.finditer(text):
            owner, force = m.group("owner"), m.group("force").lower()
            if owner in _NOT_NAME:
                continue
            kind_here = "government" if force in ("government", "electoral commission") else kind
            owned = pattern is _OWNED_FORCE
            name = f"{force} of {owner}" if owned else f"{owner} {force}"
            # "Ukraine's military", "Turkish troops": the span is the force; the owner stays a
            # word the place finder reads (a possessive before an actor's noun, a demonym).
            add(name[0].upper() + name[1:], m.start("force"), m.end(), kind_here)
    for m in _TITLED.finditer(text):
        name = m.group("name")
        if name.split()[-1] in _INSTITUTION_WORDS:
            continue  # "General Security", "Army Command": an institution, not a person
        add(name, m.start("name"), m.end("name"), "person")
        last = re.sub(r"^(?:al|el)-", "", name.split()[-1])
        if len(short) < _MAX_DESCRIBED and len(last) > 2:
            short.setdefault(last, (name, "person"))
    if short:
        names = "|".join(re.escape(k) for k in sorted(short, key=len, reverse=True))
        later = re.compile(r"(?<![\w-])(?:(?:al|el)-)?(" + names + r")(?![\w-])")
        for m in later.finditer(text):
            name, kind = short[m.group(1)]
            add(name, m.start(), m.end(), kind)
    return out
