"""Tests for geo.extract.events: draft events from sentences (countries-only gazetteer)."""

from __future__ import annotations

from datetime import date

import pytest

from geo.extract.actors import find_actors
from geo.extract.dates import find_dates
from geo.extract.events import DraftEvent, draft_events, guess_category
from geo.extract.figures import find_figures
from geo.extract.places import find_places
from geo.extract.sentences import split_sentences

MON = date(2017, 8, 28)


def events(text: str, published: date = MON) -> list[DraftEvent]:
    sentences = split_sentences(text)
    dates = find_dates(text, published, sentences)
    actors = find_actors(text, sentences)
    places = find_places(text, sentences, None, actors)
    figures = find_figures(text, sentences, exclude=[d.span for d in dates])
    return draft_events(sentences, published, places, dates, figures, actors)


@pytest.mark.parametrize(
    ("sentence", "category"),
    [
        ("A convoy of buses left the border.", "convoy"),
        ("A ceasefire took effect on Sunday.", "ceasefire"),
        ("He called for celebrations on Thursday.", "celebration"),
        ("The two sides would exchange the bodies for the convoy.", "prisoner-swap"),
        ("Remains were found in a cave.", "remains-found"),
        ("Coalition warplanes cratered the road.", "airstrike"),
        ("Eleven fighters were killed.", "casualties"),
        ("He said so in a televised speech.", "speech"),
        ("The army launched an offensive at dawn.", "offensive"),
        ("Clashes went on all night.", "battle"),
        ("Nine soldiers have been in captivity since 2014.", "captives"),
        ("Families were evacuated.", "evacuation"),
        ("ISIS will hand over one captive.", "handover"),
        ("Thousands attended the funeral.", "funeral"),
        ("The minister spoke to reporters.", "statement"),
        # Issue 15: what the sentence's verb says, not "statement" by default.
        ("The SDF captured Baghuz on Saturday.", "capture"),
        ("The village fell to the SDF after weeks of siege.", "capture"),
        ("The SDF captured 20 fighters near the river.", "captives"),
        ("Coalition jets struck the last pocket.", "airstrike"),
        ("The two sides agreed to a pause.", "ceasefire"),
        ("They struck a deal late on Monday.", "agreement"),
        ("Militants handed over their weapons.", "handover"),
        ("A spokesman said the battle was over.", "battle"),
        ("A spokesman said nothing more.", "statement"),
        # Issue 24: every kind of news.
        ("Gunmen opened fire on worshippers at a mosque.", "attack"),
        ("Armed men killed 30 villagers in an overnight raid.", "attack"),
        ("A car bomb exploded near a checkpoint.", "bombing"),
        ("Russian forces shelled the city overnight.", "shelling"),
        ("Thousands marched through the capital demanding his resignation.", "protest"),
        ("Rioters torched cars and looted shops.", "riot"),
        ("Police arrested 40 opposition supporters.", "arrest"),
        ("Voters went to the polls on Sunday.", "election"),
        ("Soldiers seized power and dissolved the government.", "coup"),
        ("The government declared a state of emergency.", "decision"),
        ("A magnitude 7.1 quake struck off the coast.", "earthquake"),
        ("Torrential rain triggered flash floods.", "flood"),
        ("Cyclone Freddy made landfall on Saturday.", "storm"),
        ("A landslide buried dozens of homes.", "landslide"),
        ("A cholera outbreak has killed 50 people.", "epidemic"),
        ("Thousands fled across the border into Chad.", "displacement"),
        ("Refugees began returning home after the truce.", "return"),
        ("A suicide bomber blew himself up at a rally.", "suicide-bombing"),
        ("Militants kidnapped 20 students from a school.", "abduction"),
        ("Mount Merapi erupted on Sunday, spewing lava.", "volcano"),
        ("Fighting erupted between the army and rebels.", "battle"),
        ("A passenger train derailed, killing 12.", "accident"),
    ],
)
def test_guess_category(sentence: str, category: str) -> None:
    assert guess_category(sentence) == category


def test_one_event_per_dated_sentence_with_a_place() -> None:
    text = (
        "Fighters left the Lebanon-Syria border on Monday for eastern Syria. "
        "A ceasefire took effect on Sunday. "
        "He called for celebrations on Thursday in Lebanon. "
        "Eleven Hezbollah fighters and seven Syrian soldiers were killed in Syria, he said. "
        "Militants once ruled parts of Iraq."
    )
    found = events(text)
    assert [(e.sentence, e.date, e.date_basis, e.place.name, e.category) for e in found] == [
        (0, MON, "sentence", "Lebanon–Syria border", "statement"),
        (2, date(2017, 8, 31), "sentence", "Lebanon", "celebration"),
        (3, MON, "published", "Syria", "casualties"),
    ]
    assert found[2].counts() == {"killed": 18}
    assert found[2].actors == ("Hezbollah", "Syrian Army")
    assert [p.name for p in found[0].other_places] == ["eastern Syria"]
    assert all(e.needs_rewrite for e in found)


def test_event_date_is_the_one_nearest_the_place() -> None:
    text = "Speaking on Monday, he urged crowds to gather on Thursday in Lebanon."
    (event,) = events(text)
    assert (event.date, event.date_text) == (date(2017, 8, 31), "Thursday")


def test_dateline_alone_makes_no_event() -> None:
    text = "Talks went on."
    sentences = split_sentences(text)
    places = find_places(text, sentences, None, [], ("Lebanon", None, None))
    assert draft_events(sentences, MON, places, [], [], []) == []


def test_to_dict_is_json_ready() -> None:
    (event,) = events("On Sunday 308 militants and 331 civilians boarded buses in Syria.")
    record = event.to_dict()
    assert record["counts"] == {"militants": 308, "civilians": 331}
    assert record["place"]["name"] == "Syria"
    assert record["date"] == "2017-08-27" and record["needs_rewrite"] is True
    assert record["category"] == "convoy"
