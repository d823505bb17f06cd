"""Draft events: one per sentence that names a place and can be dated, for a person to rewrite."""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date

from geo.extract.actors import ActorMention
from geo.extract.dates import DateMention
from geo.extract.figures import Figure
from geo.extract.places import PlaceMention
from geo.extract.sentences import Sentence

# First matching category wins: the specific before the general.
CATEGORY_KEYWORDS: tuple[tuple[str, str], ...] = (
    ("prisoner-swap", r"\b(?:swap|prisoner exchange|exchanged?"
                      r"|exchange (?:of )?(?:the )?(?:bodies|prisoners|captives))\b"),
    ("remains-found", r"\b(?:remains (?:were |was )?(?:found|discovered|recovered|identified)"
                      r"|mass grave|bodies (?:were )?(?:found|discovered|recovered))\b"),
    ("funeral", r"\b(?:funerals?|buried|burial|mourn(?:ers|ed|ing)?)\b"),
    ("celebration", r"\b(?:celebrat\w*|festivit\w*|rall(?:y|ies)|parade)\b"),
    ("ceasefire", r"\b(?:cease-?fire|truce|halt (?:to|in) (?:the )?fighting"
                  r"|agreed|agreements?|(?:struck|reached|signed) (?:a |an |the )?deal)\b"),
    ("convoy", r"\b(?:convoys?|buses)\b"),
    ("evacuation", r"\b(?:evacuat\w*|withdr[ae]w\w*|withdrawal|fled|displaced|rescue\w*)\b"),
    ("handover", r"\b(?:hand(?:ed|ing|s)? over|handover|turned over|surrender\w*)\b"),
    ("airstrike", r"\b(?:air ?strikes?|air-strikes?|air raids?|warplanes?|bomb(?:ed|ing|ings|s)"
                  r"|drones?|missiles?|struck|strikes?)\b"),
    ("captives", r"\b(?:captiv\w*|hostages?|kidnapp\w*|abduct\w*|detain\w*"
                 r"|captured \d+|captured (?:\w+ )?(?:fighters|soldiers|militants|men))\b"),
    # Ground taken: "captured Baghuz", "seized the town", "fell to the SDF".
    ("offensive", r"\b(?:captur(?:ed|es|ing)|seiz(?:ed|es|ing)|recaptur\w*|retook|retaken"
                  r"|overr(?:an|un)|storm(?:ed|ing)|liberat(?:ed|ing|ion)|took control"
                  r"|fell to|fall of)\b"),
    ("casualties", r"\b(?:killed|wounded|injured|dead|death toll|died|casualties)\b"),
    ("speech", r"\b(?:speech|televised|address(?:ed)?|sermon)\b"),
    ("offensive", r"\b(?:offensives?|launched|advance[ds]?|assault|push(?:ed)? into)\b"),
    ("battle", r"\b(?:battles?|clash(?:es|ed)?|fight(?:ing)?|fought|shell(?:ing|ed|s)?|rockets?"
               r"|mortars?|floods?|flooding)\b"),
)  # fmt: skip
_CATEGORY_RES = tuple((c, re.compile(p, re.IGNORECASE)) for c, p in CATEGORY_KEYWORDS)
# The sentence speaks of the present: the article's own date fits it.
_PRESENT = re.compile(
    r"\b(?:is|are|has|have|says|said|told|announced|declared|stated|added|remains?|continues?|"
    r"ends|marks|now|currently)\b",
    re.IGNORECASE,
)
_SAID_IN = re.compile(
    r"\b(?:said|says|told \w+|speaking|spoke|announced|declared)\s+(?:\w+\s+){0,2}"
    r"(?:in|from)\s+(?:the\s+)?$",
    re.IGNORECASE,
)
# The most words a _SAID_IN match has: "told reporters later today in the".
_SAID_IN_WORDS = 6
_WORD = re.compile(r"\w+")
# Tiers for picking the event's place: points before areas before countries; the first
# named within a tier (news leads with where things happened).
_AREA_KINDS = frozenset({"area", "region", "border"})
# Figures by what they count -> events.csv columns.
_COLUMNS = {
    "militants": "militants", "civilians": "civilians", "people": "people",
    "captives": "captives", "bodies": "remains", "buses": "buses", "vehicles": "vehicles",
    "ambulances": "vehicles", "km2": "area_km2",
}  # fmt: skip


@dataclass(frozen=True)
class DraftEvent:
    """A draft event from one sentence: its place, dates, category and figures."""

    sentence: int
    date: date
    end_date: date
    date_basis: str  # "sentence": a date in the sentence; "published": the article's date
    date_text: str | None
    place: PlaceMention
    other_places: tuple[PlaceMention, ...]
    category: str
    actors: tuple[str, ...]
    figures: tuple[Figure, ...]
    summary: str
    needs_rewrite: bool = True

    def counts(self) -> dict[str, int]:
        """Figures summed into events.csv columns (killed, wounded, militants, ...)."""
        out: dict[str, int] = {}
        for f in self.figures:
            column = "killed" if f.killed else "wounded" if f.wounded else _COLUMNS.get(f.what)
            if column is None:
                continue
            out[column] = out.get(column, 0) + int(f.value)
        return out

    def to_dict(self) -> dict[str, object]:
        """JSON-ready mapping."""
        return {
            "sentence": self.sentence,
            "date": self.date.isoformat(),
            "end_date": self.end_date.isoformat(),
            "date_basis": self.date_basis,
            "date_text": self.date_text,
            "place": {
                "name": self.place.name,
                "place_id": self.place.place_id,
                "lat": self.place.lat,
                "lon": self.place.lon,
                "radius_m": self.place.radius_m,
                "country": self.place.country,
            },
            "other_places": [p.name for p in self.other_places],
            "category": self.category,
            "actors": list(self.actors),
            "figures": [f.to_dict() for f in self.figures],
            "counts": self.counts(),
            "summary": self.summary,
            "needs_rewrite": self.needs_rewrite,
        }


def guess_category(sentence: str) -> str:
    """Event category from keywords; ``statement`` when none matches."""
    for category, pattern in _CATEGORY_RES:
        if pattern.search(sentence):
            return category
    return "statement"


def _specificity(p: PlaceMention, sentence: Sentence) -> tuple[int, int]:
    if p.kind == "country":
        tier = 2
    elif p.kind in _AREA_KINDS or p.source == "derived":
        tier = 1
    else:
        tier = 0
    # "the government said in Damascus that ...": where it was said, not where it happened.
    if _said_in_before(sentence.text, (p.start or 0) - sentence.start):
        tier += 3
    return (tier, p.start or 0)


def _said_in_before(text: str, end: int) -> bool:
    """Whether ``_SAID_IN`` matches ``text[:end]``, searched in its last words only.

    A match is words and the spaces between them, at most ``_SAID_IN_WORDS`` words, and ends
    the text: it starts at one of the last ones. Searching the whole text before every place
    made a long sentence quadratic.
    """
    end = min(max(0, end), len(text))
    start = max(0, end - 128)
    while True:
        runs = [m.start() for m in _WORD.finditer(text, start, end)]
        # The first run may be cut by the window; the last _SAID_IN_WORDS ones are whole.
        if len(runs) > _SAID_IN_WORDS:
            start = runs[-_SAID_IN_WORDS]
            break
        if start == 0:
            break
        start = max(0, end - 4 * (end - start))
    return _SAID_IN.search(text[start:end]) is not None


def _date_for(dates: list[DateMention], place: PlaceMention) -> DateMention | None:
    """The sentence's date nearest the place, day-level dates first."""
    if not dates:
        return None
    anchor = place.start or 0

    def key(d: DateMention) -> tuple[int, int]:
        level = {"day": 0, "week": 1, "month": 2}.get(d.granularity, 3)
        return (level, abs(d.start - anchor))

    return min(dates, key=key)


def _by_sentence(items) -> dict[int, list]:
    out: dict[int, list] = {}
    for item in items:
        out.setdefault(item.sentence, []).append(item)
    return out


def draft_events(
    sentences: list[Sentence],
    published: date,
    places: list[PlaceMention],
    dates: list[DateMention],
    figures: list[Figure],
    actors: list[ActorMention],
) -> list[DraftEvent]:
    """One draft event per sentence with a place (the dateline aside) and a date."""
    # Grouped once: filtering every list for every sentence made long articles quadratic.
    by = {
        name: _by_sentence(items)
        for name, items in (("places", places), ("dates", dates), ("figures", figures))
    }
    actors_by = _by_sentence(actors)
    events = []
    for s in sentences:
        here = [p for p in by["places"].get(s.index, []) if p.via != "dateline"]
        if not here:
            continue
        place = min(here, key=lambda p, s=s: _specificity(p, s))
        when = _date_for(by["dates"].get(s.index, []), place)
        if when is not None:
            first, last, basis, date_text = when.date, when.end_date, "sentence", when.text
        elif _PRESENT.search(s.text):
            first, last, basis, date_text = published, published, "published", None
        else:
            continue
        others = tuple(p for p in here if p is not place and p.name != place.name)
        events.append(
            DraftEvent(
                sentence=s.index,
                date=first,
                end_date=last,
                date_basis=basis,
                date_text=date_text,
                place=place,
                other_places=tuple(dict((p.name, p) for p in others).values()),
                category=guess_category(s.text),
                actors=tuple(dict.fromkeys(a.name for a in actors_by.get(s.index, []))),
                figures=tuple(by["figures"].get(s.index, [])),
                summary=s.text,
            )
        )
    return events
