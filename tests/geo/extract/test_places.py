"""Tests for geo.extract.places against a small fake GeoNames index and the fixture places.

The fake index holds the traps on purpose: towns called Hassan, Nasrallah, Police, Of, Man and
Mobile, a Brazilian city whose alternate name is "The", and a US town called Lebanon.
"""

from __future__ import annotations

import pandas as pd
import pytest

from geo.extract.actors import find_actors
from geo.extract.dateline import find_dateline
from geo.extract.places import PlaceMention, find_places
from geo.extract.sentences import split_sentences
from geo.geocoders.gazetteer import Gazetteer, build_geonames_index, story_places_from_frame
from tests.helpers import FIXTURES, city

FAKE_CITIES = [
    city(1, "Beirut", 33.894, 35.502, "LB", 1_916_100, "Bayrut"),
    city(2, "Baalbek", 34.006, 36.218, "LB", 30_916),
    city(3, "El Hermel", 34.394, 36.385, "LB", 22_250, "Hermel"),
    city(4, "Homs", 34.727, 36.723, "SY", 775_404),
    city(5, "Al Khums", 32.649, 14.262, "LY", 201_943, "Homs"),
    city(6, "Qārah", 34.155, 36.743, "SY", 20_656, "Qara"),
    city(7, "Hassan", 13.005, 76.103, "IN", 155_006),
    city(8, "Nasrallah", 35.35, 9.8, "TN", 5_012),
    city(9, "Of", 40.946, 40.264, "TR", 31_951),
    city(10, "Police", 53.552, 14.571, "PL", 34_350),
    city(11, "Man", 7.412, -7.554, "CI", 241_969),
    city(12, "Mobile", 30.694, -88.043, "US", 183_289),
    city(13, "Dayton", 39.759, -84.192, "US", 135_512, "Day"),
    city(14, "Teresina", -5.089, -42.802, "BR", 871_126, "The"),
    city(15, "Libération", 45.0, 3.0, "FR", 7_736),
    city(16, "Paris", 48.853, 2.349, "FR", 2_138_551),
    city(17, "Paris", 33.661, -95.556, "US", 24_782),
    city(18, "Dallas", 32.783, -96.807, "US", 1_326_087),
    city(19, "Tyler", 32.351, -95.301, "US", 103_700),
    city(20, "Lyon", 45.748, 4.847, "FR", 472_317),
    city(21, "Lebanon", 40.341, -76.411, "US", 25_534),
    city(22, "Tehran", 35.694, 51.422, "IR", 7_153_309),
    city(23, "Baghdad", 33.341, 44.401, "IQ", 7_216_000),
    city(24, "Kharkiv", 49.982, 36.253, "UA", 1_421_125),
    city(25, "Volodymyr-Volynskyi", 50.848, 24.32, "UA", 37_910, "Volodymyr"),
    city(26, "Nikopol", 47.567, 34.396, "UA", 105_160, "Sloviansk"),
    city(27, "Slovyansk", 48.852, 37.605, "UA", 105_141, "Sloviansk"),
    city(28, "Kyiv", 50.454, 30.524, "UA", 2_952_301, "Kiev"),
    city(29, "Lamar", 37.495, -94.277, "US", 4_361),
    city(30, "Deir ez-Zor", 35.336, 40.141, "SY", 271_800, "Dayr az-Zawr"),
    city(31, "Sukkur", 27.706, 68.857, "PK", 563_851),
    city(32, "Mehar", 27.18, 67.82, "PK", 3_000),
    city(33, "Qurayyat", 31.33, 37.34, "SA", 3_000),
]


@pytest.fixture(scope="module")
def gazetteer() -> Gazetteer:
    frames = [pd.read_csv(FIXTURES / name, dtype=str, keep_default_na=False)
              for name in ("places.csv", "extract_places.csv")]  # fmt: skip
    story = story_places_from_frame(pd.concat(frames, ignore_index=True))
    return Gazetteer(build_geonames_index(FAKE_CITIES), story)


def places(text: str, gazetteer: Gazetteer | None) -> list[PlaceMention]:
    sentences = split_sentences(text)
    found = find_dateline(text)
    dateline = (found.place, found.place_start, found.place_end) if found else None
    return find_places(text, sentences, gazetteer, find_actors(text, sentences), dateline)


def named(text: str, gazetteer: Gazetteer | None) -> list[tuple[str, str, str]]:
    return [(p.text, p.name, p.country) for p in places(text, gazetteer)]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("BEIRUT – Fighters left the Lebanon-Syria border region on Monday for eastern Syria.",
         [("BEIRUT", "Beirut", "LB"),
          ("Lebanon-Syria border region", "Lebanon–Syria border region", "LB|SY"),
          ("eastern Syria", "eastern Syria", "SY")]),
        ("Hezbollah fought in the western Qalamoun region.",
         [("western Qalamoun", "western Qalamoun", "SY")]),
        ("Buses crossed at the Zamrani crossing near Arsal.",
         [("Zamrani crossing", "Zamrani crossing", "LB|SY"), ("Arsal", "Arsal", "LB")]),
        ("They met in Ras Baalbek and al-Qaa.",
         [("Ras Baalbek", "Ras Baalbek", "LB"), ("al-Qaa", "al-Qaa", "LB")]),
        ("Rallies were held in the eastern Lebanese city of Baalbek.",
         [("Baalbek", "Baalbek", "LB")]),
        ("the Second Liberation Day of Lebanon", [("Lebanon", "Lebanon", "LB")]),
        ("Police in Hermel said the shell landed in Hermel.",
         [("Hermel", "El Hermel", "LB"), ("Hermel", "El Hermel", "LB")]),
        ("Of the two rockets, one hit Baalbek.", [("Baalbek", "Baalbek", "LB")]),
        ("Troops from Homs reached Deir ez-Zor in Syria.",
         [("Homs", "Homs", "SY"), ("Deir ez-Zor", "Deir ez-Zor", "SY"), ("Syria", "Syria", "SY")]),
        ("Lebanon's army took the hills above Qara.",
         [("Lebanon", "Lebanon", "LB"), ("Qara", "Qārah", "SY")]),
        ("Fighting spread through Sloviansk in Ukraine.",
         [("Sloviansk", "Slovyansk", "UA"), ("Ukraine", "Ukraine", "UA")]),
        ("Shelling hit the Kharkiv region again.",
         [("Kharkiv region", "Kharkiv region", "UA")]),
        ("The convoy stopped on the Iraqi border, deep in Syria.",
         [("Iraqi border", "Syria–Iraq border", "SY|IQ"), ("Syria", "Syria", "SY")]),
    ],
)  # fmt: skip
def test_places(gazetteer: Gazetteer, text: str, expected: list) -> None:
    assert named(text, gazetteer) == expected


@pytest.mark.parametrize(
    "text",
    [
        "Sayyed Hassan Nasrallah said the battle was won.",
        "Nasrallah said it was over. Hassan did not say when, Sayyed Hassan Nasrallah added.",
        "Hassan did not say when.",
        "Syrian President Bashar al-Assad has not commented.",
        "Hezbollah, the Syrian Army and the Islamic State all claimed victory.",
        "Police said the Man was injured.",
        "The Mobile Medical Unit arrived. Day by day it grew.",
        "The group said nothing.",
        "President Volodymyr Zelenskiy spoke.",
        "the Second Liberation Day",
        "the Lebanese and Syrian armies",
        "Crews came from Lamar County.",
    ],
)
def test_not_places(gazetteer: Gazetteer, text: str) -> None:
    assert named(text, gazetteer) == []


def test_paris_texas_by_country_vote(gazetteer: Gazetteer) -> None:
    text = "PARIS, Texas (AP) — Storms hit Paris overnight; crews came from Dallas and Tyler."
    found = {(p.text, p.country) for p in places(text, gazetteer)}
    assert found == {("PARIS", "US"), ("Paris", "US"), ("Dallas", "US"), ("Tyler", "US")}


def test_paris_france_by_country_vote(gazetteer: Gazetteer) -> None:
    text = "Protesters marched in Paris and Lyon, France's interior ministry said."
    found = {(p.text, p.country) for p in places(text, gazetteer)}
    assert found == {("Paris", "FR"), ("Lyon", "FR"), ("France", "FR")}


def test_country_beats_same_named_town(gazetteer: Gazetteer) -> None:
    (mention,) = places("Aid reached Lebanon.", gazetteer)
    assert (mention.kind, mention.country, mention.source) == ("country", "LB", "country")


def test_state_actor_is_still_a_place(gazetteer: Gazetteer) -> None:
    # Issue 15: "talks with Syria and Iran; Washington seems prepared" names places.
    text = "Tehran said it would help; an envoy flew to Tehran."
    found = places(text, gazetteer)
    assert [(m.start, m.name) for m in found] == [(0, "Tehran"), (text.rindex("Tehran"), "Tehran")]


def test_big_city_speaking_is_still_a_place(gazetteer: Gazetteer) -> None:
    assert named("Baghdad says the deal is unfair.", gazetteer) == [("Baghdad", "Baghdad", "IQ")]


def test_first_name_town_after_in_is_a_place(gazetteer: Gazetteer) -> None:
    assert named("Floods hit roads in Hassan.", gazetteer) == [("Hassan", "Hassan", "IN")]


def test_small_town_needs_its_country_named(gazetteer: Gazetteer) -> None:
    assert named("Water rose in Mehar.", gazetteer) == []
    assert [p.name for p in places("Water rose in Mehar, Pakistan.", gazetteer)] == [
        "Mehar",
        "Pakistan",
    ]


def test_border_anaphor_reuses_the_named_border(gazetteer: Gazetteer) -> None:
    text = "They left the Lebanon-Syria border on Monday. The transfer ends fighting on the border."
    found = places(text, gazetteer)
    assert [(p.via, p.place_id) for p in found] == [
        ("border", "border-region"),
        ("anaphor", "border-region"),
    ]
    assert found[1].text == "border" and found[1].sentence == 1


def test_border_without_a_story_place_is_derived() -> None:
    mention = places("on the Lebanon-Syria border", None)[0]
    assert (mention.source, mention.kind, mention.country) == ("derived", "border", "LB|SY")


def test_spans_sentences_and_candidates(gazetteer: Gazetteer) -> None:
    text = "Aid arrived. Troops entered Homs on Sunday in Syria."
    homs, syria = places(text, gazetteer)
    assert text[homs.start : homs.end] == "Homs" and homs.sentence == 1
    assert [c.country for c in homs.candidates] == ["SY", "LY"]
    record = homs.to_dict()
    assert record["span"] == [homs.start, homs.end]
    assert record["candidates"][1]["country"] == "LY"
    assert syria.kind == "country"


def test_dateline_given_without_span(gazetteer: Gazetteer) -> None:
    text = "Fighters left Arsal."
    found = find_places(text, split_sentences(text), gazetteer, [], ("Beirut", None, None))
    assert [(p.name, p.via, p.span) for p in found] == [
        ("Beirut", "dateline", None),
        ("Arsal", "name", (14, 19)),
    ]


def test_without_gazetteer_countries_still_found() -> None:
    assert named("Talks in Syria and Lebanon.", None) == [
        ("Syria", "Syria", "SY"),
        ("Lebanon", "Lebanon", "LB"),
    ]


@pytest.mark.parametrize(
    "text",
    [
        "One. Two three. Four",
        "  Leading space. Then more!  And more? Yes.",
        "No sentence end at all",
        "",
    ],
)
def test_tokenize_sentence_walk_matches_search(text: str) -> None:
    from geo.extract.places import tokenize
    from geo.extract.sentences import sentence_index, split_sentences

    sentences = split_sentences(text)
    for tok in tokenize(text, sentences):
        expected = sentence_index(sentences, tok.start) if sentences else 0
        assert tok.sentence == expected


@pytest.mark.parametrize(
    ("word", "token"),
    [
        ("Syria's", "Syria"),
        ("Syria’s", "Syria"),
        ("Aleppo'", "Aleppo"),
        ("Homs", "Homs"),  # an s alone stays
        ("Idlib''", "Idlib'"),  # one mark at a time, as the regex removes it
        ("it's", "it"),
        ("Ba'", "Ba'"),  # three characters and less are kept whole
        ("Qa'a", "Qa'a"),
    ],
)
def test_tokenize_drops_the_possessive_as_the_regex_does(word: str, token: str) -> None:
    from geo.extract.places.tokens import _POSSESSIVE, tokenize

    [tok] = tokenize(word, [])
    assert tok.text == token
    assert tok.text == (_POSSESSIVE.sub("", word) if len(word) > 3 else word)


@pytest.mark.parametrize(
    "text",
    [
        "Fighting near Homs and Qara, then in Baalbek and Hermel, Lebanon.",
        "From Paris, Texas, to Dallas and Tyler; Paris again.",
        "Kharkiv, Kyiv and Sloviansk; Volodymyr later.",
        "Homs, Libya, and Homs.",
    ],
)
def test_ranking_memo_gives_the_fresh_ranking(gazetteer: Gazetteer, text: str, monkeypatch):
    from geo.extract.places import find as module

    memoised = places(text, gazetteer)

    class Forgetful(dict):
        def get(self, key, default=None):
            return None  # every ranking worked out afresh

    real_votes = module._Votes

    def votes(*args, **kwargs):
        v = real_votes(*args, **kwargs)
        v.ranking_memo = Forgetful()
        return v

    monkeypatch.setattr(module, "_Votes", votes)
    assert places(text, gazetteer) == memoised


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # A weekday, a month or an article after a name ends the capitalised run.
        ("Snow fell in Dallas Saturday night.", ["Dallas"]),
        ("It reached Tyler February 3.", ["Tyler"]),
        ("Residents of Tyler The city said more.", ["Tyler"]),
        # A dateline's capitals, then ordinary capitals: the run ends with the capitals.
        ("TYLER Residents woke to snow.", ["TYLER"]),
        # An authority of the place: the place is a place.
        ("The Dallas Police Department said the road was shut.", ["Dallas"]),
        ("Officers of the Tyler County Sheriff's Office came.", []),  # a county, not the town
        ("Lebanon Health Ministry officials said so.", ["Lebanon"]),
        ("Kharkiv State Fire Service crews came.", ["Kharkiv"]),
        # An authority that speaks is no person: its place is still a place.
        ("Dallas Police said the road was shut.", ["Dallas"]),
        # Before the name: an article mid-sentence, a compass word.
        ("Arrested — A Tyler man was held.", ["Tyler"]),
        # Still titles: no authority, weekday or article in the run.
        ("Tyler Perry Studios opened a lot.", []),
        ("He starred in Paris Blues Tonight.", []),
    ],
)
def test_capitalised_runs_that_leave_a_place(gazetteer: Gazetteer, text: str, expected) -> None:
    assert [p.text for p in places(text, gazetteer)] == expected


@pytest.mark.parametrize(
    ("text", "spans"),
    [
        # "as", "at", "an" before a space are English words, never the Arabic article.
        ("Firms such as Tyler Pipe grew.", []),
        ("Cities such as Tyler grew, and Dallas.", ["Tyler", "Dallas"]),
        ("They met at Tyler yesterday.", ["Tyler"]),
    ],
)
def test_english_words_are_no_article(gazetteer: Gazetteer, text: str, spans) -> None:
    assert [p.text for p in places(text, gazetteer)] == spans


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # A middle initial joins the surname: "Tyler" is the doctor's name afterwards.
        ("Dr. Charles W. Tyler joined the clinic in Dallas. Tyler studied in Paris, France.",
         ["Dallas", "Paris", "France"]),
        ("Charles W. Tyler joined. Tyler said yes.", []),
        # The "S" of "U.S." is no initial.
        ("The U.S. Dallas office shut.", ["U.S.", "Dallas"]),
    ],
)  # fmt: skip
def test_middle_initial_joins_the_name(gazetteer: Gazetteer, text: str, expected) -> None:
    assert [p.text for p in places(text, gazetteer)] == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # An age before or after a two-word name makes it a person, in every mention.
        ("Police found 82-year-old Beau Tyler of Dallas. Tyler was hurt.", ["Dallas"]),
        ("Rafael Tyler, 27, of Dallas was held. Tyler denied it.", ["Dallas"]),
        ("Mevlut Mert Tyler, a 22-year-old officer, fired. Tyler fled.", []),
        # A speaker named after the verb: "said Tyler."
        ('"It burned," said Tyler. Crews from Dallas came.', ["Dallas"]),
        # Still places: one word after an age, or a clause that goes on after "said".
        ("A 67-year-old Tyler resident fell ill.", ["Tyler"]),
        ("Officials said Tyler was calm.", ["Tyler"]),
    ],
)
def test_people_told_by_an_age_or_a_quote(gazetteer: Gazetteer, text: str, expected) -> None:
    assert [p.text for p in places(text, gazetteer)] == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # A line break inside a sentence (wrapped text) joins a name like a space.
        (
            "Officials from the council, the police and the fire service met John\nTyler in "
            "Dallas.",
            ["Dallas"],
        ),
        # A spaced dash ends a person's name and a title.
        ("Two states were won by Mr Smith - Dallas and Tyler - as well.", ["Dallas", "Tyler"]),
        # A role speaking ("the Dallas Republican asked") leaves its place a place.
        ("Then the Dallas Republican asked for help.", ["Dallas"]),
    ],
)
def test_wraps_dashes_and_roles(gazetteer: Gazetteer, text: str, expected) -> None:
    assert [p.text for p in places(text, gazetteer)] == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # A kinship word names a person next, in every mention.
        ("He is survived by his wife, Tyler, 62, of Dallas.", ["Dallas"]),
        ("He was the son of Tyler and Eva Smith of Dallas.", ["Dallas"]),
        ("His brother Tyler succeeded him in Dallas.", ["Dallas"]),
        ("A man surnamed Tyler was held in Dallas.", ["Dallas"]),
        # "reported" is a speech verb: an agency reports; a country still speaks as a place.
        ("Injuries were serious, Tyler reported. Dallas was calm.", ["Dallas"]),
        ("The Lebanon reported a case.", ["Lebanon"]),
    ],
)
def test_kin_and_reporters_are_people(gazetteer: Gazetteer, text: str, expected) -> None:
    assert [p.text for p in places(text, gazetteer)] == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # A legislator's title after the place: "Calgary MLA Sandra Jansen".
        ("Then Dallas MLA Jane Doe spoke.", ["Dallas"]),
        # Civic bodies named after their place.
        ("The head of the Dallas Liquor Store Association spoke.", ["Dallas"]),
        ("The Tyler Homeless Coalition met.", ["Tyler"]),
    ],
)
def test_legislators_and_civic_bodies_keep_their_place(
    gazetteer: Gazetteer, text: str, expected
) -> None:
    assert [p.text for p in places(text, gazetteer)] == expected
