"""Matching keys: spellings of one place meet, different places stay apart."""

from __future__ import annotations

import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from geo.names import distinct_labels, normalize, split_aliases, variants


@pytest.mark.parametrize(
    ("name", "key"),
    [
        ("Beirut", "beirut"),
        ("  Ras   Baalbek ", "ras baalbek"),
        ("Deir ez-Zor", "deir zor"),
        ("Dayr az-Zawr", "dayr zawr"),
        ("Al Mayadin", "mayadin"),
        ("al-Mayadin", "mayadin"),
        ("Al-Bukamal", "bukamal"),
        ("Ālbū Kamāl", "albu kamal"),
        ("Baʿlabakk", "balabakk"),
        ("Ba`labakk", "balabakk"),
        ("Al Qa'a", "qaa"),
        ("Aarsâl", "aarsal"),
        ("Al Ḩamrā’", "hamra"),
        ("Al ‘Ashārah", "asharah"),
        ("Jisr ash-Shughur", "jisr shughur"),
        ("Saint-Étienne", "saint etienne"),
        ("Tromsø", "tromso"),
        ("STRAßE", "strasse"),
        ("İstanbul", "istanbul"),
        ("Homs (Hims)", "homs hims"),
        ("al_Qusayr", "qusayr"),
        ("إسكالديس-إنجورداني", "اسكالديس انجورداني"),
    ],
)
def test_normalize(name: str, key: str) -> None:
    assert normalize(name) == key


@pytest.mark.parametrize(
    "spellings",
    [
        ("Al Mayadin", "al-Mayadin", "Mayadin", "AL-MAYADIN", "Al Mayādīn"),
        ("Deir ez-Zor", "Deir Zor", "Deir ez Zor", "deir-ez-zor"),
        ("al-Qaa", "El Qaa", "Qaa", "Al Qa'a", "al-Qāa"),
        ("An Nabk", "al-Nabk", "Nabk", "an-Nabk"),
        ("Al Quşayr", "al-Qusayr", "Qusayr"),
        ("Baʿlabakk", "Ba'labakk", "Ba`labakk", "Balabakk", "Ba’labakk"),
        ("Ras Baalbek", "ras-baalbek", "RAS  BAALBEK", "Ras Baalbek."),
    ],
)
def test_spellings_of_one_place_meet(spellings: tuple[str, ...]) -> None:
    assert len({normalize(s) for s in spellings}) == 1


@pytest.mark.parametrize(
    ("a", "b"),
    [
        ("Albu Kamal", "Abu Kamal"),  # "al" inside a word is not an article
        ("Alma", "Ma"),
        ("Ras Baalbek", "Baalbek"),
        ("Deir ez-Zor", "Dayr az-Zawr"),  # a different transliteration needs an alias
        ("Tripoli", "Tripolis"),
    ],
)
def test_different_names_stay_apart(a: str, b: str) -> None:
    assert normalize(a) != normalize(b)


@pytest.mark.parametrize(
    ("name", "key"),
    [
        ("Al", "al"),  # nothing but an article: kept, or the name would vanish
        ("El-", "el"),
        ("Mayadin al", "mayadin al"),  # an article needs a word after it
        ("", ""),
        (" -'’ ", ""),
    ],
)
def test_article_edge_cases(name: str, key: str) -> None:
    assert normalize(name) == key


@given(st.text(max_size=40))
def test_normalize_is_idempotent(name: str) -> None:
    key = normalize(name)
    assert normalize(key) == key
    assert key == key.strip() and "  " not in key


def test_variants_drop_blanks_and_duplicates() -> None:
    assert variants("Arsal", ["Aarsal", "arsal", " ", "Ersal"]) == {"arsal", "aarsal", "ersal"}
    assert variants("—") == set()


@pytest.mark.parametrize(
    ("cell", "items"),
    [
        ("Aarsal|Ersal| |Irsal ", ["Aarsal", "Ersal", "Irsal"]),
        ("", []),
        (["Qaa", "", "El Qaa"], ["Qaa", "El Qaa"]),
        (None, []),
        (math.nan, []),
    ],
)
def test_split_aliases(cell: object, items: list[str]) -> None:
    assert split_aliases(cell) == items


@pytest.mark.parametrize(
    ("labels", "expected"),
    [
        ({}, {}),
        ({"a": "Mosul", "b": "Gaza"}, {"a": "Mosul", "b": "Gaza"}),
        (
            {"acled-1": "ACLED fixture", "acled-2": "ACLED fixture", "c": "Other"},
            {
                "acled-1": "ACLED fixture · acled-1",
                "acled-2": "ACLED fixture · acled-2",
                "c": "Other",
            },
        ),
    ],
)
def test_distinct_labels(labels, expected):
    assert distinct_labels(labels) == expected
    assert len(set(distinct_labels(labels).values())) == len(labels)
