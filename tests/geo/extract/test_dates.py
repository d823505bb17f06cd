"""Tests for geo.extract.dates: each case is (text, publication date, [(words, first, last)])."""

from __future__ import annotations

from datetime import date

import pytest

from geo.extract.dates import clause_tense, find_dates, resolve_weekday, units_before
from geo.extract.sentences import split_sentences

MON = date(2017, 8, 28)  # the reference article's Monday
D = date


def found(text: str, published: date) -> list[tuple[str, date, date]]:
    return [
        (d.text, d.date, d.end_date) for d in find_dates(text, published, split_sentences(text))
    ]


@pytest.mark.parametrize(
    ("text", "published", "expected"),
    [
        # Absolute dates, with and without a year.
        ("Today, August 28, 2017, is", MON,
         [("Today", MON, MON), ("August 28, 2017", MON, MON)]),
        ("It began on 19 Aug and ended Aug. 30.", MON,
         [("19 Aug", D(2017, 8, 19), D(2017, 8, 19)), ("Aug. 30", D(2017, 8, 30), D(2017, 8, 30))]),
        ("on 2017-09-13 they arrived", MON, [("2017-09-13", D(2017, 9, 13), D(2017, 9, 13))]),
        ("A note dated Dec 30", D(2018, 1, 2), [("Dec 30", D(2017, 12, 30), D(2017, 12, 30))]),
        ("in March 2017", MON, [("March 2017", D(2017, 3, 1), D(2017, 3, 31))]),
        ("fighting in mid-August", MON, [("mid-August", D(2017, 8, 11), D(2017, 8, 20))]),
        ("since 2014", MON, [("since 2014", D(2014, 1, 1), D(2014, 12, 31))]),
        ("in 2014 ISIS took soldiers", MON, [("2014", D(2014, 1, 1), D(2014, 12, 31))]),
        # Weekdays: the reference article's three.
        ("A convoy left the border region on Monday", MON, [("Monday", MON, MON)]),
        ("a ceasefire deal that took effect on Sunday", MON,
         [("Sunday", D(2017, 8, 27), D(2017, 8, 27))]),
        ("Nasrallah said, calling for celebrations on Thursday in Baalbek", MON,
         [("Thursday", D(2017, 8, 31), D(2017, 8, 31))]),
        ("calling for celebrations to be held Thursday", MON,
         [("Thursday", D(2017, 8, 31), D(2017, 8, 31))]),
        ("Schools will stay closed on Friday.", MON, [("Friday", D(2017, 9, 1), D(2017, 9, 1))]),
        ("He arrived on Friday.", MON, [("Friday", D(2017, 8, 25), D(2017, 8, 25))]),
        ("On Wednesday, the talks will resume.", MON,
         [("Wednesday", D(2017, 8, 30), D(2017, 8, 30))]),
        ("next Monday", MON, [("next Monday", D(2017, 9, 4), D(2017, 9, 4))]),
        ("last Monday", MON, [("last Monday", D(2017, 8, 21), D(2017, 8, 21))]),
        ("on Monday, Aug. 21, it began", MON,
         [("Monday, Aug. 21", D(2017, 8, 21), D(2017, 8, 21))]),
        # Relative words and periods.
        ("yesterday and tomorrow", MON,
         [("yesterday", D(2017, 8, 27), D(2017, 8, 27)),
          ("tomorrow", D(2017, 8, 29), D(2017, 8, 29))]),
        ("shelled overnight", MON, [("overnight", D(2017, 8, 27), MON)]),
        ("last week", MON, [("last week", D(2017, 8, 21), D(2017, 8, 27))]),
        ("earlier this month", MON, [("earlier this month", D(2017, 8, 1), MON)]),
        ("over the weekend", MON, [("over the weekend", D(2017, 8, 26), D(2017, 8, 27))]),
        ("rain until the weekend", MON, [("until the weekend", D(2017, 9, 2), D(2017, 9, 3))]),
        ("in the past 24 hours", MON, [("the past 24 hours", D(2017, 8, 27), MON)]),
        ("three days ago", MON, [("three days ago", D(2017, 8, 25), D(2017, 8, 25))]),
        ("in two weeks", MON, [("two weeks", D(2017, 9, 11), D(2017, 9, 11))]),
        # Every number word the pattern takes, not only those up to twelve: "thirteen days
        # ago" is a date too.
        ("thirteen days ago", MON, [("thirteen days ago", D(2017, 8, 15), D(2017, 8, 15))]),
        ("Twenty Years Ago", MON, [("Twenty Years Ago", D(1997, 1, 1), D(1997, 12, 31))]),
        ("in three months", MON, [("three months", D(2017, 11, 1), D(2017, 11, 30))]),
        # Durations end at the publication date.
        ("after a week-long battle", MON, [("a week-long", D(2017, 8, 21), MON)]),
        ("the six-day battle for the hills", MON, [("six-day", D(2017, 8, 22), MON)]),
        ("Syria's six-year war", MON, [("six-year", D(2011, 8, 28), MON)]),
    ],
)  # fmt: skip
def test_find_dates(text: str, published: date, expected: list) -> None:
    assert found(text, published) == expected


@pytest.mark.parametrize(
    "text",
    [
        "the Second Liberation Day of Lebanon that will be recorded someday",
        "they may march on the capital",
        "308 militants and 331 civilians",
        "in 2000 homes",
        "one of the two sides",
    ],
)
def test_no_dates(text: str) -> None:
    assert found(text, MON) == []


@pytest.mark.parametrize(
    ("text", "tense"),
    [
        ("The talks will resume on ", "future"),
        ("The talks resumed on ", "past"),
        ("He said, calling for protests on ", "future"),
        ("He said he will go to Homs, which was shelled on ", "past"),
        ("Nothing to see on ", "past"),
    ],
)
def test_clause_tense(text: str, tense: str) -> None:
    assert clause_tense(text, 0, len(text), len(text), len(text)) == tense


@pytest.mark.parametrize(
    ("weekday", "tense", "qual", "expected"),
    [
        (0, "past", None, MON),
        (0, "future", None, MON),
        (6, "past", None, D(2017, 8, 27)),
        (6, "future", None, D(2017, 9, 3)),
        (3, "future", None, D(2017, 8, 31)),
        (3, "past", None, D(2017, 8, 24)),
        (0, "past", "next", D(2017, 9, 4)),
        (0, "future", "last", D(2017, 8, 21)),
    ],
)
def test_resolve_weekday(weekday, tense, qual, expected) -> None:
    assert resolve_weekday(weekday, MON, tense, qual) == expected


@pytest.mark.parametrize(
    ("count", "unit", "expected"),
    [(7, "day", D(2017, 8, 21)), (1, "week", D(2017, 8, 21)), (6, "month", D(2017, 2, 28)),
     (6, "year", D(2011, 8, 28)),
     # A negative count goes forward ("in two weeks").
     (-2, "week", D(2017, 9, 11)), (-6, "month", D(2018, 2, 28)), (-1, "year", D(2018, 8, 28))],
)  # fmt: skip
def test_units_before(count, unit, expected) -> None:
    assert units_before(MON, count, unit) == expected


def test_leap_day_month_clamps() -> None:
    assert units_before(D(2016, 3, 31), 1, "month") == D(2016, 2, 29)


def test_to_dict_is_json_ready() -> None:
    (mention,) = find_dates("on Sunday", MON)
    assert mention.to_dict() == {
        "text": "Sunday", "span": [3, 9], "sentence": 0, "date": "2017-08-27",
        "end_date": "2017-08-27", "granularity": "day", "kind": "weekday",
    }  # fmt: skip


@pytest.mark.parametrize(
    "text",
    [
        "Three days ago the town fell; two weeks AGO it was quiet.",
        "In the past 24 hours, and in the last forty-eight HOURS, and the past 48 hourſ.",
        "Shops shut over the weekend; they open after the WEEKEND.",
        "a three-day-long curfew, the two-month siege, a 10-year-old war, five week strike",
        "No dates at all in this one.",
        "Published ago-ish: hours later, weekends, a day-long",
    ],
)
def test_needed_words_skip_only_patterns_that_cannot_match(text: str, monkeypatch) -> None:
    from geo.extract import dates

    quick = found(text, MON)
    monkeypatch.setattr(dates, "_NEEDS", {})
    assert quick == found(text, MON)
