"""The convoy speed check within one date: positions keep their file order, a few hours apart."""

from __future__ import annotations

from datetime import date
from pathlib import Path

import pytest

from geo.story import checks
from geo.story.checks import Position
from geo.story.load import load_story
from tests.helpers import problems_of, replace

ROOT = Path(__file__).resolve().parents[3]
BUNDLED = ROOT / "data" / "stories" / "qalamoun-2017"

# Points of the bundled story's places.csv (lat, lon, radius in km).
SHEIKH_ALI = (34.18, 36.69, 9.0)
ALBU_KAMAL = (34.45226, 40.91854, 2.0)
PALMYRA = (34.5624, 38.28402, 2.0)
AL_SUKHNAH = (34.88533, 38.8711, 2.0)
HOMS = (34.72405, 36.72559, 3.0)


def at(label: str, day: int, where: tuple[float, float, float], group: str = "all") -> Position:
    lat, lon, radius_km = where
    return Position(label, date(2017, 8, day), group, lat, lon, radius_km)


@pytest.mark.parametrize(
    ("a", "b", "hours"),
    [
        (at("a", 28, SHEIKH_ALI), at("b", 28, ALBU_KAMAL), checks.SAME_DAY_HOURS),
        (at("a", 28, SHEIKH_ALI), at("b", 29, ALBU_KAMAL), 24.0),
        (at("a", 28, SHEIKH_ALI), at("b", 31, ALBU_KAMAL), 72.0),
    ],
)
def test_hours_between(a, b, hours):
    assert checks.hours_between(a, b) == hours


@pytest.mark.parametrize(
    ("route", "refused"),
    [
        # al-Sheikh Ali to Albu Kamal, about 380 km between the circles: a day, not 4 hours.
        ([at("qara", 28, SHEIKH_ALI), at("bukamal", 28, ALBU_KAMAL)], [("qara", "bukamal")]),
        ([at("qara", 28, SHEIKH_ALI), at("bukamal", 29, ALBU_KAMAL)], []),
        # Palmyra to al-Sukhnah, about 60 km: fine within one date.
        ([at("palmyra", 31, PALMYRA), at("sukhnah", 31, AL_SUKHNAH)], []),
        # Within a date the file order is the route: Homs, then Albu Kamal, then back to Homs
        # fails twice; the same three with both Homs rows first fails once.
        (
            [at("homs", 28, HOMS), at("bukamal", 28, ALBU_KAMAL), at("homs2", 28, HOMS)],
            [("homs", "bukamal"), ("bukamal", "homs2")],
        ),
        (
            [at("homs", 28, HOMS), at("homs2", 28, HOMS), at("bukamal", 28, ALBU_KAMAL)],
            [("homs2", "bukamal")],
        ),
        # Two groups on one date are two routes, not a leg between them.
        (
            [
                at("split", 28, AL_SUKHNAH),
                at("west", 29, HOMS, group="west"),
                at("east", 29, ALBU_KAMAL, group="east"),
            ],
            [],
        ),
        # A group's first position on the shared route's last date follows it within the day.
        (
            [at("shared", 29, SHEIKH_ALI), at("east", 29, ALBU_KAMAL, group="east")],
            [("shared", "east")],
        ),
    ],
)
def test_same_date_legs_keep_file_order(route, refused):
    assert [(a.label, b.label) for a, b, _ in checks.too_fast(route)] == refused


def test_same_date_allowance_is_a_few_hours_of_driving():
    # The allowance within one date is what a bus covers in SAME_DAY_HOURS at full speed.
    reach = checks.MAX_CONVOY_KMH * checks.SAME_DAY_HOURS
    assert 200 <= reach < 380
    near = Position("b", date(2017, 8, 28), "all", 34.0, 36.0 + (reach - 5) / 92.1, 0.0)
    far = Position("c", date(2017, 8, 28), "all", 34.0, 36.0 + (reach + 5) / 92.1, 0.0)
    start = Position("a", date(2017, 8, 28), "all", 34.0, 36.0, 0.0)
    assert checks.min_speed_kmh(start, near) <= checks.MAX_CONVOY_KMH
    assert checks.min_speed_kmh(start, far) > checks.MAX_CONVOY_KMH


def test_same_day_jump_in_the_bundled_story_is_refused_with_its_line(bundled):
    # A second position of the whole convoy on 28 Aug, at Albu Kamal, after al-Sheikh Ali.
    replace(
        bundled / "convoy.csv",
        "convoy-2017-08-29,2017-08-29,",
        "convoy-2017-08-28-bukamal,2017-08-28,all,albu-kamal,,,2000,moving,Test row.,syriahr\n"
        "convoy-2017-08-29,2017-08-29,",
    )
    found = problems_of(bundled)
    expected = (
        "convoy.csv:line 3: convoy-2017-08-28-bukamal is too far from convoy-2017-08-28"
        " (line 2): even between the edges of their circles it needs"
    )
    hits = [p for p in found if p.startswith(expected)]
    assert len(hits) == 1, found
    assert "over 4 h (one date: at most 4 h apart)" in hits[0]
    assert hits[0].endswith("check lat/lon, radius_m, the date or row order")
    # The leg on to 29 Aug has a whole day and passes; nothing else is wrong.
    assert len(found) == 1, found


def test_the_same_row_a_day_later_passes(bundled):
    # al-Sheikh Ali (28 Aug) to Albu Kamal (29 Aug) has a whole day, and Albu Kamal to the wide
    # Rif Dimashq circle later on 29 Aug (about 245 km between the circles) fits in 4 hours.
    replace(
        bundled / "convoy.csv",
        "convoy-2017-08-29,2017-08-29,",
        "convoy-2017-08-29-bukamal,2017-08-29,all,albu-kamal,,,2000,moving,Test row.,syriahr\n"
        "convoy-2017-08-29,2017-08-29,",
    )
    assert len(load_story(bundled).convoy) == len(load_story(BUNDLED).convoy) + 1


@pytest.mark.parametrize(
    ("days", "allowed"),
    [(0, "4 h (one date: at most 4 h apart)"), (1, "1 day"), (3, "3 days")],
)
def test_message_says_how_long_the_leg_was_given(bundled, days, allowed):
    # Move the 1 Sep position to the far side of the world, so the leg into it fails, dated 0, 1
    # or 3 days after the position before it.
    day = {0: "2017-08-31", 1: "2017-09-01", 3: "2017-09-03"}[days]
    replace(
        bundled / "convoy.csv",
        "convoy-2017-09-01,2017-09-01,all,,34.75,39.5",
        f"convoy-2017-09-01,{day},all,,-20.0,120.0",
    )
    found = problems_of(bundled)
    into = [p for p in found if p.startswith("convoy.csv:line 6: convoy-2017-09-01 is too far")]
    assert len(into) == 1, found
    assert f" over {allowed}, faster than a bus" in into[0]


def test_the_bundled_story_has_no_same_date_leg_too_fast():
    story = load_story(BUNDLED)
    convoy = story.convoy
    positions = [
        Position(i, r["date"].date(), r["group"], r["lat"], r["lon"], r["radius_m"] / 1000)
        for i, r in convoy.iterrows()
    ]
    assert checks.too_fast(positions) == []
