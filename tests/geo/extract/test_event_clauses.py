"""Tests for issue 24's event rules: the kind from the happening's own words, one draft per
clause that tells a happening, a protest and a riot told twice as one, the headline folded into
the body's telling (countries-only gazetteer)."""

from __future__ import annotations

from datetime import date

import pytest

from geo.extract.dates import find_dates
from geo.extract.events import DraftEvent, guess_category
from geo.extract.sentences import split_sentences
from tests.geo.extract.test_events import events as drafted

MON = date(2021, 3, 15)


def events(text: str, published: date = MON) -> list[DraftEvent]:
    return drafted(text, published)


@pytest.mark.parametrize(
    ("sentence", "category"),
    [
        # People moved are an evacuation, whatever hazard moved them.
        ("Forty patients were moved out of the flooded clinic.", "evacuation"),
        ("A dozen tourists were taken off the island by boat.", "evacuation"),
        ("Some 300 villagers had got out of the burning valley by dawn.", "evacuation"),
        ("The trapped families were finally brought out after the fire.", "evacuation"),
        ("Officials ordered thousands of people in the low coastal towns to leave at once.",
         "evacuation"),
        # A river out of its bed is a flood.
        ("The river overflowed and cut the road.", "flood"),
        ("Two streams broke their banks overnight.", "flood"),
        ("Half the market was under water by noon.", "flood"),
        # A crowd's own acts are a riot, even when the vote is why.
        ("Men who lost the election forced their way into parliament.", "riot"),
        ("Youths hurled stones at the convoy of the governor.", "riot"),
        ("Crowds set tyres alight on the ring road.", "riot"),
        ("Thousands clashed with police near the stadium.", "riot"),
        # A landslide victory is a vote, not a hazard.
        ("The party won a landslide victory in the election.", "election"),
        # Bodies that turn up were found.
        ("Three bodies turned up on the beach.", "remains-found"),
        # A reaction names a happening; it is words.
        ("The UN condemned the bombing of the market.", "statement"),
        ("The ministry denounced the shelling.", "statement"),
        # A few quoted words are the sentence's own; a long quote is speech.
        ("Troops subjected the town to \u201cheavy bombardment\u201d overnight.", "shelling"),
        ("He said: \u201cthe shelling of our town must stop at once\u201d.", "statement"),
        ("Uprooted trees blocked the road.", "statement"),
        ("Thousands were uprooted by the fighting.", "displacement"),
        # Ground taken back or taken by name.
        ("The army had also taken back much of the palace.", "capture"),
        ("Government forces had taken the city of Adwa on Saturday.", "capture"),
    ],
)  # fmt: skip
def test_kind_from_the_happening_words(sentence: str, category: str) -> None:
    assert guess_category(sentence) == category


@pytest.mark.parametrize(
    ("sentence", "theme", "category"),
    [
        # Sent to fetch people stuck where they are: an evacuation, even in a flood report.
        ("Helicopters went in to pick up villagers who were stranded on the hills.", "flood",
         "evacuation"),
        ("Boats were used to rescue families from the roofs.", "flood", "evacuation"),
        # Dug out of the rubble: part of the quake's story.
        ("Crews rescued a girl from the rubble.", "earthquake", "earthquake"),
        ("At least 900 people had been brought out alive by Tuesday.", "earthquake",
         "earthquake"),
        # The hazard as the cause of what happened to people: that is the happening.
        ("More than 5,000 people were displaced by the floods.", "flood", "displacement"),
        ("Thousands of families fled the wildfire overnight.", "wildfire", "displacement"),
        # The hazard as the subject stays the happening.
        ("The floods displaced 5,000 people.", "flood", "flood"),
        ("The storm flattened homes along the coast.", "storm", "storm"),
    ],
)  # fmt: skip
def test_people_moved_outrank_the_hazard_that_moved_them(
    sentence: str, theme: str, category: str
) -> None:
    assert guess_category(sentence, theme) == category


def test_each_clause_with_its_own_place_and_happening_is_an_event() -> None:
    text = (
        "On Saturday dozens of patients were moved out of hospital in Chad, "
        "and a wildfire in Niger sent smoke over the border."
    )
    got = {(e.category, e.place.name) for e in events(text)}
    assert ("evacuation", "Chad") in got
    assert ("wildfire", "Niger") in got
    assert len(events(text)) == 2


def test_a_clause_without_a_happening_stays_with_its_sentence() -> None:
    text = "On Saturday floods hit Chad, and the minister said in Niger that help was coming."
    got = events(text)
    assert [(e.category, e.place.name) for e in got] == [("flood", "Chad")]


def test_protest_told_again_as_a_riot_is_one_riot() -> None:
    text = (
        "On Sunday protesters marched through the capital of Kenya. "
        "On Sunday in Kenya they hurled stones and set tyres alight."
    )
    got = events(text)
    assert [(e.category, e.place.name) for e in got] == [("riot", "Kenya")]


def test_headline_is_folded_into_the_body_telling() -> None:
    text = (
        "Gunfire and panic as pupils are taken in Nigeria\n\n"
        "Gunmen abducted more than 200 pupils from a school in Nigeria on Thursday."
    )
    got = events(text)
    assert len(got) == 1
    assert got[0].category == "abduction"
    assert got[0].date == date(2021, 3, 11)
    assert got[0].sentences == (0, 1)
    assert got[0].sentence == 1


def test_a_headline_with_a_full_stop_is_a_sentence() -> None:
    text = "Fighting goes on in Sudan.\n\nA flood hit Chad on Thursday."
    assert len(events(text)) == 2


@pytest.mark.parametrize(
    ("text", "day"),
    [
        # A relative clause's future is not the date's: the Sunday before.
        ("On Sunday, men who will not accept the result stormed parliament.", date(2021, 3, 14)),
        ("On Sunday, crowds that will not disperse blocked roads.", date(2021, 3, 14)),
        # The date's own future still counts.
        ("On Sunday, the crowds will march again.", date(2021, 3, 21)),
    ],
)
def test_relative_clause_future_is_not_the_dates(text: str, day: date) -> None:
    found = find_dates(text, MON, split_sentences(text))
    assert found[0].date == day


@pytest.mark.parametrize(
    "text",
    [
        "On Friday 40 tourists, nationals of Chad, were flown home after the floods in Niger.",
        "On Friday troops from Chad joined the search after the floods in Niger.",
    ],
)
def test_where_people_come_from_is_not_where_it_happened(text: str) -> None:
    got = events(text)
    assert got
    assert {e.place.name for e in got} == {"Niger"}
