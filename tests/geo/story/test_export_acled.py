"""Tests for geo.story.export.events_acled_csv: a story's events in ACLED's columns."""

from __future__ import annotations

import csv
import io

import pandas as pd
import pytest

from geo import vocabulary
from geo.story.export import ACLED_COLUMNS, events_acled_csv, geo_precision
from geo.story.library import BUNDLED
from geo.story.load import EVENT_COLUMNS, Story, load_story


def rows_of(text: str) -> list[dict[str, str]]:
    rows = list(csv.DictReader(io.StringIO(text)))
    assert text.splitlines()[0].split(",") == list(ACLED_COLUMNS)
    return rows


# --- the bundled story ----------------------------------------------------------------------------


@pytest.fixture(scope="module")
def story() -> Story:
    return load_story(BUNDLED / "qalamoun-2017")


@pytest.fixture(scope="module")
def bundled(story: Story) -> dict[str, dict[str, str]]:
    sources = dict(zip(story.sources["id"], story.sources["publication"], strict=True))
    return {
        r["event_id_cnty"]: r
        for r in rows_of(events_acled_csv(story.events, story.places, sources))
    }


def test_only_what_acled_codes_is_written(story: Story, bundled):
    coded = story.events[story.events["category"].map(vocabulary.acled_event_type) != ""]
    assert list(bundled) == list(coded["id"])
    # offensive, battle, airstrike, ceasefire, prisoner-swap and handover: 23 of the 79 events.
    assert len(bundled) == 23
    assert set(coded["category"]) == {
        "offensive",
        "battle",
        "airstrike",
        "ceasefire",
        "prisoner-swap",
        "handover",
    }


def test_every_row_has_acled_types_that_belong_together(story: Story, bundled):
    category = dict(zip(story.events["id"], story.events["category"], strict=True))
    for event_id, row in bundled.items():
        assert row["event_type"] == vocabulary.acled_event_type(category[event_id])
        assert row["sub_event_type"] == vocabulary.CATEGORY[category[event_id]].acled_sub_event_type


@pytest.mark.parametrize(
    ("event", "column", "expected"),
    [
        pytest.param("jurud-arsal-offensive", "event_date", "2017-07-21", id="date"),
        pytest.param("jurud-arsal-offensive", "year", "2017", id="year"),
        pytest.param("jurud-arsal-offensive", "event_type", "Battles", id="offensive-type"),
        pytest.param("jurud-arsal-offensive", "sub_event_type", "Armed clash", id="offensive-sub"),
        pytest.param("jurud-arsal-offensive", "actor1", "Hezbollah", id="actor1"),
        pytest.param("jurud-arsal-offensive", "assoc_actor_1", "Syrian Army", id="ally"),
        pytest.param("jurud-arsal-offensive", "actor2", "Hayat Tahrir al-Sham", id="actor2"),
        pytest.param("jurud-arsal-offensive", "country", "Lebanon", id="lebanon"),
        pytest.param("jurud-arsal-offensive", "admin1", "", id="no-admin1"),
        pytest.param("jurud-arsal-offensive", "location", "Jurud Arsal", id="location"),
        pytest.param("jurud-arsal-offensive", "latitude", "34.13", id="latitude"),
        pytest.param("jurud-arsal-offensive", "longitude", "36.48", id="longitude"),
        pytest.param("jurud-arsal-offensive", "geo_precision", "2", id="area-12-km"),
        pytest.param("jurud-arsal-offensive", "source", "Iran Daily", id="publication"),
        pytest.param("jurud-arsal-offensive", "fatalities", "0", id="no-figure"),
        pytest.param("lebanese-army-prep", "actor2", "", id="one-actor"),
        pytest.param("deir-ez-zor-siege-broken", "country", "Syria", id="syria"),
        pytest.param("deir-ez-zor-siege-broken", "geo_precision", "1", id="city"),
        pytest.param("airstrike-humaymah", "event_type", "Explosions/Remote violence", id="strike"),
        pytest.param("airstrike-humaymah", "sub_event_type", "Air/drone strike", id="air"),
        pytest.param("airstrike-humaymah", "geo_precision", "3", id="village-30-km"),
        pytest.param("strikes-near-convoy", "fatalities", "85", id="killed"),
        pytest.param("strikes-near-convoy", "geo_precision", "3", id="region"),
        pytest.param("ceasefire-lb", "event_type", "Strategic developments", id="ceasefire"),
        pytest.param("ceasefire-lb", "sub_event_type", "Agreement", id="agreement"),
        pytest.param("wadi-hamid-swap", "sub_event_type", "Agreement", id="prisoner-swap"),
        pytest.param("sy-45-km2", "country", "Lebanon", id="first-of-lb-sy"),
    ],
)
def test_bundled_story_cells(bundled, event, column, expected):
    assert bundled[event][column] == expected


@pytest.mark.parametrize(
    ("event", "fragment"),
    [
        pytest.param("jurud-arsal-truce", "at 06:00. From 2017-07-27 to 2017-07-29.", id="span"),
        pytest.param("zamrani-taken", "first day. Claimed: Hezbollah, reported by", id="claim"),
        pytest.param("hezbollah-bodies-located", " Disputed: Xinhua (27 Aug)", id="dispute"),
    ],
)
def test_notes_carry_the_span_and_the_confidence_note(bundled, event, fragment):
    assert fragment in bundled[event]["notes"]


def test_a_reported_single_day_event_keeps_its_summary_as_notes(story: Story, bundled):
    summary = story.events.set_index("id").loc["deir-ez-zor-siege-broken", "summary"]
    assert bundled["deir-ez-zor-siege-broken"]["notes"] == summary


def test_without_sources_the_source_id_is_written(story: Story):
    rows = rows_of(events_acled_csv(story.events, story.places))
    assert {r["source"] for r in rows} <= set(story.sources["id"])


# --- small hand-made tables -----------------------------------------------------------------------

PLACES = pd.DataFrame(
    [
        # id, name, kind, country, lat, lon, radius_m
        ("town", "Qara", "town", "SY", 34.15, 36.74, 2000),
        ("pass", "Border pass", "crossing", "LB|SY", 34.1, 36.6, 7000),
        ("gaza", "Gaza City", "city", "PS", 31.5, 34.47, 3000),
        ("province", "Rif Dimashq", "region", "SY", 33.5, 36.6, 150000),
    ],
    columns=["id", "name", "kind", "country", "lat", "lon", "radius_m"],
)


def frame(*rows: dict) -> pd.DataFrame:
    """Events as events.csv text: each row's cells over a reported one-day event at the town."""
    base = dict.fromkeys(EVENT_COLUMNS, "") | {
        "date": "2024-05-01",
        "place_id": "town",
        "actors": "",
        "summary": "Something happened.",
        "source": "wire",
        "confidence": "reported",
    }
    table = [{**base, "id": f"e{n}", **row} for n, row in enumerate(rows, 1)]
    return pd.DataFrame(table, columns=list(EVENT_COLUMNS))


def one_row(places: pd.DataFrame = PLACES, sources=None, **cells) -> dict[str, str]:
    (row,) = rows_of(events_acled_csv(frame(cells), places, sources))
    return row


@pytest.mark.parametrize(
    ("category", "actors", "event_type", "sub_event_type"),
    [
        pytest.param("battle", "", "Battles", "Armed clash", id="battle"),
        pytest.param(
            "capture", "Syrian Army|ISIS", "Battles", "Government regains territory", id="army"
        ),
        pytest.param(
            "capture",
            "ISIS|Syrian Army",
            "Battles",
            "Non-state actor overtakes territory",
            id="rebels",
        ),
        pytest.param("capture", "", "Battles", "", id="capture-by-nobody-named"),
        pytest.param(
            "shelling",
            "",
            "Explosions/Remote violence",
            "Shelling/artillery/missile attack",
            id="shelling",
        ),
        pytest.param(
            "bombing", "", "Explosions/Remote violence", "Remote explosive/landmine/IED", id="ied"
        ),
        pytest.param(
            "suicide-bombing", "", "Explosions/Remote violence", "Suicide bomb", id="suicide"
        ),
        pytest.param("attack", "", "Violence against civilians", "Attack", id="attack"),
        pytest.param(
            "abduction",
            "",
            "Violence against civilians",
            "Abduction/forced disappearance",
            id="abduction",
        ),
        pytest.param("arrest", "", "Strategic developments", "Arrests", id="arrest"),
        pytest.param("handover", "", "Strategic developments", "Agreement", id="ho"),
        pytest.param("protest", "", "Protests", "Peaceful protest", id="protest"),
        pytest.param("riot", "", "Riots", "Violent demonstration", id="riot"),
        pytest.param("coup", "", "Strategic developments", "Other", id="coup"),
    ],
)
def test_acled_types_of_a_category(category, actors, event_type, sub_event_type):
    row = one_row(category=category, actors=actors)
    assert (row["event_type"], row["sub_event_type"]) == (event_type, sub_event_type)


@pytest.mark.parametrize(
    "category",
    [c for c in vocabulary.CATEGORIES if not vocabulary.acled_event_type(c)],
)
def test_what_acled_does_not_code_is_left_out(category):
    events = frame({"category": category}, {"category": "battle"})
    assert [r["event_id_cnty"] for r in rows_of(events_acled_csv(events, PLACES))] == ["e2"]


@pytest.mark.parametrize(
    ("actors", "actor1", "assoc_actor_1", "actor2"),
    [
        pytest.param("", "", "", "", id="none"),
        pytest.param("Hezbollah", "Hezbollah", "", "", id="one"),
        pytest.param("Hezbollah|ISIS", "Hezbollah", "", "ISIS", id="two"),
        pytest.param("A|B|C|D", "A", "B; C", "D", id="allies-between"),
        pytest.param(" A | B ", "A", "", "B", id="spaces"),
        pytest.param(["A", "B", "C"], "A", "B", "C", id="loaded-list"),
    ],
)
def test_actors(actors, actor1, assoc_actor_1, actor2):
    events = frame({"category": "battle"})
    events["actors"] = [actors]
    (row,) = rows_of(events_acled_csv(events, PLACES))
    assert (row["actor1"], row["assoc_actor_1"], row["actor2"]) == (actor1, assoc_actor_1, actor2)


@pytest.mark.parametrize(
    ("place_id", "country", "location", "precision"),
    [
        pytest.param("town", "Syria", "Qara", "1", id="town"),
        pytest.param("pass", "Lebanon", "Border pass", "2", id="crossing-on-two-countries"),
        pytest.param("gaza", "Palestine", "Gaza City", "1", id="acled-spelling"),
        pytest.param("province", "Syria", "Rif Dimashq", "3", id="province"),
        pytest.param("nowhere", "", "", "", id="unknown-place"),
    ],
)
def test_place_columns(place_id, country, location, precision):
    row = one_row(category="battle", place_id=place_id)
    assert (row["country"], row["location"], row["geo_precision"]) == (
        country,
        location,
        precision,
    )


@pytest.mark.parametrize(
    ("kind", "radius_m", "expected"),
    [
        pytest.param("town", 2000, 1, id="town"),
        pytest.param("city", 5000, 1, id="city-5-km"),
        pytest.param("hill", 5000, 1, id="hill"),
        pytest.param("village", 5001, 2, id="village-over-5-km"),
        pytest.param("area", 3000, 2, id="small-area"),
        pytest.param("valley", 25000, 2, id="valley-25-km"),
        pytest.param("region", 25001, 3, id="region-over-25-km"),
        pytest.param("country", 0, 3, id="country"),
        pytest.param("town", None, None, id="no-radius"),
        pytest.param("town", pd.NA, None, id="na-radius"),
    ],
)
def test_geo_precision(kind, radius_m, expected):
    assert geo_precision(kind, radius_m) == expected


def test_admin1_is_written_when_places_have_it():
    places = PLACES.assign(admin1=["Homs", "", "Gaza", "Rif Dimashq"])
    assert one_row(places, category="battle")["admin1"] == "Homs"


@pytest.mark.parametrize(
    ("cells", "column", "expected"),
    [
        pytest.param({"killed": "12"}, "fatalities", "12", id="killed"),
        pytest.param({"killed": ""}, "fatalities", "0", id="no-figure-is-0"),
        pytest.param({"wounded": "40"}, "fatalities", "0", id="wounded-are-not-killed"),
        pytest.param({"date": "2023-12-31"}, "year", "2023", id="year"),
        pytest.param({"end_date": "2024-05-01"}, "notes", "Something happened.", id="same-day"),
        pytest.param(
            {"end_date": "2024-05-03"},
            "notes",
            "Something happened. From 2024-05-01 to 2024-05-03.",
            id="span",
        ),
        pytest.param(
            {"confidence": "claimed"}, "notes", "Something happened. Claimed.", id="bare-claim"
        ),
        pytest.param(
            {"confidence": "disputed", "confidence_note": "Others say 3."},
            "notes",
            "Something happened. Disputed: Others say 3.",
            id="dispute",
        ),
        pytest.param(
            {"summary": 'Two lines,\nwith "quotes".'},
            "notes",
            'Two lines, with "quotes".',
            id="one-line",
        ),
        pytest.param({"source": "wire"}, "source", "wire", id="source-id"),
    ],
)
def test_hand_made_cells(cells, column, expected):
    assert one_row(category="battle", **cells)[column] == expected


def test_sources_give_the_publication():
    row = one_row(sources={"wire": "Reuters"}, category="battle")
    assert row["source"] == "Reuters"


def test_no_events_give_the_header_alone():
    text = events_acled_csv(frame().iloc[0:0], PLACES)
    assert text.splitlines() == [",".join(ACLED_COLUMNS)]


def test_only_disasters_give_the_header_alone():
    text = events_acled_csv(frame({"category": "flood"}, {"category": "earthquake"}), PLACES)
    assert text.splitlines() == [",".join(ACLED_COLUMNS)]
