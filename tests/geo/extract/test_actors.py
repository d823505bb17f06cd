"""Tests for geo.extract.actors."""

from __future__ import annotations

from pathlib import Path

import pytest

from geo.extract.actors import find_actors, load_actors


def names(text: str) -> list[tuple[str, str, bool]]:
    return [(a.name, a.text, a.listed) for a in find_actors(text)]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Hezbollah with the Syrian army", [("Hezbollah", "Hezbollah", True),
                                            ("Syrian Army", "Syrian army", True)]),
        ("ISIS, IS, ISIL and Daesh", [("Islamic State", "ISIS", True),
                                      ("Islamic State", "IS", True),
                                      ("Islamic State", "ISIL", True),
                                      ("Islamic State", "Daesh", True)]),
        ("the Islamic State group", [("Islamic State", "Islamic State group", True)]),
        ("the U.S.-led coalition struck", [("US-led coalition", "U.S.-led coalition", True)]),
        ("Hayat Tahrir al-Sham fighters", [("Hayat Tahrir al-Sham", "Hayat Tahrir al-Sham", True)]),
        ("the Lebanese army and the Red Crescent",
         [("Lebanese Army", "Lebanese army", True), ("Red Crescent", "Red Crescent", True)]),
        ("The Abu Fadl al-Abbas Brigade fought",
         [("Abu Fadl al-Abbas Brigade", "Abu Fadl al-Abbas Brigade", False)]),
        ("the Army of Islam", [("Army of Islam", "Army of Islam", False)]),
        ("Ukraine's 93rd Mechanised Brigade held",
         [("93rd Mechanised Brigade", "93rd Mechanised Brigade", False)]),
        ("On Monday Popular Mobilization Forces said",
         [("Popular Mobilization Forces", "Popular Mobilization Forces", False)]),
    ],
)  # fmt: skip
def test_find_actors(text: str, expected: list) -> None:
    assert names(text) == expected


@pytest.mark.parametrize(
    "text",
    [
        "let us go",  # "US" only in capitals
        "this is it",  # "IS" only in capitals
        "Hassan Nasrallah said",
        "The Army",  # a head word alone is no name
        "the Syrian side",
    ],
)
def test_no_actors(text: str) -> None:
    assert names(text) == []


def _actors_from(tmp_path: Path, toml: str):
    """The actors of an edited list holding ``toml``."""
    path = tmp_path / "actors.toml"
    path.write_text(toml, "utf-8")
    return load_actors(path)


def test_editable_list(tmp_path: Path) -> None:
    actors = _actors_from(
        tmp_path,
        '[[actor]]\nname = "Wagner"\nkind = "armed-group"\n'
        'aliases = ["Wagner Group", "PMC Wagner"]\n',
    )
    found = find_actors("PMC Wagner and Hezbollah", actors=actors)
    assert [(a.name, a.text) for a in found] == [("Wagner", "PMC Wagner")]


def test_bundled_list_loads() -> None:
    names_ = {a.name for a in load_actors()}
    assert {"Hezbollah", "Islamic State", "Syrian Army", "Lebanese Army", "Red Crescent"} <= names_


def _one_alternation(text: str, actors) -> list[tuple[tuple[int, int], str | None]]:
    from geo.extract.actors import _actor_regex

    return [(m.span(), m.lastgroup) for m in _actor_regex(actors).pattern.finditer(text)]


def _by_letter(text: str, actors) -> list[tuple[tuple[int, int], str | None]]:
    from geo.extract.actors import _actor_regex

    return [(m.span(), m.lastgroup) for m in _actor_regex(actors).finditer(text)]


@pytest.mark.parametrize(
    "text",
    [
        "HEZBOLLAH and hezbollah, the syrian ARMY, Syrian Arab Army troops",
        "ISIS-led, IS fighters, is it, the U.S.-led coalition, the US said",
        "al-Nusra Front, Nusra, Jabhat al-Nusra; Fateh al-Sham",
        "Ḥezbollah, İslamic State, ſyrian army, the Islamic State of Iraq and Syria",
        "pre-Hezbollah Hezbollah-backed Hezbollahs",
        "",
    ],
)
def test_letter_split_gives_the_single_alternation(text: str) -> None:
    actors = load_actors()
    assert _by_letter(text, actors) == _one_alternation(text, actors)


def test_letter_split_with_a_non_ascii_first_letter(tmp_path: Path) -> None:
    actors = _actors_from(
        tmp_path,
        '[[actor]]\nname = "Ögrenci"\nkind = "organisation"\naliases = ["Ögrenci Birliği"]\n'
        '[[actor]]\nname = "Kurds"\nkind = "armed-group"\naliases = ["KDP", "Kurdish forces"]\n',
    )
    text = "ögrenci birliği and the KDP; the kurdish forces, Kdp"
    assert _by_letter(text, actors) == _one_alternation(text, actors)
    assert [a.text for a in find_actors(text, actors=actors)] == [
        "ögrenci birliği", "KDP", "kurdish forces",
    ]  # fmt: skip
