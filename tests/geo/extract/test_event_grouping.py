"""Issue 24: which words give a drafted event its kind, and which sentences are one happening
(tables of sentences -> category or drafts, each with counter-examples)."""

from __future__ import annotations

from datetime import date
from pathlib import Path

import pytest

from geo.extract import extract
from geo.extract.events import guess_category
from geo.geocoders.gazetteer import Gazetteer
from tests.geo.extract.test_events import events

SAT = date(2020, 11, 28)


@pytest.fixture(scope="module")
def gazetteer(gazetteer_cache: Path) -> Gazetteer:
    """GeoNames: the provinces, districts and towns these cases name."""
    return Gazetteer.load(cache_dir=gazetteer_cache)


def drafts(text: str, gazetteer: Gazetteer) -> list[tuple[str, str, str, str]]:
    """(category, place, first day, last day) of each draft of ``text``, published SAT."""
    return [
        (e.category, e.place.name, e.date.isoformat(), e.end_date.isoformat())
        for e in extract(text, SAT, gazetteer=gazetteer).events
    ]


@pytest.mark.parametrize(
    ("sentence", "category"),
    [
        # A clause that describes a place or people says what they are like; the main clause
        # says what happened.
        (
            "The bodies of 18 people were discovered in a forest where wildfires had been "
            "raging for days.",
            "remains-found",
        ),
        ("Police arrested 40 men in the town, which floods had cut off for a week.", "arrest"),
        # One with no comma before it, when it ends the sentence.
        ("Riot police opened fire on demonstrators who ignored a government curfew.", "protest"),
        # Counter-examples: a main clause with no words of a happening keeps the clause's.
        ("Three of them were in the municipality, where mudslides struck.", "landslide"),
        ("Wildfires raged in the forest where the bodies were found.", "wildfire"),
        # ... and one that does not end it may hold the main verb.
        (
            "Supporters who will not accept that he lost the election forced their way into "
            "parliament.",
            "riot",
        ),
        ("The army imposed a curfew on towns which protesters had held.", "decision"),
    ],
)
def test_main_clause_over_relative_clause(sentence: str, category: str) -> None:
    assert guess_category(sentence) == category


@pytest.mark.parametrize(
    ("sentence", "category"),
    [
        # Concern voiced is words about a happening.
        ("Election observers voiced concern over the vote count.", "statement"),
        ("The UN expressed deep concern about the fighting.", "statement"),
        # Shots fired to scare a crowd off: police and a crowd.
        ("Guards scattered the crowd by firing warning shots.", "protest"),
        # Lives lost are a toll.
        ("Nine more people lost their lives on Saturday.", "casualties"),
        # An order to leave may say where the people are, at length.
        (
            "Officials ordered tens of thousands of people in the northwest of the island to "
            "leave their homes.",
            "evacuation",
        ),
        # Counter-examples: the happening's own words.
        ("Observers said the vote count was slow.", "election"),
        ("Guards fired on the crowd, and two people were killed.", "casualties"),
        ("The minister ordered an inquiry into the army's conduct.", "decision"),
    ],
)
def test_kind_words(sentence: str, category: str) -> None:
    assert guess_category(sentence) == category


@pytest.mark.parametrize(
    ("text", "categories"),
    [
        # What would follow something that has not happened is no happening.
        ("A breach would flood towns in Eritrea on Saturday.", []),
        # Counter-examples: a plan someone told, and what did happen.
        ("The minister said the army would hold a parade in Eritrea on Saturday.", ["celebration"]),
        ("A breach sent a wall of water into Eritrea on Saturday, flooding towns.", ["flood"]),
    ],
)
def test_would_without_a_teller(text: str, categories: list[str]) -> None:
    assert [e.category for e in events(text, SAT)] == categories


@pytest.mark.parametrize(
    ("text", "days"),
    [
        # "Since" a day: the happening lasts from that day to publication.
        ("Floods have killed 147 people in Eritrea since November 1.", [("11-01", "11-28")]),
        # Counter-example: on a day.
        ("Floods killed 147 people in Eritrea on November 1.", [("11-01", "11-01")]),
    ],
)
def test_since_a_day_lasts_to_publication(text: str, days: list[tuple[str, str]]) -> None:
    drafted = events(text, SAT)
    assert [(e.date.isoformat()[5:], e.end_date.isoformat()[5:]) for e in drafted] == days


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # A day told with its own date inside a long spell is a happening of its own.
        (
            "Floods have killed 147 people in Turkey since November 1. On Saturday floods cut "
            "off Adana.",
            [("flood", "Turkey", "2020-11-01", "2020-11-28"),
             ("flood", "Adana", "2020-11-28", "2020-11-28")],
        ),
        # A toll told place by place: each place's part is not the whole told again.
        (
            "Floods hit Turkey on Saturday. Three people died in Adana; two died in Mersin.",
            [("flood", "Turkey", "2020-11-28", "2020-11-28"),
             ("flood", "Adana", "2020-11-28", "2020-11-28"),
             ("flood", "Mersin", "2020-11-28", "2020-11-28")],
        ),
        # Counter-examples: a day told again, one place's toll told again.
        (
            "Floods cut off Adana on Saturday. On Saturday more floods hit Adana.",
            [("flood", "Adana", "2020-11-28", "2020-11-28")],
        ),
        (
            "Floods hit Turkey on Saturday. Three people died in Adana.",
            [("flood", "Adana", "2020-11-28", "2020-11-28")],
        ),
    ],
)  # fmt: skip
def test_what_is_told_again(gazetteer: Gazetteer, text: str, expected: list) -> None:
    assert drafts(text, gazetteer) == expected


@pytest.mark.parametrize(
    ("text", "place"),
    [
        # A place written as part of another is where it happened.
        ("The quake hit Gansu's Jishishan county on Saturday.", "Jishishan"),
        ("The quake hit Gansu province's Jishishan county on Saturday.", "Jishishan"),
        # Counter-example: two places that are not one's part of the other: the nearest.
        ("The quake hit Gansu on Saturday as Jishishan county slept.", "Gansu"),
    ],
)
def test_place_written_as_part_of_another(gazetteer: Gazetteer, text: str, place: str) -> None:
    (drafted,) = drafts(text, gazetteer)
    assert drafted[1].startswith(place)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # Both ends of a measured stretch are landmarks, not where it happened: the sentence
        # tells more of the happening before it.
        (
            "A quake hit Turkey on Saturday. About 13 million people were affected across a "
            "stretch of 450km running from Adana in the west to Diyarbakir in the east.",
            [("earthquake", "Turkey")],
        ),
        # Counter-example: a place named as where people were affected.
        (
            "A quake hit Turkey on Saturday. About 13 million people were affected in Adana.",
            [("earthquake", "Adana")],
        ),
    ],
)
def test_ends_of_a_stretch(gazetteer: Gazetteer, text: str, expected: list) -> None:
    assert [d[:2] for d in drafts(text, gazetteer)] == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # ", where" opens a clause of its own when each side names a place and a happening.
        (
            "Typhoon Rai hit the Philippines on Friday. A large share of the dead were in "
            "Bohol, where officials said the Loboc River overflowed and flooded whole "
            "communities.",
            [("storm", "Philippines"), ("storm", "Bohol"), ("flood", "Loboc")],
        ),
        # Counter-example: the "where" clause names no place of its own.
        (
            "Typhoon Rai hit the Philippines on Friday. A large share of the dead were in "
            "Bohol, where officials are still counting.",
            [("storm", "Bohol")],
        ),
    ],
)
def test_where_clause_of_its_own(gazetteer: Gazetteer, text: str, expected: list) -> None:
    assert [(c, p.split()[0]) for c, p, *_ in drafts(text, gazetteer)] == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # In a coup's report, forces that move where nothing else is said of them are the
        # coup's.
        (
            "The army took power in a coup in Naypyitaw on Monday. In Yangon, soldiers and riot "
            "police were on standby.",
            [("coup", "Nay Pyi Taw"), ("coup", "Yangon")],
        ),
        # Counter-examples: forces in a report of no coup; a coup report's own words of kind.
        (
            "Protesters marched in Naypyitaw on Monday. In Yangon, soldiers and riot police were "
            "on standby.",
            [("protest", "Nay Pyi Taw")],
        ),
        (
            "The army took power in a coup in Naypyitaw on Monday. In Yangon, police fired tear "
            "gas at protesters.",
            [("coup", "Nay Pyi Taw"), ("protest", "Yangon")],
        ),
    ],
)
def test_forces_in_a_coup_report(gazetteer: Gazetteer, text: str, expected: list) -> None:
    assert [d[:2] for d in drafts(text, gazetteer)] == expected


@pytest.mark.parametrize(
    ("sentence", "theme", "category"),
    [
        # How a place stands, told in the present, is no happening of the hazard.
        ("The dam holds back the reservoir, which stretches for 240 kilometres.", "flood",
         "statement"),
        ("The village lies 140km southeast of the capital.", "drought", "statement"),
        # Counter-examples: a hazard's words, or words said, in the same report.
        ("Most of the land under water lies on the left bank.", "flood", "flood"),
        ("The governor said the village lies cut off.", "flood", "flood"),
        ("The dam burst and the water swept the valley.", "flood", "flood"),
    ],
)  # fmt: skip
def test_how_things_stand_is_no_happening(sentence: str, theme: str, category: str) -> None:
    assert guess_category(sentence, theme) == category


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # Arrests told after a crowd's happening, at its place and time, are its end.
        (
            "Rioters stormed Congress in Brasilia on Sunday. Hundreds of those who took part "
            "were detained in Brasilia.",
            [("riot", "Brasília")],
        ),
        (
            "Protesters marched in Brasilia on Sunday. Police arrested 40 of them in Brasilia.",
            [("protest", "Brasília")],
        ),
        # Counter-example: arrests told first are a happening of their own.
        (
            "Police arrested 40 men in Brasilia on Sunday. Rioters stormed Congress in Brasilia "
            "on Sunday.",
            [("arrest", "Brasília"), ("riot", "Brasília")],
        ),
    ],
)
def test_arrests_end_a_crowd(gazetteer: Gazetteer, text: str, expected: list) -> None:
    assert [d[:2] for d in drafts(text, gazetteer)] == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # Off the coast of a list of places: at sea, each place a landmark.
        (
            "Floods hit Brazil on Monday. A cyclone is taking shape over the sea off the coast "
            "of Rio Grande do Sul and Santa Catarina on Monday.",
            [("flood", "Brazil")],
        ),
        # Counter-example: on the coast.
        (
            "Floods hit Brazil on Monday. A cyclone hit the coast of Rio Grande do Sul on Monday.",
            [("flood", "Brazil"), ("storm", "Rio Grande do Sul")],
        ),
    ],
)
def test_off_the_coast_is_at_sea(gazetteer: Gazetteer, text: str, expected: list) -> None:
    assert [d[:2] for d in drafts(text, gazetteer)] == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # A landmark tied to a town where the text first names it is at that town when told
        # again, pinned or not.
        (
            "Rioters stormed the presidential palace in Brasilia on Sunday. On Monday they "
            "ransacked offices at the presidential palace.",
            [("riot", "Brasília")],
        ),
        # Counter-example: another town.
        (
            "Rioters stormed the presidential palace in Brasilia on Sunday. On Monday they "
            "ransacked offices in Sao Paulo.",
            [("riot", "Brasília"), ("riot", "São Paulo")],
        ),
    ],
)
def test_landmark_told_again_is_at_its_town(
    gazetteer: Gazetteer, text: str, expected: list
) -> None:
    assert [d[:2] for d in drafts(text, gazetteer)] == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # A place in the words that say why, or a country that did it, is not where it
        # happened.
        (
            "Migrants crossed into Mexico on Saturday. They said they had joined the caravan "
            "because of gang violence in Honduras.",
            [("displacement", "Mexico")],
        ),
        (
            "The dam at Nova Kakhovka burst on Tuesday. He called the flooding a deliberate "
            "crime by Russia.",
            [("flood", "Nova Kakhovka")],
        ),
        # Counter-examples: the place is where it happened; "due to" a plan.
        (
            "Migrants crossed into Mexico on Saturday. Gang violence in Honduras drove them to "
            "join the caravan on Friday.",
            [("displacement", "Mexico"), ("convoy", "Honduras")],
        ),
        (
            "Migrants crossed into Mexico on Saturday. The convoy was due to cross into "
            "Guatemala on Sunday.",
            [("displacement", "Mexico"), ("convoy", "Guatemala")],
        ),
        (
            "The dam at Nova Kakhovka burst on Tuesday. Floods also hit Russia.",
            [("flood", "Nova Kakhovka"), ("flood", "Russia")],
        ),
    ],
)
def test_cause_and_doer_are_not_the_scene(gazetteer: Gazetteer, text: str, expected: list) -> None:
    assert [d[:2] for d in drafts(text, gazetteer)] == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # "The capital" in a sentence that names no place is the one capital the report names.
        (
            "DHAKA — Troops patrolled Bangladeshi cities on Saturday. Across the capital on "
            "Friday, crowds had clashed with police.",
            [("riot", "Dhaka")],
        ),
        (
            "Ministers from Dhaka met last year. Across the capital on Friday, crowds had "
            "clashed with police.",
            [("riot", "Dhaka")],
        ),
        # Counter-examples: a region's capital; two capitals named.
        (
            "DHAKA — Troops patrolled Bangladeshi cities on Saturday. Across the regional "
            "capital on Friday, crowds had clashed with police.",
            [],
        ),
        (
            "Ministers from Dhaka and Kathmandu met last year. Across the capital on Friday, "
            "crowds had clashed with police.",
            [],
        ),
    ],
)
def test_the_capital_is_the_one_named(gazetteer: Gazetteer, text: str, expected: list) -> None:
    assert [d[:2] for d in drafts(text, gazetteer)] == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # Gunmen who storm a place and carry off people there: one raid, an abduction.
        (
            "Gunmen stormed a school in Eritrea on Thursday. They abducted 280 pupils in Eritrea "
            "on Thursday.",
            ["abduction"],
        ),
        (
            "Gunmen abducted 280 pupils in Eritrea on Thursday. Gunmen attacked the village in "
            "Eritrea on Thursday.",
            ["abduction"],
        ),
        # Counter-example: days apart.
        (
            "Gunmen abducted 280 pupils in Eritrea on Monday. Gunmen attacked the village in "
            "Eritrea on Thursday.",
            ["abduction", "attack"],
        ),
    ],
)
def test_a_raid_that_abducts_is_one(text: str, expected: list[str]) -> None:
    assert [e.category for e in events(text, date(2024, 3, 11))] == expected


@pytest.mark.parametrize(
    ("text", "place"),
    [
        # A distance from a place a few words describe: still a landmark.
        (
            "Gunmen rode into the school in Kuriga, a village 100km from the northwestern "
            "Nigerian city of Kaduna, on Thursday.",
            "Kuriga",
        ),
        # Counter-example: near it, no distance.
        (
            "Gunmen rode into the school in Kuriga, a village near the northwestern Nigerian "
            "city of Kaduna, on Thursday.",
            "Kaduna",
        ),
    ],
)
def test_distance_from_a_described_place(gazetteer: Gazetteer, text: str, place: str) -> None:
    assert [d[1] for d in drafts(text, gazetteer)] == [place]
