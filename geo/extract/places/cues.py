"""Words and structure that make an unknown capitalised name a place (issue 24: a name that
cannot be placed is left unplaced for the editor, never dropped): a feature word in its name
("the Suchite River", "Mount Parnitha"), an apposition ("Avantas, a village close by"; "her
village, Buulo Warbo,"), a list after a plural feature word ("two rivers, the Buzi and the
Pungue"), a distance from a place ("X lies 140km southeast of Y") or "at X in Y"; and the
place a phrase right after the name puts it in (", in Malappuram", ", on the edge of Athens").
"""

from __future__ import annotations

import re

from geo.extract.places.tokens import _Token

# Capitalised words that end a feature's name, and the kind of place each names.
NAMED_FEATURES = {
    "river": "river", "island": "island", "islands": "island", "dam": "dam", "square": "square",
    "bridge": "bridge", "lake": "lake", "camp": "camp", "palace": "building",
    "mountain": "mountain", "mountains": "mountains", "hills": "hills", "valley": "valley",
    "forest": "forest", "canal": "river", "reservoir": "lake", "bay": "bay", "beach": "beach",
    "peninsula": "area", "gorge": "valley", "creek": "river", "volcano": "mountain",
}  # fmt: skip
# Not "Airport": "Pearson International Airport" is named for a person or a town, and in the
# geoparsing corpora the airports named so are scored at their points, which an unplaced name
# never has (TR-News Acc@161 .881 -> .879 with them).
# Capitalised words that begin one ("Mount Parnitha", "Lake Kivu").
LEAD_FEATURES = {"mount": "mountain", "mt": "mountain", "lake": "lake"}
# Words that make a run with a feature word an institution, not a place ("Mount Sinai
# Hospital", "Lake Forest College").
_INSTITUTIONS = frozenset(
    {"hospital", "school", "university", "college", "church", "mosque", "hotel", "club",
     "company", "bank", "group", "institute", "academy", "fc", "united", "city", "elementary",
     "primary", "secondary", "high", "middle", "racecourse", "stadium", "centre", "center"}
)  # fmt: skip
# Number words a feature's name may hold ("Three Powers Square", "Three Gorges Dam").
NUMBER_WORDS = frozenset(
    {"two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "twelve"}
)
# "Avantas, a village close by", "Rampura, a residential neighbourhood": what a place is.
_SETTLEMENT = (
    r"village|town|hamlet|settlement|neighbou?rhood|suburb|district|city|island|camp|"
    r"township|slum|locality|community"
)
# The word ends the phrase or a preposition follows ("a village close by", "a town in ..."):
# "Lopez, a town official" is no place.
_APPOSITION_AFTER = re.compile(
    rf",\s+(?:a|an)\s+(?:[a-z][\w-]*\s+){{0,2}}(?:{_SETTLEMENT})"
    r"(?=\s*[,.;:)]|\s+(?:in|of|near|close|on|outside|where|that|which|about|some|just|around|"
    r"by|along|north|south|east|west|northeast|northwest|southeast|southwest)\b)"
)
# "her village, Buulo Warbo,": the same, before the name.
_APPOSITION_BEFORE = re.compile(rf"\b(?:{_SETTLEMENT}|hometown),\s+$")
# "Two large rivers, the Buzi and the Pungue": names listed after a plural feature word.
_PLURALS = {"rivers": "river", "islands": "island", "lakes": "lake", "villages": "village",
            "towns": "town", "dams": "dam", "mountains": "mountain", "camps": "camp"}  # fmt: skip
_LIST_BEFORE = re.compile(
    r"\b(" + "|".join(_PLURALS) + r"),?\s+(?:(?:the\s+)?[A-Z][\w'’-]*(?:,\s+|\s+(?:and|or)\s+))*"
    r"(?:the\s+)?$"
)
# "Buulo Warbo lies more than 140km southeast of Mogadishu".
_DISTANCE_AFTER = re.compile(
    r"\s+(?:lies|is|sits|stands)\s+(?:(?:about|some|around|nearly|roughly|more\s+than|"
    r"less\s+than|just)\s+)*[\d.,]+\s*(?:km|kms|kilometres|kilometers|miles|mi)\b"
)
# ", in Malappuram", ", on the edge of Athens": the words that put a name in a place after it.
PLACE_AFTER = re.compile(
    r",?\s+(?:in|near|outside|inside|on\s+the\s+(?:edge|outskirts|fringes)\s+of|"
    r"(?:just\s+)?(?:north|south|east|west|northeast|northwest|southeast|southwest)\s+of)"
    r"\s+(?:the\s+)?"
)


def feature_kind(tokens: list[_Token], first: int, last: int) -> str | None:
    """The kind of place a capitalised feature word in the run names: the last word ("the
    Suchite River", "Siargao Island") or the first ("Mount Parnitha"); None without one."""
    if last <= first:
        return None
    tail, lead = tokens[last], tokens[first]
    before = tokens[first - 1] if first > 0 else None
    if before is not None and before.cap and before.joins_next and not before.first_in_sentence:
        return None  # the end of a longer name: "Da Nang International Airport"
    if tail.cap and tail.key in NAMED_FEATURES:
        kind = NAMED_FEATURES[tail.key]
    elif lead.cap and lead.key in LEAD_FEATURES:
        kind = LEAD_FEATURES[lead.key]
    else:
        return None
    return None if any(t.key in _INSTITUTIONS for t in tokens[first : last + 1]) else kind


def structure_cue(text: str, tokens: list[_Token], first: int, last: int) -> str | None:
    """The kind of place an apposition, a list after a plural feature word or a distance says
    the name is ("village" for a plain one), or None when nothing around it says so."""
    start, end = tokens[first].start, tokens[last].end
    # The same sentence only: at most the text since the name's sentence began.
    line_start = start
    while line_start > 0 and start - line_start < 80 and text[line_start - 1] not in ".!?\n":
        line_start -= 1
    before = text[line_start:start]
    after = text[end : end + 60]
    if _APPOSITION_AFTER.match(after) or _APPOSITION_BEFORE.search(before):
        return "village"
    listed = _LIST_BEFORE.search(before)
    if listed:
        return _PLURALS[listed.group(1).lower()]
    if _DISTANCE_AFTER.match(after):
        return "village"
    return None


def at_in(text: str, tokens: list[_Token], first: int, last: int) -> bool:
    """ "turned up at Pothukal in Malappuram": a name after "at" with "in" and a capitalised
    name after it (the caller checks that one is a place)."""
    before = tokens[first - 1] if first > 0 else None
    return (
        before is not None
        and before.key == "at"
        and not before.cap
        and not any(t.key in _INSTITUTIONS for t in tokens[first : last + 1])
        and re.match(r"\s+in\s+[A-Z]", text[tokens[last].end : tokens[last].end + 6]) is not None
    )


# A landmark news names by what it is, not by a name: "the presidential palace in Brasilia",
# "Khartoum's presidential palace". Lowercase: "the Presidential Palace" is a name, read above.
LANDMARK = re.compile(r"\b(?:presidential|royal)\s+(?:palace|residence)\b")
# "the palace said": the landmark speaks for who is in it.
_SPEAKS_AFTER = re.compile(r"\s+(?:said|says|announced|denied|confirmed|stated)\b")


def landmark_spans(text: str) -> list[tuple[int, int, int | None, int | None]]:
    """Each landmark's span, with the span of the text that ties it to a place: the name
    before "'s" ("Khartoum's") or after "in" (start, None: the caller finds what starts
    there), or (None, None) when nothing does."""
    out: list[tuple[int, int, int | None, int | None]] = []
    for m in LANDMARK.finditer(text):
        if _SPEAKS_AFTER.match(text, m.end()):
            continue
        owner = re.search(r"(\w+)['’]s\s+$", text[max(0, m.start() - 40) : m.start()])
        if owner:
            end = m.start() - len(owner.group()) + len(owner.group(1))
            out.append((m.start(), m.end(), None, end))
            continue
        after = re.match(r"\s+in\s+(?=[A-Z])", text[m.end() : m.end() + 8])
        if after:
            out.append((m.start(), m.end(), m.end() + after.end(), None))
            continue
        out.append((m.start(), m.end(), None, None))
    return out
