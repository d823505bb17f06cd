"""Tests for geo.extract.regions: the country table, directional regions and borders."""

from __future__ import annotations

import pytest

from geo.extract.regions import border_place, directional_place, load_countries
from geo.geometry import distance_km


@pytest.mark.parametrize(
    ("name", "iso"),
    [("Syria", "SY"), ("Syrian Arab Republic", "SY"), ("Lebanon", "LB"), ("U.S.", "US"),
     ("United States", "US"), ("Britain", "GB"), ("Pakistan", "PK"), ("Ukraine", "UA"),
     ("Iraq", "IQ"), ("France", "FR")],
)  # fmt: skip
def test_country_names(name: str, iso: str) -> None:
    country = load_countries().country(name)
    assert country is not None and country.iso2 == iso


@pytest.mark.parametrize(
    ("word", "iso"), [("Lebanese", "LB"), ("Syrian", "SY"), ("Iranian", "IR"), ("Iraqi", "IQ")]
)
def test_demonyms(word: str, iso: str) -> None:
    country = load_countries().demonym(word)
    assert country is not None and country.iso2 == iso


@pytest.mark.parametrize(
    ("iso", "inside"),
    [("SY", (34.72, 36.73)), ("SY", (35.34, 40.14)), ("LB", (33.89, 35.50)),
     ("LB", (34.39, 36.38)), ("FR", (43.30, 5.37))],
)  # fmt: skip
def test_country_radius_holds_its_cities(iso: str, inside: tuple[float, float]) -> None:
    country = load_countries().by_iso[iso]
    assert distance_km((country.lat, country.lon), inside) * 1000 <= country.radius_m


def test_eastern_syria_lies_east_and_holds_deir_ez_zor() -> None:
    syria = load_countries().by_iso["SY"].as_place()
    east = directional_place(syria, "eastern")
    assert east.lon > syria.lon + 1.5
    assert abs(east.lat - syria.lat) < 0.2
    assert distance_km(east.point, (35.336, 40.141)) * 1000 <= east.radius_m
    assert east.radius_m >= syria.radius_m and east.source == "derived"


@pytest.mark.parametrize(
    ("qualifier", "dlat", "dlon"),
    [("northern", 1, 0), ("southern", -1, 0), ("western", 0, -1), ("north-eastern", 1, 1)],
)
def test_directions(qualifier: str, dlat: int, dlon: int) -> None:
    base = load_countries().by_iso["PK"].as_place()
    moved = directional_place(base, qualifier)
    for delta, sign in ((moved.lat - base.lat, dlat), (moved.lon - base.lon, dlon)):
        assert (delta > 0.5) if sign > 0 else (delta < -0.5) if sign < 0 else abs(delta) < 0.5


def test_central_keeps_the_centre() -> None:
    base = load_countries().by_iso["UA"].as_place()
    middle = directional_place(base, "central")
    assert (middle.lat, middle.lon) == (base.lat, base.lon)
    assert middle.radius_m < base.radius_m


def test_lebanon_syria_border_lies_near_the_real_border() -> None:
    countries = load_countries()
    border = border_place(countries.by_iso["LB"].as_place(), countries.by_iso["SY"].as_place())
    assert border.kind == "border" and border.country == "LB|SY"
    # Arsal and al-Qusayr sit on the border; both must be inside the drawn circle.
    for town in ((34.179, 36.421), (34.508, 36.580)):
        assert distance_km(border.point, town) * 1000 <= border.radius_m
