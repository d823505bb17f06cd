"""The dateline opening a report: "BEIRUT –", "BEIRUT (Reuters) -", "Beirut, Aug 28 (AFP) -"."""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date

from geo.extract.dates import month_number, nearest_year

# How many opening lines (a headline, a byline) may come before the dateline.
_MAX_LEAD_LINES = 4
_MONTH = (
    r"(?:January|February|March|April|May|June|July|August|September|October|November|December|"
    r"Jan|Feb|Mar|Apr|Jun|Jul|Aug|Sept|Sep|Oct|Nov|Dec)"
)
# Up to four words joined by spaces (a hyphen is part of a word: "EZ-ZOR"), an optional region,
# date and agency, then a dash. No two parts can take the same characters: a hyphen as both a
# letter and a separator, or spaces before and after an absent agency, had the regex try every
# way of splitting a line ("A-a-a-a-..." took minutes for a few hundred characters).
# Letters of any script ("SÃO PAULO", "ÇANAKKALE"): a word character that is no digit or "_".
_L = r"[^\W\d_]"
# A name's first letter: no lowercase ASCII letter (other scripts' cases are checked after).
_UP = r"[^\W\d_a-z]"
_DATELINE = re.compile(
    r"(?P<place>" + _UP + r"(?:" + _L + r"|[’'.\-])*(?: (?:" + _L + r"|[’'.\-])+){0,3}?)"
    r"(?:,\s*(?P<region>" + _UP + r"(?:" + _L + r"|\.)+(?: " + _UP + r"(?:" + _L + r"|\.)+){0,2}))?"
    r"(?:,\s*(?P<date>" + _MONTH + r"\.?\s+\d{1,2}|\d{1,2}\s+" + _MONTH + r"\.?)"
    r"(?:,?\s+(?P<year>\d{4}))?)?"
    r"\s*(?:\((?P<agency>[A-Za-z][A-Za-z .&/-]{1,30})\)\s*)?"
    r"(?:--|[–—-]|:)\s+"
)


@dataclass(frozen=True)
class Dateline:
    """A recognised dateline: its place as written and as a name, and what else it says."""

    text: str
    start: int
    end: int
    place: str
    place_text: str
    place_start: int
    place_end: int
    region: str | None
    agency: str | None
    date: date | None

    def to_dict(self) -> dict[str, object]:
        """JSON-ready mapping."""
        return {
            "text": self.text,
            "span": [self.start, self.end],
            "place": self.place,
            "place_span": [self.place_start, self.place_end],
            "region": self.region,
            "agency": self.agency,
            "date": self.date.isoformat() if self.date else None,
        }


def _title_case(name: str) -> str:
    """ "DEIR EZ-ZOR" -> "Deir Ez-Zor"; mixed-case names are kept as written."""
    if not name.isupper():
        return name
    return re.sub(r"(?:[^\W\d_]|[’'])+", lambda m: m.group().capitalize(), name.lower())


def _line_starts(text: str) -> list[int]:
    """Offsets of the first non-empty lines."""
    starts = []
    for m in re.finditer(r"^[ \t]*(?=\S)", text, re.MULTILINE):
        starts.append(m.end())
        if len(starts) >= _MAX_LEAD_LINES:
            break
    return starts


def find_dateline(text: str, published: date | None = None) -> Dateline | None:
    """The dateline at the start of one of the first lines, or None.

    An all-capitals place with a dash is enough ("BEIRUT –"); a place in ordinary case also
    needs an agency or a date ("Beirut, Aug 28 (AFP) -") so that a sentence like
    "Hezbollah - the group said" is not taken for one.
    """
    for start in _line_starts(text):
        m = _DATELINE.match(text, start)
        if not m:
            continue
        place = m.group("place").strip(" .")
        letters = re.sub(r"[\W\d_]", "", place)
        if len(letters) < 3 or not place[0].isupper():
            continue
        caps = letters.isupper()
        if not caps and not (m.group("agency") or m.group("date")):
            continue
        when = None
        if m.group("date"):
            when = _dateline_date(m.group("date"), m.group("year"), published)
        place_start = m.start("place")
        return Dateline(
            text=m.group().rstrip(),
            start=m.start(),
            end=m.start() + len(m.group().rstrip()),
            place=_title_case(place),
            place_text=place,
            place_start=place_start,
            place_end=place_start + len(place),
            region=m.group("region"),
            agency=m.group("agency"),
            date=when,
        )
    return None


def _dateline_date(day_month: str, year: str | None, published: date | None) -> date | None:
    """Date of "Aug 28" / "28 August" in a dateline, its year from the publication date."""
    parts = day_month.replace(".", " ").split()
    day_word = next(p for p in parts if p.isdigit())
    month_word = next(p for p in parts if not p.isdigit())
    month, day = month_number(month_word), int(day_word)
    try:
        if year:
            return date(int(year), month, day)
        if published is not None:
            return nearest_year(month, day, published)
        return None
    except ValueError:
        return None
