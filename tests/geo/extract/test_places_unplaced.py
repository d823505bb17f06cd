"""Names no gazetteer knows that words and structure make places (issue 24: a name that cannot
be placed is left unplaced for the editor, never dropped): each comes out with no point,
within the area the text puts it in, against a small fake GeoNames index."""

from __future__ import annotations

import pytest

from geo.extract.actors import find_actors
from geo.extract.places import find_places
from geo.extract.sentences import split_sentences
from geo.geocoders.gazetteer import Gazetteer, build_geonames_index, load_areas
from tests.helpers import FIXTURES, city

CITIES = [
    city(1, "Athens", 37.98, 23.73, "GR", 664_046),
    city(2, "Mogadishu", 2.04, 45.34, "SO", 2_587_183),
    city(3, "Brasilia", -15.78, -47.93, "BR", 2_207_718),
    city(4, "Khartoum", 15.55, 32.53, "SD", 1_974_647),
    city(5, "Mekelle", 13.5, 39.47, "ET", 215_546),
    city(6, "Malappuram", 11.07, 76.07, "IN", 101_330),
]


@pytest.fixture(scope="module")
def gazetteer() -> Gazetteer:
    return Gazetteer(build_geonames_index(CITIES), areas=load_areas(str(FIXTURES / "areas.csv")))


def unplaced(text: str, gaz: Gazetteer) -> list[tuple[str, str, str, str]]:
    """(name, kind, the area it lies in, that area's country) of each unplaced mention."""
    sentences = split_sentences(text)
    found = find_places(text, sentences, gaz, find_actors(text, sentences))
    return [
        (p.name, p.kind, p.within.name if p.within else "", p.country)
        for p in found
        if p.source == "unplaced"
    ]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # A capitalised feature word ends the name, the kind of place it names.
        ("Thousands surged across the bridge over the Suchite River into Mexico.",
         [("Suchite River", "river", "Mexico", "MX")]),
        ("Foreigners were taken off Siargao Island, in the Philippines.",
         [("Siargao Island", "island", "Philippines", "PH")]),
        ("Officials in Athens feared the Guajataca Dam would fail.",
         [("Guajataca Dam", "dam", "Athens", "GR")]),
        # A number word is part of such a name.
        ("Rioters filled Brasilia's sprawling Three Powers Square.",
         [("Three Powers Square", "square", "Brasilia", "BR")]),
        # Or a feature word begins it; the phrase after it says where it is.
        ("A fire in the foothills of Mount Parnitha, on the edge of Athens, spread.",
         [("Mount Parnitha", "mountain", "Athens", "GR")]),
        # A river lies in its country, not around the one town of its sentence.
        ("Officials in Mogadishu said the Shabelle River ran dry.",
         [("Shabelle River", "river", "Somalia", "SO")]),
        # ... the country of the place named nearest, not the sentence's first.
        ("U.S. helicopters landed in the Swat Valley, north-west Pakistan.",
         [("Swat Valley", "valley", "Pakistan", "PK")]),
    ],
)  # fmt: skip
def test_a_feature_word_makes_a_place(gazetteer: Gazetteer, text: str, expected: list) -> None:
    assert unplaced(text, gazetteer) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # "the X area" is X; "the city" of no town is the town named last.
        ("Shelling hit Mekelle on Saturday. Blasts were heard in the city's north, in the "
         "Hamidai area.", [("Hamidai", "area", "Mekelle", "ET")]),
        # An apposition after the name, or before it, says what it is.
        ("Residents of Avantas, a village close by, fled to Athens.",
         [("Avantas", "village", "Athens", "GR")]),
        ("The river beside her village, Buulo Warbo, in Somalia's south ran dry.",
         [("Buulo Warbo", "village", "Somalia", "SO")]),
        # A distance from a place.
        ("Buulo Warbo lies more than 140km southeast of Mogadishu.",
         [("Buulo Warbo", "village", "Mogadishu", "SO")]),
        # "at X in Y", Y a place: X lies in Y.
        ("Several bodies turned up at Pothukal in Malappuram.",
         [("Pothukal", "village", "Malappuram", "IN")]),
        # Names listed after a plural feature word.
        ("Two large rivers, the Zambezi and the Pungue, broke their banks in Mozambique.",
         [("Zambezi", "river", "Mozambique", "MZ"), ("Pungue", "river", "Mozambique", "MZ")]),
        # ", said" after a place is the end of a clause, not a person speaking.
        ("A man who lives in Avantas, said the fire crossed Greece.",
         [("Avantas", "village", "Greece", "GR")]),
    ],
)  # fmt: skip
def test_structure_makes_a_place(gazetteer: Gazetteer, text: str, expected: list) -> None:
    assert unplaced(text, gazetteer) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # A landmark named by what it is, tied to its town; every other mention goes with it.
        ("Rioters stormed the presidential palace in Brasilia. The presidential palace burned.",
         [("presidential palace", "building", "Brasilia", "BR")] * 2),
        ("The army took back much of Khartoum's presidential palace.",
         [("presidential palace", "building", "Khartoum", "SD")]),
    ],
)  # fmt: skip
def test_a_landmark_tied_to_a_town_is_a_place(
    gazetteer: Gazetteer, text: str, expected: list
) -> None:
    assert unplaced(text, gazetteer) == expected


@pytest.mark.parametrize(
    "text",
    [
        # Titles, agencies, storms, people and months: no places.
        "The Army Corps of Engineers inspected the dam in Mexico.",
        "The National Weather Service warned residents in Mexico.",
        "Mark Timbal said the storm hit Mexico.",
        "Floods hit Mexico, said Faduma Hassan, a farmer in Mexico.",
        "The river rose in Mexico, said Ortega, whose village was spared.",
        "Super Typhoon Rai hit the Philippines.",
        "In March, floods hit Mexico. In December they came back.",
        # A feature word in an institution's name; an apposition that is a person's job.
        "Mount Sinai Hospital treated victims from Mexico.",
        "Lopez, a town official in Mexico, spoke.",
        "A meeting was held at Franklin Elementary in Athens.",
        # The end of a longer name; an airport (named for a person or a town).
        "Engineers inspected the Hoover Lindo Grande Dam in Mexico.",
        "Flights left Pearson International Airport in Athens.",
        "Gomez said the village was safe in Mexico.",
        # A landmark that speaks, or that no town ties down (never a country's middle).
        "The presidential palace said talks in Khartoum failed.",
        "Rioters in Brazil stormed the presidential palace.",
        # "at X in Y" needs a place Y, not a country.
        "She spoke at Pfizer in Mexico.",
    ],
)
def test_no_place_without_a_cue(gazetteer: Gazetteer, text: str) -> None:
    assert unplaced(text, gazetteer) == []
