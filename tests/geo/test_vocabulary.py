"""Tests for geo.vocabulary: every category has a family, a map colour and, where ACLED codes
it, an event type and a sub-event type that belong together in ACLED's codebook."""

from __future__ import annotations

import csv
from collections import Counter
from pathlib import Path

import pytest

from geo import vocabulary
from geo.map.style import CATEGORY_COLOURS, OTHER, family
from geo.story.library import BUNDLED
from geo.vocabulary import CATEGORIES, CATEGORY, FAMILIES, acled_event_type, acled_sub_event

# ACLED's codebook (2023): its six event types and the sub-event types of each.
ACLED_CODEBOOK = {
    "Battles": (
        "Government regains territory",
        "Non-state actor overtakes territory",
        "Armed clash",
    ),
    "Protests": (
        "Excessive force against protesters",
        "Protest with intervention",
        "Peaceful protest",
    ),
    "Riots": ("Violent demonstration", "Mob violence"),
    "Explosions/Remote violence": (
        "Chemical weapon",
        "Air/drone strike",
        "Suicide bomb",
        "Shelling/artillery/missile attack",
        "Remote explosive/landmine/IED",
        "Grenade",
    ),
    "Violence against civilians": (
        "Sexual violence",
        "Attack",
        "Abduction/forced disappearance",
    ),
    "Strategic developments": (
        "Agreement",
        "Arrests",
        "Change to group/activity",
        "Disrupted weapons use",
        "Headquarters or base established",
        "Looting/property destruction",
        "Non-violent transfer of territory",
        "Other",
    ),
}
# The first story format's categories: every old story must stay valid.
OLD_CATEGORIES = (
    "offensive",
    "battle",
    "ceasefire",
    "convoy",
    "airstrike",
    "handover",
    "speech",
    "celebration",
    "casualties",
    "captives",
    "remains-found",
    "evacuation",
    "prisoner-swap",
    "funeral",
    "statement",
)


def test_the_codebook_table_has_six_types_and_25_sub_events():
    assert len(ACLED_CODEBOOK) == 6
    assert sum(len(subs) for subs in ACLED_CODEBOOK.values()) == 25


def test_categories_are_the_table_in_order():
    assert tuple(CATEGORY) == CATEGORIES
    assert all(name == cat.name for name, cat in CATEGORY.items())
    assert len(set(CATEGORIES)) == len(CATEGORIES)


def test_every_old_category_is_still_in_the_vocabulary():
    assert set(OLD_CATEGORIES) <= set(CATEGORIES)


def test_the_story_loader_takes_the_vocabulary():
    from geo.story.load import CATEGORIES as LOADER_CATEGORIES

    assert LOADER_CATEGORIES == CATEGORIES


def test_the_bundled_story_uses_only_vocabulary_categories():
    with open(BUNDLED / "qalamoun-2017" / "events.csv", encoding="utf-8") as f:
        used = {row["category"] for row in csv.DictReader(f)}
    assert used <= set(CATEGORIES)


@pytest.mark.parametrize("name", CATEGORIES)
def test_every_category_has_a_family_and_a_label(name):
    cat = CATEGORY[name]
    assert cat.family in FAMILIES
    assert cat.label.strip() == cat.label and cat.label
    assert cat.to_dict() == {
        "category": name,
        "family": cat.family,
        "acled_event_type": cat.acled_event_type,
        "acled_sub_event_type": cat.acled_sub_event_type,
    }


@pytest.mark.parametrize("name", CATEGORIES)
def test_acled_types_belong_together(name):
    cat = CATEGORY[name]
    if not cat.acled_event_type:
        assert cat.acled_sub_event_type == "", "a sub-event type without an event type"
        return
    assert cat.acled_event_type in ACLED_CODEBOOK
    assert acled_event_type(name) == cat.acled_event_type
    if name == "capture":  # decided by who took the ground
        assert cat.acled_sub_event_type == ""
    else:
        assert cat.acled_sub_event_type in ACLED_CODEBOOK[cat.acled_event_type]
        assert acled_sub_event(name) == cat.acled_sub_event_type


@pytest.mark.parametrize("actors", [["Syrian Army"], ["ISIS"]])
def test_either_capture_sub_event_is_a_battle(actors):
    assert acled_sub_event("capture", actors) in ACLED_CODEBOOK["Battles"]


@pytest.mark.parametrize(
    ("actors", "expected"),
    [
        pytest.param(["Syrian Army", "ISIS"], "Government regains territory", id="army"),
        pytest.param(("Lebanese Army",), "Government regains territory", id="tuple"),
        pytest.param(["Military of Mali"], "Government regains territory", id="military"),
        pytest.param(["Government troops"], "Government regains territory", id="troops"),
        pytest.param(["Federal Police"], "Government regains territory", id="police"),
        pytest.param(["ISIS", "Syrian Army"], "Non-state actor overtakes territory", id="isis"),
        pytest.param(["Hezbollah"], "Non-state actor overtakes territory", id="hezbollah"),
        pytest.param(["Hayat Tahrir al-Sham"], "Non-state actor overtakes territory", id="hts"),
        pytest.param([], "", id="no-actor"),
        pytest.param([""], "", id="blank-actor"),
        # A state force named without "army", and rebel groups whose names say army.
        pytest.param(
            ["Iraqi security forces"],
            "Government regains territory",
            id="security-forces",
        ),
        pytest.param(
            ["Free Syrian Army"],
            "Non-state actor overtakes territory",
            id="free-syrian-army",
        ),
        pytest.param(
            ["Arakan Army"],
            "Non-state actor overtakes territory",
            id="arakan-army",
        ),
    ],
)
def test_capture_by_the_state_or_by_others(actors, expected):
    assert acled_sub_event("capture", actors) == expected


@pytest.mark.parametrize(
    ("category", "actors", "expected"),
    [
        pytest.param("battle", ["ISIS"], "Armed clash", id="actors-do-not-matter"),
        pytest.param("earthquake", [], "", id="disaster"),
        pytest.param("alien-landing", ["Army"], "", id="unknown"),
    ],
)
def test_acled_sub_event_of_other_categories(category, actors, expected):
    assert acled_sub_event(category, actors) == expected


@pytest.mark.parametrize(
    ("category", "expected"),
    [
        pytest.param("airstrike", "Explosions/Remote violence", id="airstrike"),
        pytest.param("statement", "", id="statement"),
        pytest.param("election", "", id="election"),
        pytest.param("flood", "", id="flood"),
        pytest.param("alien-landing", "", id="unknown"),
    ],
)
def test_acled_event_type(category, expected):
    assert acled_event_type(category) == expected


@pytest.mark.parametrize("name", CATEGORIES)
def test_every_category_has_a_map_colour(name):
    assert name in CATEGORY_COLOURS
    assert family(name) is not OTHER


def test_the_vocabulary_module_names_each_acled_type_once():
    types = {
        vocabulary.BATTLES,
        vocabulary.EXPLOSIONS,
        vocabulary.VIOLENCE,
        vocabulary.PROTESTS,
        vocabulary.RIOTS,
        vocabulary.STRATEGIC,
    }
    assert types == set(ACLED_CODEBOOK)


# --- docs/event-vocabulary.md says the same ------------------------------------------------------

DOC = Path(__file__).resolve().parents[2] / "docs" / "event-vocabulary.md"


def _section_rows(heading: str) -> list[list[str]]:
    """The table rows (cells stripped) of one ``## `` section of the document, header left out."""
    text = DOC.read_text(encoding="utf-8")
    body = text.split(f"## {heading}\n", 1)[1].split("\n## ", 1)[0]
    rows = [[c.strip() for c in line.strip("|").split("|")] for line in body.splitlines()]
    return [r for r in rows if r[0] in CATEGORIES]


def test_the_document_lists_every_category_once():
    assert sorted(r[0] for r in _section_rows("The categories")) == sorted(CATEGORIES)


@pytest.mark.parametrize("row", _section_rows("The categories"), ids=lambda r: r[0])
def test_the_document_gives_each_category_its_family_and_acled_types(row):
    name = row[0]
    assert row[1] == family(name).label
    if len(row) == 4:  # the disasters, movement and words table: nothing ACLED codes
        assert acled_event_type(name) == ""
        return
    event_type, sub_event = ("" if cell == "–" else cell for cell in row[2:4])
    assert event_type == acled_event_type(name)
    if name == "capture":
        assert sub_event.startswith("Government regains territory")
        assert "Non-state actor overtakes territory" in sub_event
    else:
        assert sub_event == CATEGORY[name].acled_sub_event_type


def test_the_document_counts_the_bundled_story_right():
    with open(BUNDLED / "qalamoun-2017" / "events.csv", encoding="utf-8") as f:
        used = Counter(row["category"] for row in csv.DictReader(f))
    rows = _section_rows("The bundled story in ACLED's terms")
    assert {r[0]: int(r[1]) for r in rows} == used
    for name, _n, event_type, sub_event, _note in rows:
        assert event_type.replace("–", "") == acled_event_type(name)
        assert sub_event.replace("–", "") == CATEGORY[name].acled_sub_event_type
