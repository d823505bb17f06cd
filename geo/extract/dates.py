"""Date mentions in news text: absolute, weekday, relative, durations and years, with spans."""

from __future__ import annotations

import calendar
import heapq
import re
from bisect import bisect_left
from dataclasses import dataclass
from datetime import date, timedelta
from typing import Literal

from geo.extract.sentences import Sentence, sentence_index

Granularity = Literal["day", "week", "month", "year", "span"]
DateKind = Literal["absolute", "weekday", "relative", "duration", "since", "year", "month"]
Tense = Literal["past", "future"]

MONTHS = {
    "january": 1, "february": 2, "march": 3, "april": 4, "may": 5, "june": 6, "july": 7,
    "august": 8, "september": 9, "october": 10, "november": 11, "december": 12,
    "jan": 1, "feb": 2, "mar": 3, "apr": 4, "jun": 6, "jul": 7, "aug": 8, "sep": 9,
    "sept": 9, "oct": 10, "nov": 11, "dec": 12,
}  # fmt: skip
WEEKDAYS = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday")
NUMBER_WORDS = {
    "a": 1, "an": 1, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6,
    "seven": 7, "eight": 8, "nine": 9, "ten": 10, "eleven": 11, "twelve": 12, "thirteen": 13,
    "fourteen": 14, "fifteen": 15, "sixteen": 16, "seventeen": 17, "eighteen": 18,
    "nineteen": 19, "twenty": 20, "thirty": 30, "forty": 40, "fifty": 50, "sixty": 60,
    "seventy": 70, "eighty": 80, "ninety": 90, "hundred": 100,
}  # fmt: skip

# Month names are matched capitalised only: "may" and "march" are common verbs.
_MONTH = (
    r"(?P<month>January|February|March|April|May|June|July|August|September|October|November|"
    r"December|Jan|Feb|Mar|Apr|Jun|Jul|Aug|Sept|Sep|Oct|Nov|Dec)"
)
_DAY = r"(?P<day>[0-3]?\d)(?:st|nd|rd|th)?"
_YEAR = r"(?P<year>(?:19|20)\d\d)"
_WEEKDAY = r"(?P<weekday>" + "|".join(WEEKDAYS) + r")"
_COUNT = r"(?P<count>\d{1,3}|" + "|".join(sorted(NUMBER_WORDS, key=len, reverse=True)) + r")"
_UNIT = r"(?P<unit>day|week|month|year)"
_EVENT_NOUNS = (
    r"battle|offensive|siege|campaign|operation|war|fighting|clashes|assault|truce|ceasefire|"
    r"cease-fire|standoff|stand-off|blockade|curfew|strike|protest|crisis"
)

# Order matters: earlier patterns win where matches overlap.
_PATTERNS: list[tuple[str, re.Pattern[str]]] = [
    ("iso", re.compile(r"\b(?P<year>\d{4})-(?P<mon>\d\d)-(?P<day>\d\d)\b")),
    (
        "month_day",
        re.compile(
            r"\b" + _MONTH + r"\.?\s+" + _DAY + r"\b(?:,?\s+" + _YEAR + r"\b)?(?!\s*(?:%|km))"
        ),
    ),
    (
        "day_month",
        re.compile(r"\b" + _DAY + r"\s+(?:of\s+)?" + _MONTH + r"\b\.?(?:,?\s+" + _YEAR + r"\b)?"),
    ),
    (
        "part_month",
        re.compile(
            r"\b(?P<part>early|mid|late|the end of|the beginning of|the start of)[\s-]+"
            + _MONTH
            + r"\b(?:\s+"
            + _YEAR
            + r"\b)?",
            re.IGNORECASE,
        ),
    ),
    ("month_year", re.compile(r"\b" + _MONTH + r"\s+" + _YEAR + r"\b")),
    (
        "month",
        re.compile(
            # "In January," opens sentences as often as "in January" ends them.
            r"\b(?i:in|since|until|by|during|through|from|of|last|next|this)\s+"
            + _MONTH
            + r"\b(?![\s.]*\d)"
        ),
    ),
    ("weekday", re.compile(r"\b(?:(?P<qual>[Ll]ast|[Nn]ext|[Tt]his)\s+)?" + _WEEKDAY + r"\b")),
    (
        "ago",
        re.compile(r"\b" + _COUNT + r"\s+" + _UNIT + r"s?\s+ago\b", re.I),
    ),
    ("in_units", re.compile(r"\b(?<=in )" + _COUNT + r"\s+" + _UNIT + r"s?\b(?! of)", re.I)),
    (
        "period",
        re.compile(
            r"\b(?P<qual>last|this|next|earlier this|later this|past)\s+(?P<period>week|month|year"
            r"|weekend)\b",
            re.I,
        ),
    ),
    (
        "weekend",
        re.compile(r"\b(?:over|at|during|on|until|till|by|before|for|after) the weekend\b", re.I),
    ),
    (
        "hours",
        re.compile(
            r"\b(?:the\s+)?(?:past|last)\s+(?:24|twenty-four|48|forty-eight)\s+hours\b", re.I
        ),
    ),
    (
        "word",
        re.compile(
            r"\b(?P<word>yesterday|today|tomorrow|tonight|last night|overnight|this morning|"
            r"this afternoon|this evening)\b",
            re.I,
        ),
    ),
    (
        "duration",
        re.compile(
            r"\b"
            + _COUNT
            + r"[- ]"
            + _UNIT
            + r"(?:s)?(?:-long\b|(?:-old)?\s+(?=(?:"
            + _EVENT_NOUNS
            + r")\b))",
            re.I,
        ),
    ),
    (
        "since_year",
        re.compile(
            r"\b(?P<prep>(?i:since|in|from|until|by|before|after|during|of))\s+"
            + _YEAR
            # "in 2000 homes" is a figure, not a year.
            + r"\b(?![-–]\d|\s*(?:%|km|[a-z]+s\b))"
        ),
    ),
]

# Cheap tests a text must pass for a costly pattern to match anywhere in it: a word it needs,
# in the casefolded text (which folds "ſ" to "s" as the patterns' IGNORECASE does), or the
# tail of the pattern after its many number words. A text may pass and the pattern still find
# nothing, never the other way round.
_NEEDS: dict[str, re.Pattern[str] | str] = {
    "ago": "ago",
    "weekend": "weekend",
    "hours": "hours",
    "duration": re.compile(
        r"[- ]" + _UNIT + r"(?:s)?(?:-long\b|(?:-old)?\s+(?=(?:" + _EVENT_NOUNS + r")\b))", re.I
    ),
}

_FUTURE_CUE = re.compile(
    # "will stay closed", "would be held": the participle belongs to the future phrase.
    r"\b(?:(?:will|won't|shall|would|'ll)(?:\s+(?:not|be|have|stay|remain|keep|get))*\s+\w+|"
    r"going to|(?:to|will|would) be \w+|calling for|called for|"
    r"calls? for|plans? to|planned|planning|scheduled|expected|due to|is due|are due|set to|"
    r"aims? to|intends? to|next|upcoming|coming|urg(?:ed|es|ing)|vow(?:ed|s)|promis(?:ed|es)|"
    r"pledg(?:ed|es)|threaten(?:ed|s)|invit(?:ed|es))\b|'ll\b",
    re.IGNORECASE,
)
_PAST_CUE = re.compile(
    r"\b(?:\w{3,}ed|was|were|had|did|took|began|begun|left|said|told|came|went|fought|won|lost|"
    r"fell|held|met|made|saw|struck|hit|ran|broke|led|sent|gave|brought|fled|ago|last)\b",
    re.IGNORECASE,
)
# A relative pronoun just before a cue: the cue is a relative clause's ("who will ...").
_RELATIVE_BEFORE = re.compile(r"\b(?:who|which|that|whom)\s+$", re.IGNORECASE)
# Words ending in -ed that are not past verbs.
_NOT_PAST = frozenset({"red", "bed", "need", "speed", "seed", "feed", "hundred", "armed", "based"})


@dataclass(frozen=True)
class DateMention:
    """A date found in the text: [date, end_date] with the words' span and sentence."""

    text: str
    start: int
    end: int
    sentence: int
    date: date
    end_date: date
    granularity: Granularity
    kind: DateKind

    @property
    def span(self) -> tuple[int, int]:
        """[start, end) character offsets in the article text."""
        return (self.start, self.end)

    def to_dict(self) -> dict[str, object]:
        """JSON-ready mapping with ISO dates."""
        return {
            "text": self.text,
            "span": [self.start, self.end],
            "sentence": self.sentence,
            "date": self.date.isoformat(),
            "end_date": self.end_date.isoformat(),
            "granularity": self.granularity,
            "kind": self.kind,
        }


def month_number(name: str) -> int:
    """Month number of an English month name or abbreviation (``Aug.`` -> 8)."""
    return MONTHS[name.lower().rstrip(".")]


def count_value(word: str) -> int:
    """Integer of a digit string or an English number word up to a hundred."""
    return int(word) if word.isdigit() else NUMBER_WORDS[word.lower()]


def nearest_year(month: int, day: int, published: date) -> date | None:
    """The date with this month and day closest to ``published`` (a year is not given)."""
    best: date | None = None
    for year in (published.year - 1, published.year, published.year + 1):
        try:
            candidate = date(year, month, day)
        except ValueError:
            continue
        if best is None or abs((candidate - published).days) < abs((best - published).days):
            best = candidate
    return best


def month_range(year: int, month: int) -> tuple[date, date]:
    """First and last day of a month."""
    return date(year, month, 1), date(year, month, calendar.monthrange(year, month)[1])


def clause_tense(text: str, floor: int, start: int, end: int, ceiling: int) -> Tense:
    """Tense of the words around text[start:end]: the nearest tense cue decides, past by default."""
    before = text[max(floor, start - 100) : start]
    # A clause boundary before the date cuts the window: cues there belong to another clause.
    cut = max(before.rfind(";"), before.rfind("."), before.rfind("—"))
    if cut >= 0:
        before = before[cut + 1 :]
    cues: list[tuple[int, Tense]] = []
    future_spans = [(m.start(), m.end()) for m in _FUTURE_CUE.finditer(before)]
    cues.extend((e, "future") for _, e in future_spans)
    for m in _PAST_CUE.finditer(before):
        inside = any(s <= m.start() < e for s, e in future_spans)
        if not inside and m.group().lower() not in _NOT_PAST:
            cues.append((m.end(), "past"))
    if cues:
        return max(cues)[1]
    after = text[end : min(ceiling, end + 60)]
    # "On Sunday, supporters who will not accept ... stormed": a relative clause's future is
    # not the date's.
    fut = next((m for m in _FUTURE_CUE.finditer(after)
                if not _RELATIVE_BEFORE.search(after, 0, m.start())), None)  # fmt: skip
    past = next((m for m in _PAST_CUE.finditer(after) if m.group().lower() not in _NOT_PAST), None)
    if fut and (not past or fut.start() <= past.start()):
        return "future"
    return "past"


def resolve_weekday(weekday: int, published: date, tense: Tense, qualifier: str | None) -> date:
    """The weekday nearest ``published`` in the direction the tense or qualifier says."""
    ahead = (weekday - published.weekday()) % 7
    behind = (published.weekday() - weekday) % 7
    qual = (qualifier or "").lower()
    if qual == "next":
        return published + timedelta(days=ahead or 7)
    if qual == "last":
        return published - timedelta(days=behind or 7)
    if ahead == 0:
        return published
    if tense == "future" or (qual == "this" and ahead <= 3):
        return published + timedelta(days=ahead)
    return published - timedelta(days=behind)


def _week_of(day: date) -> tuple[date, date]:
    """Monday and Sunday of the week holding ``day``."""
    monday = day - timedelta(days=day.weekday())
    return monday, monday + timedelta(days=6)


def _period(qual: str, period: str, published: date) -> tuple[date, date, Granularity]:
    """Span of "last week", "this month", "earlier this year"... relative to ``published``."""
    qual = qual.lower()
    period = period.lower()
    if period == "weekend":
        # The coming Saturday, or the current one when the report is from the weekend itself.
        sat = published + timedelta(days=(5 - published.weekday()) % 7)
        if published.weekday() == 6:
            sat = published - timedelta(days=1)
        if qual in ("last", "past"):
            sat = published - timedelta(days=(published.weekday() - 5) % 7 or 7)
        elif qual == "next" and sat - published < timedelta(days=2):
            sat += timedelta(days=7)
        return sat, sat + timedelta(days=1), "span"
    step = {"last": -1, "past": -1, "next": 1}.get(qual, 0)
    if period == "week":
        monday, sunday = _week_of(published + timedelta(weeks=step))
        if qual == "earlier this":
            return monday, published, "span"
        if qual == "later this":
            return published, sunday, "span"
        if qual == "past":
            return published - timedelta(days=7), published, "span"
        return monday, sunday, "week"
    if period == "month":
        month_index = published.year * 12 + published.month - 1 + step
        first, last = month_range(month_index // 12, month_index % 12 + 1)
        if qual == "earlier this":
            return first, published, "span"
        if qual == "later this":
            return published, last, "span"
        if qual == "past":
            return published - timedelta(days=30), published, "span"
        return first, last, "month"
    year = published.year + step
    if qual == "earlier this":
        return date(year, 1, 1), published, "span"
    if qual == "later this":
        return published, date(year, 12, 31), "span"
    if qual == "past":
        return published - timedelta(days=365), published, "span"
    return date(year, 1, 1), date(year, 12, 31), "year"


def _part_of_month(part: str, year: int, month: int) -> tuple[date, date]:
    """Days of "early/mid/late <month>"."""
    first, last = month_range(year, month)
    part = part.lower()
    if part == "early" or part.startswith("the beginning") or part.startswith("the start"):
        return first, first.replace(day=10)
    if part == "mid":
        return first.replace(day=11), first.replace(day=20)
    return first.replace(day=21), last


def _year_for_month(month: int, published: date, tense: Tense) -> int:
    """Year of a month named without one: this year's, or the nearest in the tense's direction."""
    if tense == "future" and month < published.month:
        return published.year + 1
    if tense == "past" and month > published.month:
        return published.year - 1
    return published.year


def units_before(day: date, count: int, unit: str) -> date:
    """The date ``count`` days/weeks/months/years before ``day`` (after it for a negative
    ``count``; month ends clamp: a month before March 31 is February 28 or 29)."""
    unit = unit.lower()
    if unit in ("day", "week"):
        return day - timedelta(days=count * (7 if unit == "week" else 1))
    months = count * (12 if unit == "year" else 1)
    index = day.year * 12 + day.month - 1 - months
    year, month = index // 12, index % 12 + 1
    return date(year, month, min(day.day, calendar.monthrange(year, month)[1]))


_Resolved = tuple[date, date, Granularity, DateKind]


def _resolve(
    kind: str, m: re.Match[str], text: str, published: date, sentence: Sentence | None
) -> _Resolved | None:
    """Dates of one pattern match, or None when it names no real date."""
    g = m.groupdict()
    floor = sentence.start if sentence else 0
    ceiling = sentence.end if sentence else len(text)

    def tense() -> Tense:
        return clause_tense(text, floor, m.start(), m.end(), ceiling)

    if kind in ("iso", "month_day", "day_month"):
        return _absolute(kind, g, published)
    if kind in ("part_month", "month_year", "month"):
        return _month(kind, g, tense(), published)
    if kind == "weekday":
        day = resolve_weekday(WEEKDAYS.index(g["weekday"]), published, tense(), g.get("qual"))
        return day, day, "day", "weekday"
    if kind == "word":
        return _word(g["word"].lower(), published)
    if kind in ("ago", "in_units"):
        return _units(kind, m, published)
    if kind == "period":
        first, last, granularity = _period(g["qual"], g["period"], published)
        return first, last, granularity, "relative"
    if kind == "weekend":
        ahead = tense() == "future" or m.group().lower().startswith(
            ("until", "till", "by", "before")
        )
        first, last, granularity = _period("this" if ahead else "last", "weekend", published)
        return first, last, granularity, "relative"
    if kind == "hours":
        days = 2 if re.search(r"48|forty", m.group()) else 1
        return published - timedelta(days=days), published, "span", "relative"
    if kind == "duration":
        count = count_value(g["count"])
        return units_before(published, count, g["unit"]), published, "span", "duration"
    if kind == "since_year":
        year = int(g["year"])
        prep = g["prep"].lower()
        return date(year, 1, 1), date(year, 12, 31), "year", "since" if prep == "since" else "year"
    return None


def _absolute(kind: str, g: dict[str, str], published: date) -> _Resolved | None:
    """ "2023-08-28", "August 28, 2023", "28 August": a day (the nearest to ``published``
    when no year is given); None when there is no such day."""
    try:
        if kind == "iso":
            day = date(int(g["year"]), int(g["mon"]), int(g["day"]))
        elif g.get("year"):
            day = date(int(g["year"]), month_number(g["month"]), int(g["day"]))
        else:
            found = nearest_year(month_number(g["month"]), int(g["day"]), published)
            if found is None:
                return None
            day = found
    except ValueError:
        return None
    return day, day, "day", "absolute"


def _month(kind: str, g: dict[str, str], tense: Tense, published: date) -> _Resolved:
    """ "early August", "August 2023", "in August": part of a month, or all of it."""
    month = month_number(g["month"])
    year = int(g["year"]) if g.get("year") else _year_for_month(month, published, tense)
    if kind == "part_month":
        first, last = _part_of_month(g["part"], year, month)
        return first, last, "span", "month"
    first, last = month_range(year, month)
    return first, last, "month", "month"


def _word(word: str, published: date) -> _Resolved:
    """ "yesterday", "today", "last night", "overnight"... (lower case)."""
    if word == "overnight":
        # The night before the report: it straddles two days.
        return published - timedelta(days=1), published, "span", "relative"
    offset = {"yesterday": -1, "last night": -1, "tomorrow": 1}.get(word, 0)
    day = published + timedelta(days=offset)
    return day, day, "day", "relative"


def _units(kind: str, m: re.Match[str], published: date) -> _Resolved:
    """ "three days ago", "in two weeks": the day, or the whole month or year it falls in."""
    g = m.groupdict()
    count = count_value(g["count"])
    found = units_before(published, count if kind == "ago" else -count, g["unit"])
    unit = g["unit"].lower()
    granularity: Granularity = "day" if unit in ("day", "week") else unit  # type: ignore[assignment]
    if unit == "month":
        first, last = month_range(found.year, found.month)
        return first, last, "month", "relative"
    if unit == "year":
        return date(found.year, 1, 1), date(found.year, 12, 31), "year", "relative"
    return found, found, granularity, "relative"


def _merge_weekday_dates(found: list[DateMention], text: str) -> list[DateMention]:
    """Fold "Monday, August 28" into one mention carrying the absolute date."""
    merged: list[DateMention] = []
    for mention in found:
        prev = merged[-1] if merged else None
        if (
            prev is not None
            and prev.kind == "weekday"
            and mention.kind == "absolute"
            and re.fullmatch(r",?\s*\(?", text[prev.end : mention.start])
        ):
            merged[-1] = DateMention(
                text[prev.start : mention.end], prev.start, mention.end, prev.sentence,
                mention.date, mention.end_date, mention.granularity, "absolute",
            )  # fmt: skip
            continue
        merged.append(mention)
    return merged


def _span(kind: str, m: re.Match[str]) -> tuple[int, int]:
    """The words of a match that name the date: "in 2014" is "2014", "since 2014" stays whole."""
    if kind == "month":
        return m.start("month"), m.end("month")
    if kind == "since_year" and m.group("prep").lower() != "since":
        return m.start("year"), m.end("year")
    if kind == "duration":
        return m.start(), m.start() + len(m.group().rstrip())
    return m.start(), m.end()


def find_dates(
    text: str, published: date, sentences: list[Sentence] | None = None
) -> list[DateMention]:
    """All date mentions in ``text`` resolved against the publication date, in text order."""
    # Spans already taken never overlap one another: sorted, a new one need only be checked
    # against its neighbours (a scan of all of them made long articles quadratic). One
    # pattern's matches never overlap each other either: each is checked against the earlier
    # patterns' spans alone, and joins them once the pattern is done (an insertion per match
    # moved the whole list along).
    taken: list[tuple[int, int]] = []
    found: list[DateMention] = []
    folded = text.casefold()
    for kind, pattern in _PATTERNS:
        need = _NEEDS.get(kind)
        if isinstance(need, str) and need not in folded:
            continue
        if isinstance(need, re.Pattern) and need.search(text) is None:
            continue
        new: list[tuple[int, int]] = []
        for m in pattern.finditer(text):
            start, end = _span(kind, m)
            k = bisect_left(taken, (start, end))
            if (k and taken[k - 1][1] > start) or (k < len(taken) and taken[k][0] < end):
                continue
            idx = sentence_index(sentences, start) if sentences else 0
            sentence = sentences[idx] if sentences else None
            resolved = _resolve(kind, m, text, published, sentence)
            if resolved is None:
                continue
            first, last, granularity, date_kind = resolved
            new.append((start, end))
            found.append(
                DateMention(text[start:end], start, end, idx, first, last, granularity, date_kind)
            )
        if new:
            taken = list(heapq.merge(taken, new))
    found.sort(key=lambda d: d.start)
    return _merge_weekday_dates(found, text)
