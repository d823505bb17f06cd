"""Issue 24: the kind of a drafted event, from words and clause structure (tables of sentence ->
expected category, with counter-examples)."""

from __future__ import annotations

from datetime import date

import pytest

from geo.extract.events import guess_category
from tests.geo.extract.test_events import events

SAT = date(2020, 11, 28)


@pytest.mark.parametrize(
    ("sentence", "category"),
    [
        # Ground aimed at is an offensive; ground taken is a capture.
        ("Government troops had launched an offensive to seize the regional capital.", "offensive"),
        ("The army opened an offensive aimed at capturing the city.", "offensive"),
        ("Rebels are trying to recapture the town.", "offensive"),
        ("The army seized the regional capital on Saturday.", "capture"),
        ("Troops captured the town after trying to take it for a week.", "capture"),
        # A coup's "seize power" is read before the purpose is set aside.
        ("Soldiers attempted to seize power overnight.", "coup"),
    ],
)
def test_purpose_is_no_capture(sentence: str, category: str) -> None:
    assert guess_category(sentence) == category


@pytest.mark.parametrize(
    ("sentence", "category"),
    [
        # A front's or an army's name is no ground taken.
        ("The Tigray People's Liberation Front said it had no comment.", "statement"),
        ("The Sudan People's Liberation Army shelled the town.", "shelling"),
        ("The liberation of the city took three weeks.", "capture"),
        ("Troops liberated the village on Sunday.", "capture"),
    ],
)
def test_liberation_in_a_name(sentence: str, category: str) -> None:
    assert guess_category(sentence) == category


@pytest.mark.parametrize(
    ("sentence", "category"),
    [
        # One hazard setting off another: the place had the one brought.
        ("The storm had already brought heavy rain and flooding to the two districts.", "flood"),
        ("Cyclone rains triggered landslides in the hills.", "landslide"),
        ("The typhoon caused flash floods across the island.", "flood"),
        # Counter-examples: the hazard itself, or a non-hazard brought.
        ("The storm brought strong winds and rain to the coast.", "storm"),
        ("The hurricane caused widespread damage to the island.", "storm"),
        ("Floods brought misery to thousands of families.", "flood"),
    ],
)
def test_hazard_brought_by_another(sentence: str, category: str) -> None:
    assert guess_category(sentence) == category


@pytest.mark.parametrize(
    ("text", "category"),
    [
        # The clause that names the place says what happened there.
        (
            "The rebellious region has come under heavy shelling, and the army has opened an "
            "offensive in Eritrea on Saturday.",
            "offensive",
        ),
        (
            "Officials said there was heavy fighting, and the army shelled Eritrea on Saturday.",
            "shelling",
        ),
        # Counter-example: the placed clause says nothing of its own; the sentence's kind holds.
        (
            "Heavy shelling went on all day, and the people of Eritrea waited on Saturday.",
            "shelling",
        ),
    ],
)
def test_kind_from_the_placed_clause(text: str, category: str) -> None:
    drafted = events(text, SAT)
    assert [e.category for e in drafted] == [category]


@pytest.mark.parametrize(
    ("sentence", "theme", "category"),
    [
        # Bodies found are their own happening, even in a hazard's story.
        ("Several bodies turned up downstream at the town.", "landslide", "remains-found"),
        (
            "The burned bodies of 18 people, who may have been migrants, were discovered.",
            "",
            "remains-found",
        ),
        ("The bodies of three fishermen were recovered on Monday.", "flood", "remains-found"),
        # Bodies seen where they lie are bodies found, counted or not.
        ("The bodies of at least 12 men lay in the streets.", "", "remains-found"),
        ("The bodies of the dead lay in the streets.", "", "remains-found"),
        ("The bodies lay close to the forest.", "wildfire", "remains-found"),
        # Counter-examples: a toll, or the dead with no bodies seen, stay the hazard's or a
        # toll; "bodies" that lay out a plan are organisations.
        ("At least 12 people were killed.", "landslide", "landslide"),
        ("The dead lay in the streets.", "", "casualties"),
        ("Regional bodies lay out a plan for talks.", "", "statement"),
    ],
)
def test_bodies_found(sentence: str, theme: str, category: str) -> None:
    assert guess_category(sentence, theme) == category


@pytest.mark.parametrize(
    ("lead", "category"),
    [
        # A named storm's report: its floods and its tolls are the storm's.
        ("Floodwaters brought by Hurricane Maria damaged a dam in Eritrea on Friday.", "storm"),
        ("Typhoon rains flooded villages in Eritrea on Friday.", "storm"),
        # Counter-examples: a flood report with no named storm; a bare "storm" is weather.
        ("Floods damaged a dam in Eritrea on Friday.", "flood"),
        ("Floods after a storm damaged a dam in Eritrea on Friday.", "flood"),
    ],
)
def test_named_storm_is_the_theme(lead: str, category: str) -> None:
    drafted = events(lead + " A man was killed in Ethiopia on Friday.", SAT)
    assert drafted[-1].category == category


@pytest.mark.parametrize(
    ("text", "categories"),
    [
        # A dated sentence with a place and no words of a happening is a statement only when
        # someone says something.
        ("Nobody knew where he was on Saturday, but the general was in Eritrea.", []),
        ("The president was in Eritrea on Saturday.", []),
        ("The president said on Saturday that Eritrea would talk.", ["statement"]),
        ("On Saturday the UN condemned the violence in Eritrea.", ["statement"]),
        ("According to officials in Eritrea, the talks went well on Saturday.", ["statement"]),
    ],
)
def test_statement_needs_words_said(text: str, categories: list[str]) -> None:
    assert [e.category for e in events(text, SAT)] == categories


@pytest.mark.parametrize(
    ("text", "categories"),
    [
        # Forces that move are drafted for the editor to name, words or not.
        ("Troops erected blast walls in Eritrea on Saturday.", ["statement"]),
        ("Soldiers were on standby in Eritrea on Saturday.", ["statement"]),
        ("The general was at army headquarters in Eritrea on Saturday.", []),
    ],
)
def test_forces_that_move_are_drafted(text: str, categories: list[str]) -> None:
    assert [e.category for e in events(text, SAT)] == categories


@pytest.mark.parametrize(
    ("text", "categories"),
    [
        # A sentence that names no place but tells a happening of another kind than the one
        # before it: drafted at that happening's place.
        (
            "Floods hit Eritrea on Saturday. Helicopters were sent to pick up people who were "
            "stranded.",
            ["flood", "evacuation"],
        ),
        (
            "Soldiers seized power in Eritrea on Saturday. Police fired tear gas at protesters.",
            ["coup", "protest"],
        ),
        # Counter-examples: a toll or words are more of the happening; "Separately" is
        # elsewhere; where words were said is no place of happenings; the same kind is a
        # retelling.
        ("Floods hit Eritrea on Saturday. Twelve people were killed.", ["flood"]),
        (
            "Floods hit Eritrea on Saturday. Separately, 29 foreigners were evacuated.",
            ["flood"],
        ),
        (
            "The minister said on Saturday that Eritrea was calm. Police fired tear gas at "
            "protesters.",
            ["statement"],
        ),
        ("Floods hit Eritrea on Saturday. More villages were flooded.", ["flood"]),
    ],
)
def test_unplaced_sentence_of_its_own_kind(text: str, categories: list[str]) -> None:
    assert [e.category for e in events(text, SAT)] == categories


@pytest.mark.parametrize(
    ("sentence", "category"),
    [
        # An accusation is words about a happening.
        ("The presidency accused guard members of staging a demonstration.", "statement"),
        ("The army accused the rebels of shelling the town.", "statement"),
        # Counter-example: the accused did it, and the sentence tells it.
        ("Police accused of firing on protesters were suspended.", "protest"),
    ],
)
def test_accusation_is_words(sentence: str, category: str) -> None:
    assert guess_category(sentence) == category


@pytest.mark.parametrize(
    ("text", "categories"),
    [
        # A coup's state of emergency, at its place and time, is the coup.
        (
            "The army seized power in Eritrea on Saturday. It said a state of emergency was in "
            "force.",
            ["coup"],
        ),
        # Counter-example: a government's curfew after a protest is a decision of its own.
        (
            "Protesters marched in Eritrea on Saturday. A curfew was imposed in Eritrea on "
            "Saturday.",
            ["protest", "decision"],
        ),
    ],
)
def test_coup_orders_are_the_coup(text: str, categories: list[str]) -> None:
    assert [e.category for e in events(text, SAT)] == categories


@pytest.mark.parametrize(
    ("sentence", "category"),
    [
        # What a pause is for is not what happened; the pause is.
        ("Both sides agreed a three-hour pause to let the wounded be evacuated.", "ceasefire"),
        ("They signed a deal to allow civilians to be evacuated.", "agreement"),
        # Counter-examples: people evacuated, or sent to evacuate them.
        ("The wounded were evacuated during a three-hour pause.", "evacuation"),
        ("Helicopters were sent to evacuate the wounded.", "evacuation"),
    ],
)
def test_evacuation_allowed_is_no_evacuation(sentence: str, category: str) -> None:
    assert guess_category(sentence) == category


@pytest.mark.parametrize(
    ("sentence", "category"),
    [
        # "Struck" says a blow, not what weapon dealt it.
        ("It was not known whether he had been struck by a bullet.", "statement"),
        ("Forces struck the army's base, and several people were killed.", "casualties"),
        # Counter-examples: the weapon says it.
        ("Rockets struck the city centre overnight.", "shelling"),
        ("Coalition jets struck the last pocket.", "airstrike"),
        ("The earthquake struck just before midnight.", "earthquake"),
    ],
)
def test_struck_names_no_weapon(sentence: str, category: str) -> None:
    assert guess_category(sentence) == category


@pytest.mark.parametrize(
    ("sentence", "category"),
    [
        # Gangs sweeping through a neighbourhood attack the people in it.
        ("Gangs have swept through two neighbourhoods, and a dozen people are dead.", "attack"),
        ("A wave of gang attacks has hit the capital.", "attack"),
        ("A gang stormed the village at dawn.", "attack"),
        # Counter-examples: not a gang's act, or a crowd's.
        ("Protesters swept through the streets, and a dozen people are dead.", "protest"),
        ("Floodwaters swept through two neighbourhoods.", "flood"),
        ("Police arrested members of a gang.", "arrest"),
    ],
)
def test_gangs_attack(sentence: str, category: str) -> None:
    assert guess_category(sentence) == category


@pytest.mark.parametrize(
    ("text", "places"),
    [
        # Every country listed after "nationals of" is where people come from.
        (
            "Floods hit Eritrea on Saturday. The people brought out were nationals of the "
            "United States, France, Britain and Canada.",
            ["Eritrea"],
        ),
        # Counter-example: a list of where it happened is drafted at each.
        (
            "Floods hit Eritrea on Saturday. Floods also hit France and Spain on Saturday.",
            ["Eritrea", "France"],
        ),
    ],
)
def test_listed_origins_are_no_places_of_happenings(text: str, places: list[str]) -> None:
    assert [e.place.name for e in events(text, SAT)] == places
