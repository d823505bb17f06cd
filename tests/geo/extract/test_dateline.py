"""Tests for geo.extract.dateline."""

from __future__ import annotations

from datetime import date

import pytest

from geo.extract.dateline import find_dateline

PUB = date(2017, 8, 28)


@pytest.mark.parametrize(
    ("text", "place", "region", "agency", "when"),
    [
        ("BEIRUT – A convoy left.", "Beirut", None, None, None),
        ("BEIRUT (Reuters) - A convoy left.", "Beirut", None, "Reuters", None),
        ("Beirut, Aug 28 (AFP) - A convoy left.", "Beirut", None, "AFP", date(2017, 8, 28)),
        ("KARACHI, Pakistan — Floods.", "Karachi", "Pakistan", None, None),
        ("PARIS, Texas (AP) — Storms.", "Paris", "Texas", "AP", None),
        ("KYIV, March 6 (Reuters) - Shelling.", "Kyiv", None, "Reuters", date(2017, 3, 6)),
        (
            "DEIR EZ-ZOR, Syria, Sept. 3, 2017 -- Text.",
            "Deir Ez-Zor",
            "Syria",
            None,
            date(2017, 9, 3),
        ),
        (
            "Headline here\n\nRAS BAALBEK, Lebanon (AP) — Text.",
            "Ras Baalbek",
            "Lebanon",
            "AP",
            None,
        ),
    ],
)
def test_datelines(text, place, region, agency, when) -> None:
    found = find_dateline(text, PUB)
    assert found is not None
    assert (found.place, found.region, found.agency, found.date) == (place, region, agency, when)
    assert text[found.place_start : found.place_end].lower() == place.lower()


@pytest.mark.parametrize(
    "text",
    [
        "Hezbollah - the group said - won.",  # ordinary case needs an agency or a date
        "A convoy left on Monday.",
        "No dash here at all",
        "",
    ],
)
def test_not_datelines(text: str) -> None:
    assert find_dateline(text, PUB) is None


def test_to_dict() -> None:
    found = find_dateline("BEIRUT (Reuters) - Text.", PUB)
    assert found is not None
    assert found.to_dict()["place_span"] == [0, 6]
