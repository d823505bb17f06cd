"""geoBoundaries' districts named without a type word (geo/extract/places/districts.py):
placed only where the article's own places vouch for them, against a small fake GeoNames index
and a made-up districts table."""

from __future__ import annotations

import gzip
from dataclasses import replace

import pytest

from geo.extract.actors import find_actors
from geo.extract.places import find_places
from geo.extract.sentences import split_sentences
from geo.geocoders.gazetteer import _KEYED_COLUMNS, Gazetteer, build_geonames_index, load_areas
from geo.names import variants
from tests.helpers import FIXTURES, city

CITIES = [
    city(1, "Dhaka", 23.81, 90.41, "BD", 10_356_500),
    # GeoNames gives Rangpur "Rampura" as an alternate name, 250 km from Dhaka's thana.
    city(2, "Rangpur", 25.75, 89.25, "BD", 343_122, "Rampura"),
    city(3, "Kathmandu", 27.7, 85.32, "NP", 1_442_271),
]
# (name, country, lat, lon): thanas of Dhaka, one with an Indian namesake; one 250 km from
# Dhaka; one of another country set down by Dhaka; one named with a common word.
DISTRICTS = [
    ("Badda", "BD", 23.78, 90.43),
    ("Badda", "IN", 24.5314, 75.4282),
    ("Motijheel", "BD", 22.33, 91.83),
    ("Kirtipur", "NP", 23.78, 90.40),
    ("Bazar", "BD", 23.75, 90.39),
    ("Rampura", "BD", 23.7598, 90.4211),
]


@pytest.fixture(scope="module")
def gazetteer(tmp_path_factory: pytest.TempPathFactory) -> Gazetteer:
    path = tmp_path_factory.mktemp("districts") / "districts.csv.gz"
    lines = [",".join(_KEYED_COLUMNS)]
    for i, (name, cc, lat, lon) in enumerate(DISTRICTS):
        keys = "|".join(sorted(variants(name, [])))
        lines.append(f"adm3:gb-{i},{name},,district,{cc},01,{lat},{lon},3000,,,qualified,,{keys}")
    path.write_bytes(gzip.compress(("\n".join(lines) + "\n").encode()))
    areas = replace(load_areas(str(FIXTURES / "areas.csv")), extra=(str(path),), _memo={})
    return Gazetteer(build_geonames_index(CITIES), areas=areas)


def placed(text: str, gaz: Gazetteer, name: str) -> list[tuple[str, str]]:
    """(place id, country) of each placed mention written ``name``."""
    sentences = split_sentences(text)
    found = find_places(text, sentences, gaz, find_actors(text, sentences))
    return [(p.place_id, p.country) for p in found if p.text == name and p.placed]


_DHAKA = "Police fired tear gas at protesters in Dhaka on Friday. "


@pytest.mark.parametrize(
    ("text", "name", "expected"),
    [
        # Beside the story's own town, in its country: the thana, not its Indian namesake.
        (_DHAKA + "Later, thousands came back out in Badda.", "Badda", [("adm3:gb-0", "BD")]),
        # The vote leaves Rangpur (by an alternate name) unplaced: the district is the place.
        (_DHAKA + "Later, thousands came out in Rampura, a residential neighbourhood.",
         "Rampura", [("adm3:gb-5", "BD")]),
        # Every mention of the name.
        (_DHAKA + "Crowds in Badda grew. By night Badda was quiet.", "Badda",
         [("adm3:gb-0", "BD"), ("adm3:gb-0", "BD")]),
        # Nothing of the article's own to vouch for it.
        ("Later, thousands came back out in Badda.", "Badda", []),
        # Too far from the article's places.
        (_DHAKA + "Later, thousands came back out in Motijheel.", "Motijheel", []),
        # Another country's district, however near.
        (_DHAKA + "Later, thousands came back out in Kirtipur.", "Kirtipur", []),
        # Written in lowercase too: a common word.
        (_DHAKA + "Crowds filled Bazar, and the bazar stayed shut.", "Bazar", []),
        # Capitalised only at a sentence's start.
        (_DHAKA + "Badda stayed calm.", "Badda", []),
    ],
)  # fmt: skip
def test_a_district_named_bare(gazetteer: Gazetteer, text: str, name: str, expected) -> None:
    assert placed(text, gazetteer, name) == expected


def test_with_a_type_word_the_table_still_finds_it_far_off(gazetteer: Gazetteer) -> None:
    # The rule adds bare names only: "Motijheel district" is found as before.
    assert [p.id for p in gazetteer.lookup_division("Motijheel", "district")] == ["adm3:gb-2"]
