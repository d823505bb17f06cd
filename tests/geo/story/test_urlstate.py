"""Tests for geo.story.urlstate: a view survives a URL round trip; bad values fall back."""

from __future__ import annotations

from datetime import date

import pytest
from hypothesis import given
from hypothesis import strategies as st

from geo.story.urlstate import (
    LAYERS,
    View,
    map_view_params,
    parse_map_view,
    parse_tiles,
    parse_view,
    to_params,
    url_day,
    url_decimal,
    url_int,
)

PARAM_NAMES = ("story", "from", "to", "cat", "actor", "layers", "sel", "zoom", "center", "tiles")

SPANS = {
    "mini": (date(2017, 8, 1), date(2017, 8, 31)),
    "other": (date(2018, 1, 1), date(2018, 1, 31)),
}
CATEGORIES = {"mini": ["offensive", "speech", "ceasefire"], "other": ["battle"]}
ACTORS = {"mini": ["Hezbollah", "ISIS", "Lebanese Army"], "other": ["Russia"]}
ALL_LAYERS = frozenset(LAYERS)


def parse(params: dict) -> tuple[View, list[str]]:
    return parse_view(
        params,
        stories=list(SPANS),
        default_story="mini",
        span_of=SPANS.__getitem__,
        categories_of=CATEGORIES.__getitem__,
        actors_of=ACTORS.__getitem__,
    )


def params_of(view: View) -> dict[str, str]:
    return to_params(view, default_story="mini", span=SPANS[view.story])


def default(story: str = "mini", **changes) -> View:
    lo, hi = SPANS[story]
    return View(**{"story": story, "start": lo, "end": hi, **changes})


AUG = date(2017, 8, 1)

ROUND_TRIPS = [
    pytest.param(default(), {}, id="default-is-empty"),
    pytest.param(default("other"), {"story": "other"}, id="other-story"),
    pytest.param(
        default(start=date(2017, 8, 5), end=date(2017, 8, 20)),
        {"from": "2017-08-05", "to": "2017-08-20"},
        id="window",
    ),
    pytest.param(default(start=date(2017, 8, 10)), {"from": "2017-08-10"}, id="from-only"),
    pytest.param(default(end=date(2017, 8, 10)), {"to": "2017-08-10"}, id="to-only"),
    pytest.param(
        default(start=date(2017, 8, 27), end=date(2017, 8, 27)),
        {"from": "2017-08-27", "to": "2017-08-27"},
        id="single-day",
    ),
    pytest.param(default(categories=()), {"cat": ""}, id="no-category"),
    pytest.param(
        default(categories=("speech", "offensive")), {"cat": "speech,offensive"}, id="categories"
    ),
    pytest.param(
        default(actors=("ISIS", "Lebanese Army")), {"actor": "ISIS|Lebanese Army"}, id="actors"
    ),
    pytest.param(
        default(layers=frozenset({"fronts", "events"})), {"layers": "events,fronts"}, id="layers"
    ),
    pytest.param(default(layers=frozenset()), {"layers": ""}, id="no-layers"),
    pytest.param(default(selected="place:baalbek"), {"sel": "place:baalbek"}, id="sel-place"),
    pytest.param(default(selected="convoy:c3"), {"sel": "convoy:c3"}, id="sel-convoy"),
    pytest.param(default(selected="front:lb-0822"), {"sel": "front:lb-0822"}, id="sel-front"),
    pytest.param(
        default(
            "other",
            start=date(2018, 1, 2),
            end=date(2018, 1, 3),
            categories=("battle",),
            actors=("Russia",),
            layers=frozenset({"convoy"}),
            selected="place:palmyra",
        ),
        {
            "story": "other",
            "from": "2018-01-02",
            "to": "2018-01-03",
            "cat": "battle",
            "actor": "Russia",
            "layers": "convoy",
            "sel": "place:palmyra",
        },
        id="everything",
    ),
]


@pytest.mark.parametrize(("view", "params"), ROUND_TRIPS)
def test_to_params(view: View, params: dict[str, str]):
    assert params_of(view) == params


@pytest.mark.parametrize(("view", "params"), ROUND_TRIPS)
def test_round_trip(view: View, params: dict[str, str]):
    assert parse(params_of(view)) == (view, [])


@pytest.mark.parametrize(("view", "params"), ROUND_TRIPS)
def test_round_trip_with_list_values(view: View, params: dict[str, str]):
    # Streamlit can hand over every query param as a list of its values.
    assert parse({k: [v] for k, v in params_of(view).items()}) == (view, [])


@pytest.mark.parametrize(
    ("params", "expected"),
    [
        pytest.param(
            {"story": ["other", "mini"], "from": ["2018-01-05", "2018-01-09"]},
            default("other", start=date(2018, 1, 5)),
            id="first-of-several",
        ),
        pytest.param(
            {"cat": ("speech",), "actor": ["ISIS"]},
            default(categories=("speech",), actors=("ISIS",)),
            id="tuple-and-list",
        ),
        pytest.param(
            {"cat": ["speech,ceasefire"]},
            default(categories=("speech", "ceasefire")),
            id="comma-list-inside-list",
        ),
    ],
)
def test_list_valued_params(params: dict, expected: View):
    assert parse(params) == (expected, [])


BAD = [
    pytest.param({"story": "gone"}, default(), "Unknown story 'gone'", id="unknown-story"),
    pytest.param({"story": "<script>"}, default(), "Unknown story", id="story-script"),
    pytest.param({"story": []}, default(), "Unknown story ''", id="story-empty-list"),
    pytest.param({"from": "2017-13-01"}, default(), "Ignored from='2017-13-01'", id="bad-month"),
    pytest.param({"from": "yesterday"}, default(), "not a date", id="from-words"),
    pytest.param({"to": ""}, default(), "Ignored to=''", id="to-empty"),
    pytest.param({"to": []}, default(), "Ignored to=''", id="to-empty-list"),
    pytest.param({"to": "31/08/2017"}, default(), "not a date", id="to-dmy"),
    pytest.param(
        {"from": "2017-07-31"}, default(), "outside the story's dates", id="from-before-span"
    ),
    pytest.param({"to": "2017-09-01"}, default(), "outside the story's dates", id="to-after-span"),
    pytest.param(
        {"story": "other", "from": "2017-08-05"},
        default("other"),
        "outside the story's dates 2018-01-01 to 2018-01-31",
        id="date-of-another-story",
    ),
    pytest.param(
        {"from": "2017-08-20", "to": "2017-08-10"},
        default(),
        "ends before it starts",
        id="reversed-window",
    ),
    pytest.param(
        {"from": "2017-08-20", "to": "2017-09-10"},
        default(start=date(2017, 8, 20)),
        "Ignored to=2017-09-10",
        id="good-from-bad-to",
    ),
    pytest.param(
        {"cat": "offensive,foo"},
        default(categories=("offensive",)),
        "Ignored unknown categories: foo.",
        id="unknown-category",
    ),
    pytest.param(
        {"actor": "ISIS|Nobody"},
        default(actors=("ISIS",)),
        "Ignored unknown actors: Nobody.",
        id="unknown-actor",
    ),
    pytest.param(
        {"actor": "<b>x</b>"}, default(), "Ignored unknown actors: <b>x</b>.", id="actor-markup"
    ),
    pytest.param(
        {"layers": "events,satellite"},
        default(layers=frozenset({"events"})),
        "Ignored unknown layers: satellite.",
        id="unknown-layer",
    ),
    pytest.param(
        {"sel": "<script>alert(1)</script>"},
        default(),
        "Ignored selection '<script>alert(1)</script>'.",
        id="sel-script",
    ),
    pytest.param({"sel": "place:"}, default(), "Ignored selection", id="sel-no-id"),
    pytest.param({"sel": "town:baalbek"}, default(), "Ignored selection", id="sel-unknown-kind"),
    pytest.param({"sel": "place:Baalbek"}, default(), "Ignored selection", id="sel-uppercase"),
    pytest.param({"sel": "place:baal bek"}, default(), "Ignored selection", id="sel-space"),
    pytest.param(
        {"sel": "place:baalbek[place:x]"}, default(), "Ignored selection", id="sel-trailing"
    ),
]


@pytest.mark.parametrize(("params", "expected", "notice"), BAD)
def test_bad_values_fall_back_with_one_notice(params: dict, expected: View, notice: str):
    view, notices = parse(params)
    assert view == expected
    assert len(notices) == 1, notices
    assert notice in notices[0]


def test_every_bad_value_gets_its_own_notice():
    view, notices = parse(
        {
            "story": "gone",
            "from": "nope",
            "to": "2030-01-01",
            "cat": "x",
            "actor": "y",
            "layers": "z",
            "sel": "w",
        }
    )
    assert len(notices) == 7
    assert (view.story, view.start, view.end, view.actors, view.selected) == (
        "mini",
        date(2017, 8, 1),
        date(2017, 8, 31),
        (),
        None,
    )


def test_unknown_params_are_ignored_silently():
    assert parse({"utm_source": "x", "embed": "true"}) == (default(), [])


@pytest.mark.parametrize(
    ("params", "expected"),
    [
        pytest.param({"cat": "foo"}, default(), id="only-unknown-categories"),
        pytest.param({"layers": "satellite"}, default(), id="only-unknown-layers"),
        pytest.param({"cat": "battle"}, default(), id="category-of-another-story"),
    ],
)
def test_only_unknown_values_fall_back_to_the_default(params: dict, expected: View):
    view, notices = parse(params)
    assert view == expected
    assert len(notices) == 1


def test_selection_with_trailing_newline_is_rejected():
    view, notices = parse({"sel": "place:baalbek\n"})
    assert view.selected is None
    assert len(notices) == 1


def test_actor_with_a_comma_round_trips():
    actors = {**ACTORS, "mini": [*ACTORS["mini"], "Saraya Ahl al-Sham, FSA"]}
    view = default(actors=("Saraya Ahl al-Sham, FSA",))
    got = parse_view(
        params_of(view),
        stories=list(SPANS),
        default_story="mini",
        span_of=SPANS.__getitem__,
        categories_of=CATEGORIES.__getitem__,
        actors_of=actors.__getitem__,
    )
    assert got == (view, [])


# --- the map's own view -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        ("osm", "osm"),
        ("topo", "topo"),
        ("sat", "sat"),
        ("offline", "offline"),
        (["sat", "osm"], "sat"),
        ("OSM", "offline"),
        ("javascript:alert(1)", "offline"),
        ("", "offline"),
        (None, "offline"),
    ],
)
def test_parse_tiles(value, expected):
    assert parse_tiles(value) == expected


@pytest.mark.parametrize(
    ("zoom", "center", "expected"),
    [
        ("9", "34.2,36.5", (9, (34.2, 36.5))),
        ("14", "-33.9249,18.4241", (14, (-33.9249, 18.4241))),
        ("2", "0,0", (2, (0.0, 0.0))),
        ("1", "34.2,36.5", None),
        ("15", "34.2,36.5", None),
        ("9.5", "34.2,36.5", None),
        ("-3", "34.2,36.5", None),
        ("9", "95,36.5", None),
        ("9", "34.2,200", None),
        ("9", "34.2", None),
        ("9", "34.2,36.5,1", None),
        ("9", "nan,inf", None),
        ("9", "1e3,2", None),
        ("9", "<b>,1", None),
        (None, "34.2,36.5", None),
        ("9", None, None),
    ],
)
def test_parse_map_view(zoom, center, expected):
    assert parse_map_view(zoom, center) == expected


def test_map_view_round_trip():
    params = map_view_params(11, (34.123456, 36.654321))
    assert params == {"zoom": "11", "center": "34.1235,36.6543"}
    assert parse_map_view(params["zoom"], params["center"]) == (11, (34.1235, 36.6543))


# --- one strict reader for every value: ASCII digits, canonical form, ranges --------------------


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        ("9", 9),
        ("14", 14),
        ("2", 2),
        ("²", None),  # '²'.isdigit() is True and int('²') raises
        ("٣", None),  # Arabic-Indic three: int() takes it
        ("１０", None),  # full-width digits
        ("09", None),
        ("+9", None),
        (" 9", None),
        ("9\n", None),
        ("1", None),  # below the range
        ("15", None),  # above it
        ("9" * 5000, None),
        (["9", "10"], 9),
        ([], None),
        (None, None),
    ],
)
def test_url_int(value, expected):
    assert url_int(value, 2, 14) == expected


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        ("34.25", 34.25),
        ("-180", -180.0),
        ("34.1234567", None),
        ("٣٤.٢", None),
        ("1e2", None),
        ("nan", None),
        ("inf", None),
        ("181", None),
        (".5", None),
    ],
)
def test_url_decimal(value, expected):
    assert url_decimal(value, -180, 180) == expected


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        ("2017-08-19", date(2017, 8, 19)),
        ("20170819", None),  # date.fromisoformat takes it
        ("2017-W33-6", None),
        ("２０１７-08-19", None),
        ("2017-02-30", None),
        ("2017-08-19T00:00", None),
    ],
)
def test_url_day(value, expected):
    assert url_day(value) == expected


def test_a_superscript_zoom_is_ignored_not_a_crash():
    assert parse_map_view("²", "34,36") is None
    assert parse_map_view("9", "34,36") == (9, (34.0, 36.0))


URL_TEXT = st.text(max_size=60) | st.sampled_from(
    ["²", "٣", "9", "34.1,36.5", "2017-08-19", "place:baalbek", "offensive,speech", "", "-0"]
)


@given(st.dictionaries(st.sampled_from(PARAM_NAMES) | st.text(max_size=8), URL_TEXT, max_size=8))
def test_any_query_string_gives_a_view_and_notices_never_an_exception(params):
    view, notices = parse(params)
    assert SPANS[view.story][0] <= view.start <= view.end <= SPANS[view.story][1]
    assert all(isinstance(n, str) and len(n) < 400 for n in notices)
    parse_map_view(params.get("zoom"), params.get("center"))
    assert parse_tiles(params.get("tiles")) in ("offline", "osm", "topo", "sat")


@given(URL_TEXT, URL_TEXT)
def test_any_zoom_and_centre_are_read_or_refused(zoom, center):
    out = parse_map_view(zoom, center)
    if out is not None:
        z, (lat, lon) = out
        assert 2 <= z <= 14 and -85 <= lat <= 85 and -180 <= lon <= 180
        assert zoom.isascii() and center.isascii()
