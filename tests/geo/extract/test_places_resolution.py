"""Which of several same-name places a mention is: lists of divisions, a division against its
namesake villages, near spellings, divisions holding the article's towns, and names that
run on ("Rio Grande do Sul", "Bab el-Oued"). Own fake GeoNames rows and areas."""

from __future__ import annotations

import csv
from pathlib import Path

import pytest

from geo.extract.actors import find_actors
from geo.extract.places import find_places
from geo.extract.sentences import split_sentences
from geo.geocoders.gazetteer import Gazetteer, build_geonames_index, load_areas
from tests.helpers import city

CITIES = [
    city(1, "Oklahoma", 40.58, -79.57, "US", 786, admin1="PA"),
    city(2, "Washington", 38.895, -77.036, "US", 689_545, admin1="DC"),
    city(3, "Washington", 37.13, -113.51, "US", 24_299, admin1="UT"),
    city(4, "Wales", 53.34, -1.28, "GB", 5_956, admin1="ENG"),
    city(5, "Pittsburgh", 40.44, -79.99, "US", 304_391, admin1="PA"),
    city(6, "Pittsburg", 38.03, -121.88, "US", 69_424, "Pittsburgh", admin1="CA"),
    city(7, "Ontario", 43.22, -77.28, "US", 2_160, admin1="NY"),
    city(8, "Buffalo", 42.886, -78.878, "US", 278_349, admin1="NY"),
    city(9, "Toronto", 43.70, -79.42, "CA", 2_600_000, admin1="08"),
    city(10, "Rio Grande", -32.03, -52.10, "BR", 186_544, admin1="23"),
    city(11, "Al Bab", 36.37, 37.52, "SY", 130_745, "Bab", admin1="09"),
    city(12, "Algiers", 36.74, 3.09, "DZ", 1_977_663, admin1="01"),
    city(13, "Kasai", 34.93, 134.82, "JP", 44_000, admin1="28"),
    city(14, "Kisumu", -0.10, 34.76, "KE", 397_957, admin1="26"),
    city(15, "Sao Paulo", -23.55, -46.64, "BR", 12_400_232, admin1="27"),
    city(16, "Babil", 32.47, 44.42, "IQ", 9_000, admin1="06"),
]
AREAS = [
    # id, name, aliases, kind, country, admin1, lat, lon, radius_m, population
    ("adm1:us-oklahoma", "Oklahoma", "", "region", "US", "OK", 35.57, -97.46, 530_000,
     2_962_957),
    ("adm1:us-pennsylvania", "Pennsylvania", "", "region", "US", "PA", 40.9, -77.8, 300_000,
     12_000_000),
    ("adm1:us-georgia", "Georgia", "", "region", "US", "GA", 32.65, -83.44, 330_000, 9_000_000),
    ("adm1:us-ohio", "Ohio", "", "region", "US", "OH", 40.3, -82.8, 300_000, 11_000_000),
    ("adm1:us-utah", "Utah", "", "region", "US", "UT", 39.3, -111.7, 400_000, 2_700_000),
    ("adm1:us-tennessee", "Tennessee", "", "region", "US", "TN", 35.8, -86.3, 400_000,
     6_000_000),
    ("adm1:us-washington", "Washington", "", "region", "US", "WA", 47.38, -120.45, 400_000,
     5_953_324),
    ("adm1:us-wisconsin", "Wisconsin", "", "region", "US", "WI", 44.6, -89.9, 400_000,
     5_000_000),
    ("adm1:us-california", "California", "", "region", "US", "CA", 36.93, -119.72, 670_000,
     36_052_639),
    ("adm1:us-new-york", "New York", "", "region", "US", "NY", 42.98, -75.67, 450_000,
     25_159_968),
    ("adm1:gb-wales", "Wales", "", "region", "GB", "WLS", 52.3, -3.8, 150_000, 2_901_224),
    ("adm1:gb-england", "England", "", "region", "GB", "ENG", 52.55, -1.49, 400_000,
     50_000_000),
    ("adm1:ca-ontario", "Ontario", "", "region", "CA", "08", 49.8, -85.4, 870_000, 8_676_142),
    ("adm1:ng-niger", "Niger", "", "region", "NG", "31", 9.95, 5.63, 200_000, 4_000_000),
    ("adm1:br-rio-grande-do-sul", "Rio Grande do Sul", "", "region", "BR", "23", -29.7, -53.3,
     400_000, 10_000_000),
    # Divisions whose towns add up to more people than the city they are named after.
    ("adm1:ke-kisumu", "Kisumu", "", "region", "KE", "26", -0.125, 34.875, 50_000, 397_967),
    ("adm1:br-sao-paulo", "Sao Paulo", "", "region", "BR", "27", -22.21, -48.94, 450_000,
     42_120_227),
    ("adm1:iq-babil", "Babil", "", "region", "IQ", "06", 32.55, 44.65, 90_000, 1_800_000),
]  # fmt: skip


@pytest.fixture(scope="module")
def gazetteer(tmp_path_factory: pytest.TempPathFactory) -> Gazetteer:
    path = tmp_path_factory.mktemp("areas") / "areas.csv"
    with open(path, "w", encoding="utf-8", newline="") as fh:
        out = csv.writer(fh)
        out.writerow(["id", "name", "aliases", "kind", "country", "admin1", "lat", "lon",
                      "radius_m", "population"])  # fmt: skip
        out.writerows(AREAS)
    return Gazetteer(build_geonames_index(CITIES), areas=load_areas(str(Path(path))))


def points(text: str, gaz: Gazetteer) -> dict[str, tuple[float, float]]:
    sentences = split_sentences(text)
    found = find_places(text, sentences, gaz, find_actors(text, sentences))
    return {p.text: (round(p.lat, 1), round(p.lon, 1)) for p in found}


@pytest.mark.parametrize(
    ("text", "name", "point"),
    [
        # "Oklahoma, Pennsylvania" inside a list of states is two states ...
        ("Cases in Georgia, Oklahoma, Pennsylvania and Ohio rose.", "Oklahoma", (35.6, -97.5)),
        # ... and alone, the town and its state.
        ("A fire in Oklahoma, Pennsylvania closed a road.", "Oklahoma", (40.6, -79.6)),
        # Among other states, towns called Washington in them get no help from them.
        ("Cases in Tennessee, Utah, Washington and Wisconsin rose.", "Washington",
         (47.4, -120.5)),
        # A village dwarfed by its country's division of that name ("Wales" in England).
        ("Plans for deaths in Wales and in England were made.", "Wales", (52.3, -3.8)),
        # A near spelling gets no help from a division the article names.
        ("Doctors in Pittsburgh and in California disagreed.", "Pittsburgh", (40.4, -80.0)),
        # A division holding the article's towns: Ontario with Toronto, beside Buffalo, New York.
        ("In Toronto, Canada, babies born in Ontario may go to Buffalo, New York, or stay in "
         "Ontario.", "Ontario", (49.8, -85.4)),
        # Portuguese connectors keep a name whole.
        ("Floods in Rio Grande do Sul killed ten.", "Rio Grande do Sul", (-29.7, -53.3)),
        # A bare name shared by a big city and the first-level division around it is the city,
        # even where the division's towns add up to more people.
        ("Crowds gathered in Kisumu.", "Kisumu", (-0.1, 34.8)),
        ("Rain fell in Sao Paulo.", "Sao Paulo", (-23.6, -46.6)),
        # A town too small to be what the name means: the division.
        ("Fighting went on in Babil.", "Babil", (32.5, 44.6)),
    ],
)  # fmt: skip
def test_same_name_picks(gazetteer: Gazetteer, text: str, name: str, point) -> None:
    assert points(text, gazetteer)[name] == point


def test_a_name_running_on_after_an_article_is_no_shorter_place(gazetteer: Gazetteer) -> None:
    found = points("Riots broke out in Bab el-Oued, in Algiers.", gazetteer)
    assert "Bab" not in found and "Algiers" in found


@pytest.mark.parametrize(
    ("text", "name", "point"),
    [
        # States named in other sentences make no list: the capital keeps its name.
        ("Washington (CNN) Officials met. Later Utah and Tennessee voted, and so did Ohio.",
         "Washington", (38.9, -77.0)),
        # "Washington state", "the state of Washington": the division.
        ("A cow from a Washington state farm fell ill.", "Washington state", (47.4, -120.5)),
        ("The first case was in the state of Washington.", "Washington", (47.4, -120.5)),
    ],
)  # fmt: skip
def test_division_cues(gazetteer: Gazetteer, text: str, name: str, point) -> None:
    assert points(text, gazetteer)[name] == point


@pytest.mark.parametrize(
    ("text", "country"),
    [
        # Beside another country in a list, a country's name is the country ...
        ("In Nigeria polio is gone, as it is in Egypt and Niger.", "NE"),
        ("Cases fell in Niger, Chad and Mali, and in Nigeria.", "NE"),
        # ... and alone, among its namesake division's country, it may be the division.
        ("In Nigeria, cases rose in Niger and in Lagos.", "NG"),
    ],
)
def test_countries_listed_together(gazetteer: Gazetteer, text: str, country: str) -> None:
    sentences = split_sentences(text)
    found = find_places(text, sentences, gazetteer, find_actors(text, sentences))
    assert [p.country for p in found if p.text == "Niger"] == [country]


@pytest.mark.parametrize(
    ("text", "found"),
    [
        # A direction from a town in a country the article never names is no place ...
        ("Ebola spread in Angola, in western Kasai.", ["Angola"]),
        # ... while the town alone, big enough, still is; and in its country, so is a part of it.
        ("Ebola spread in Kasai.", ["Kasai"]),
        ("Storms hit Japan, then western Kasai.", ["Japan", "western Kasai"]),
    ],
)
def test_direction_from_an_unsupported_town(gazetteer: Gazetteer, text: str, found) -> None:
    assert list(points(text, gazetteer)) == found


def test_area_around_an_unsupported_town_is_the_articles_country(gazetteer: Gazetteer) -> None:
    text = "Cholera hit Angola, first in Kasai province."
    sentences = split_sentences(text)
    found = find_places(text, sentences, gazetteer, find_actors(text, sentences))
    assert [(p.text, p.country, p.source) for p in found] == [
        ("Angola", "AO", "country"), ("Kasai province", "AO", "unplaced"),
    ]  # fmt: skip
