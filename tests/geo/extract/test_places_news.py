"""Place rules for everyday news (issue 15), against a small fake GeoNames index and the
fixture areas (tests/fixtures/areas.csv): divisions and continents, abbreviations, people and
titles per mention, states acting, demonyms, capitals, nearby places and one sense per article.
"""

from __future__ import annotations

import pytest

from geo.extract.actors import find_actors
from geo.extract.dateline import find_dateline
from geo.extract.places import PlaceMention, find_places
from geo.extract.sentences import split_sentences
from geo.geocoders.gazetteer import Gazetteer, build_geonames_index, load_areas
from tests.helpers import FIXTURES, city

CITIES = [
    city(1, "Paris", 48.853, 2.349, "FR", 2_138_551, admin1="11"),
    city(2, "Paris", 33.661, -95.556, "US", 24_782, admin1="TX"),
    city(3, "London", 51.509, -0.126, "GB", 8_961_989, admin1="ENG"),
    city(4, "London", 42.983, -81.233, "CA", 346_765, admin1="08"),
    city(5, "St. Thomas", 42.783, -81.183, "CA", 38_909, "Saint Thomas", admin1="08"),
    city(6, "Washington", 38.895, -77.036, "US", 689_545, admin1="DC"),
    city(7, "Lexington", 37.988, -84.478, "US", 320_601, admin1="KY"),
    city(8, "Lexington", 42.447, -71.225, "US", 33_000, admin1="MA"),
    city(9, "Springfield", 37.215, -93.298, "US", 167_882, admin1="MO"),
    city(10, "Murphy", 33.015, -96.613, "US", 20_000, admin1="TX"),
    city(11, "Georgia", 41.0, -73.0, "US", 2_000, admin1="CT"),
    city(12, "Africa", 35.5, 11.0, "TN", 20_000, "Mahdia", admin1="00"),
    city(13, "Dar'a", 32.625, 36.106, "SY", 97_969, "Dr", admin1="08"),
    city(14, "Sydney", -33.868, 151.207, "AU", 4_627_345, admin1="02"),
    city(15, "Damascus", 33.51, 36.291, "SY", 1_569_394, admin1="13"),
    city(16, "Tsu", 34.717, 136.5, "JP", 280_000, "Jin", admin1="23"),
    city(17, "California", 40.066, -79.892, "US", 6_608, admin1="PA"),
    # A made-up alternate name: a town that GeoNames also calls "Kentucky".
    city(18, "Frankfort", 38.2, -84.87, "US", 1_000_000, "Kentucky", admin1="KY"),
    city(19, "Versailles", 38.05, -84.73, "US", 9_000, admin1="KY"),
    city(20, "Atlanta", 33.749, -84.388, "US", 498_715, admin1="GA"),
    city(21, "Atlanta", 40.215, -86.026, "US", 725, admin1="IN"),
]


@pytest.fixture(scope="module")
def gazetteer() -> Gazetteer:
    areas = load_areas(str(FIXTURES / "areas.csv"))
    return Gazetteer(build_geonames_index(CITIES), areas=areas)


def places(text: str, gaz: Gazetteer, demonyms: bool = False) -> list[PlaceMention]:
    sentences = split_sentences(text)
    found = find_dateline(text)
    dateline = (found.place, found.place_start, found.place_end) if found else None
    return find_places(text, sentences, gaz, find_actors(text, sentences), dateline,
                       demonyms=demonyms)  # fmt: skip


def named(text: str, gaz: Gazetteer, demonyms: bool = False) -> list[tuple[str, str, str]]:
    return [(p.text, p.name, p.country) for p in places(text, gaz, demonyms)]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # Divisions and continents are areas, not same-name towns.
        ("Wildfires spread across California on Monday.",
         [("California", "California", "US")]),
        ("Aid reached Africa by sea.", [("Africa", "Africa", "")]),
        # A country's own name is not a direction plus a town.
        ("Talks resumed in South Africa.", [("South Africa", "South Africa", "ZA")]),
        # Abbreviations count as written; "us" the pronoun is no country.
        ("Officials in Lexington, Ky. confirmed it.",
         [("Lexington", "Lexington", "US"), ("Ky.", "Kentucky", "US")]),
        ("Floods hit NSW and the U.S. sent help.",
         [("NSW", "New South Wales", "AU"), ("U.S.", "United States of America", "US")]),
        ("Join us in Paris.", [("Paris", "Paris", "FR")]),
        # "the" inside a country's name; a first name before a place word is a place.
        ("Polio rose in Chad and the Democratic Republic of the Congo.",
         [("Chad", "Chad", "TD"),
          ("Democratic Republic of the Congo", "Democratic Republic of the Congo", "CD")]),
        ("Cases rose in Scott County after Scott Jones left.",
         [("Scott County", "Scott County", "US")]),
        ("Officials in the US said the US election was fair.",
         [("US", "United States of America", "US"), ("US", "United States of America", "US")]),
        # A state acting is still a place; the capital of a country beats the state so named.
        ("Talks with Syria and Iran stalled; Washington seems prepared.",
         [("Syria", "Syria", "SY"), ("Iran", "Iran", "IR"), ("Washington", "Washington", "US")]),
        # A name opening a person's name is no place.
        ("Georgia Stevens said the vote was close.", []),
        ("Dr Jones said the patients were stable.", []),
        ("Jin said the talks were useful.", []),
        # "Mayor" ends the speaker's name: Springfield stays a place, in both mentions.
        ("Springfield Mayor John Smith said Springfield would rebuild.",
         [("Springfield", "Springfield", "US"), ("Springfield", "Springfield", "US")]),
        # A surname is a person where it is one, a place where "in" says so.
        ("Chris Murphy spoke first. Murphy said more later, in Murphy itself.",
         [("Murphy", "Murphy", "US")]),
        # A place named before "virus" names the virus.
        ("West Nile virus cases rose, officials said.", []),
        # London near St. Thomas, Ontario is London, Ontario; alone it is the capital.
        ("Police in London and St. Thomas, Ontario made arrests.",
         [("London", "London", "CA"), ("St. Thomas", "St. Thomas", "CA"),
          ("Ontario", "Ontario", "CA")]),
        ("Flights to London were cancelled.", [("London", "London", "GB")]),
        # A broadcaster's call letters before a city do not make it a title; a word does.
        ("He told BBC London the road was shut.", [("London", "London", "GB")]),
        ("He told Radio London the road was shut.", []),
        # Among other states a name is the state: not the capital, not a Pennsylvania village.
        ("Cases were found in Kentucky, Pennsylvania, Washington and California.",
         [("Kentucky", "Kentucky", "US"), ("Pennsylvania", "Pennsylvania", "US"),
          ("Washington", "Washington", "US"), ("California", "California", "US")]),
        # One sense per article: the qualified name decides its bare repeats (Texas is not in
        # the fixture areas: the US state list still qualifies Paris).
        ("Storms hit Paris, Texas overnight. Schools in Paris stay closed.",
         [("Paris", "Paris", "US"), ("Paris", "Paris", "US")]),
    ],
)  # fmt: skip
def test_news_places(gazetteer: Gazetteer, text: str, expected: list) -> None:
    assert named(text, gazetteer) == expected


@pytest.mark.parametrize(
    ("demonyms", "expected"),
    [
        (False, [("Syria", "Syria", "SY")]),
        (True, [("Turkish", "Turkey", "TR"), ("Syria", "Syria", "SY")]),
    ],
)
def test_demonyms_both_ways(gazetteer: Gazetteer, demonyms: bool, expected: list) -> None:
    assert named("Turkish troops entered Syria.", gazetteer, demonyms) == expected


def test_demonym_is_never_a_town(gazetteer: Gazetteer) -> None:
    # "Canadian" is a town in Texas and Oklahoma; as an adjective it names no place.
    assert named("Canadian officials met in Damascus.", gazetteer) == [
        ("Damascus", "Damascus", "SY")
    ]


def test_runner_up_candidates_are_kept(gazetteer: Gazetteer) -> None:
    (mention,) = places("Flights to London were cancelled.", gazetteer)
    assert [c.country for c in mention.candidates[:2]] == ["GB", "CA"]


@pytest.mark.parametrize(
    ("text", "name", "point"),
    [
        ("Kentucky and Pennsylvania reported cases, as did Washington.", "Washington",
         (47.4, -120.5)),
        ("Kentucky and Pennsylvania reported cases, as did California.", "California",
         (36.9, -119.7)),
        # One other state is not a list: the capital keeps its name.
        ("Kentucky asked Washington for help.", "Washington", (38.9, -77.0)),
        ("A fire in California, Pennsylvania closed a road.", "California", (40.1, -79.9)),
        # A country among its own divisions is the country; among another's, the division.
        ("Cases rose in Jalisco and Puebla, and Mexico asked for vaccines.", "Mexico",
         (23.0, -102.0)),
        ("Cases rose in Kentucky and Pennsylvania, and Georgia asked for vaccines.", "Georgia",
         (32.6, -83.4)),
    ],
)  # fmt: skip
def test_states_in_a_list_are_states(
    gazetteer: Gazetteer, text: str, name: str, point: tuple[float, float]
) -> None:
    (mention,) = [p for p in places(text, gazetteer) if p.text == name]
    assert (round(mention.lat, 1), round(mention.lon, 1)) == point


def test_alternate_name_gets_no_help_from_its_neighbours(gazetteer: Gazetteer) -> None:
    # Lexington, Versailles and "Ky." sit around Frankfort, but "Kentucky" is the state's name.
    text = "Storms hit Kentucky; in Lexington, Ky. and Versailles roofs fell."
    (state,) = [p for p in places(text, gazetteer) if p.text == "Kentucky"]
    assert state.source == "area"


@pytest.mark.parametrize(
    ("text", "lat"),
    [
        # Indiana named does not make a village of 725 outweigh Atlanta, Georgia...
        ("Snow fell in Indiana; Atlanta closed schools.", 33.7),
        # ...unless the text says which ("Atlanta, Ind.").
        ("Snow fell in Atlanta, Ind. on Monday.", 40.2),
    ],
)
def test_village_beside_a_big_namesake(gazetteer: Gazetteer, text: str, lat: float) -> None:
    (atlanta,) = [p for p in places(text, gazetteer) if p.text == "Atlanta"]
    assert round(atlanta.lat, 1) == lat


def test_division_of_a_town_is_voted(gazetteer: Gazetteer) -> None:
    found = named("Lexington schools closed as snow covered Kentucky.", gazetteer)
    (lexington,) = [p for p in places("Lexington schools closed as snow covered Kentucky.",
                                      gazetteer) if p.text == "Lexington"]  # fmt: skip
    assert ("Kentucky", "Kentucky", "US") in found
    assert round(lexington.lat, 1) == 38.0  # Kentucky's Lexington, not Massachusetts'


def _unknown(text: str, gaz: Gazetteer) -> list[tuple[str, str, str, int]]:
    return [(p.text, p.country, p.kind, p.radius_m) for p in places(text, gaz)
            if p.source == "unplaced"]  # fmt: skip


SYRIA_RADIUS = 460_000


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # The object of "captured" or "in", the name before a feature word, an unknown
        # dateline: places no gazetteer knows, in the country the text gives them; then every
        # other mention of the same name.
        ("Fighters captured Baghuz in Syria. Families fled Baghuz.",
         [("Baghuz", "SY", "village", SYRIA_RADIUS), ("Baghuz", "SY", "village", SYRIA_RADIUS)]),
        ("BAGHUZ, Syria - The last village fell.", [("BAGHUZ", "SY", "village", SYRIA_RADIUS)]),
        ("Troops paraded at the al-Omar oilfield in Syria.",
         [("al-Omar oilfield", "SY", "area", SYRIA_RADIUS)]),
        # Near the sentence's town, with a district's radius.
        ("Shops closed in Kisima near Damascus.", [("Kisima", "SY", "village", 50_000)]),
        # Not places: weak prepositions, people, nationality words, acronyms, known names the
        # rules already turned down, a name that is a person elsewhere in the article.
        ("A letter from Uber reached Damascus.", []),
        ("Protests grew in Damascus, according to Xinhua.", []),
        ("Asian markets fell in Damascus and in Asian capitals.", []),
        ("In Syria, talks began in SDF offices.", []),
        ("Gomez's plan was backed in Damascus. Crowds cheered in Gomez.", []),
        ("In Syria, Dr Jones met aides. Little changed in Jones.", []),
        ("In Syria the SDF rallied in Hassan.", []),
    ],
)  # fmt: skip
def test_unknown_places(gazetteer: Gazetteer, text: str, expected: list) -> None:
    assert _unknown(text, gazetteer) == expected


def test_unknown_places_with_the_same_name_and_other_features_stay_apart(
    gazetteer: Gazetteer,
) -> None:
    text = "Troops held the Omar oilfield in Syria and the Omar camp."
    ids = {p.place_id for p in places(text, gazetteer) if p.source == "unplaced"}
    assert ids == {"unplaced:omar-oilfield", "unplaced:omar-camp"}


def test_unknown_places_can_be_turned_off(gazetteer: Gazetteer) -> None:
    text = "Fighters captured Baghuz in Syria."
    sentences = split_sentences(text)
    found = find_places(text, sentences, gazetteer, unknown=False)
    assert [p.text for p in found] == ["Syria"]
