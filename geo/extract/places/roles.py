"""A place's role in its sentence: where something happens, or who acts."""

from __future__ import annotations

import re
from dataclasses import replace

from geo.extract.places.records import PlaceMention


def _roles(text: str, found: list[PlaceMention]) -> list[PlaceMention]:
    """The mentions with their roles: a possessive or speaking country stays the place of its
    sentence when the sentence names no other ("Myanmar's military took control of the
    country"), and is an actor beside another ("Russia's invasion of Ukraine")."""
    out = [p if p.role != "place" else _with_role(text, p) for p in found]
    placed_in: dict[int, int] = {}
    for p in out:
        if p.role == "place" and p.via != "dateline":
            placed_in[p.sentence] = placed_in.get(p.sentence, 0) + 1
    return [
        replace(p, role="place")
        if p.role == "actor" and p.kind == "country" and not placed_in.get(p.sentence)
        else p
        for p in out
    ]


# After a name: what makes it a description ("US-led"), a model ("Mi-35"), a possessive actor
# ("Moscow's invasion") or a speaking one ("Washington said"). A model's name is letters then
# digits ("Mi-35", "Su-25", "T-72"); a hyphen and a year after a place is no model, but a
# place's name never runs straight into digits.
_MODIFIER_AFTER = re.compile(
    r"[-‐‑](?:led|backed|based|funded|brokered|sponsored|allied|aligned|supported"
    r"|born|made|owned|run|controlled|bound|registered|flagged)\b",
    re.IGNORECASE,
)
_PRODUCT_AFTER = re.compile(r"(?:[-‐‑]\d{1,3}(?!\d)|\d)")
_ACTOR_NOUNS = (
    "invasion|decision|government|govt|military|army|armed forces|forces|troops|president"
    "|prime minister|premier|foreign minister|foreign ministry|defen[cs]e minister|ministry"
    "|leader|leaders|leadership|officials|ambassador|envoy|allies|ally|plan|policy|stance"
    "|response|support|backing|sanctions|offensive|campaign|strategy|regime|administration"
    "|embassy|intelligence|navy|air force|central bank|parliament|top court|supreme court"
    "|state media|state television|state news agency|foreign policy|demands|refusal|threat"
    "|threats|move|bid|claim|claims|efforts|aid|help|backers|proxies|spy|spies|drones"
    "|missiles|jets|warplanes|attack on|war on|annexation|occupation|withdrawal from"
)
_POSSESSIVE_ACTOR = re.compile(r"(?:'s|’s|')\s+(?:(?:new|top|own|latest|former|senior"
                               r"|chief|main|\w+-\w+)\s+)?(?:" + _ACTOR_NOUNS + r")\b",
                               re.IGNORECASE)  # fmt: skip
_SPEAKS_AFTER = re.compile(
    r"\s+(?:has\s+|had\s+|have\s+|also\s+|later\s+|quickly\s+)?(?:said|says|warned|announced"
    r"|accused|denied|claimed|insisted|demanded|urged|vowed|threatened|condemned|rejected"
    r"|responded|retaliated|protested|pledged|promised|sanctioned|recalled|summoned|expelled"
    r"|blamed|welcomed|praised|criticised|criticized|called on|asked|told)\b",
    re.IGNORECASE,
)
_SPEAKING_KINDS = frozenset({"country", "city"})
# Capitalised words after a name that make it part of a body's name ("US Geological Survey",
# "Kentucky State Police"): recognised, but no happening's place.
_ORGANISATION_AFTER = re.compile(
    r"\s+(?:[A-Z][a-z]+\s+){0,3}(?:Survey|Agency|Service|Department|Ministry|Police|Commission"
    r"|Council|Institute|Center|Centre|Office|Bureau|Authority|Administration|Organi[sz]ation"
    r"|Network|Networks|Corporation|Company|University|Committee|Court)\b"
)


def _with_role(text: str, p: PlaceMention) -> PlaceMention:
    """The mention with its role read from the words right after it."""
    if p.end is None or p.via == "dateline":
        return p
    after = text[p.end : p.end + 60]
    possessive = _POSSESSIVE_ACTOR.match(after)
    if possessive or (p.kind in _SPEAKING_KINDS and _SPEAKS_AFTER.match(after)):
        return replace(p, role="actor")
    if _ORGANISATION_AFTER.match(after):
        return replace(p, role="actor")  # "US Geological Survey": a body's name, not a place
    return p
