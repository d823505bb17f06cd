"""Tests for geo.extract.figures: the kind of each figure, refusals, and disputed values."""

from __future__ import annotations

import pytest

from geo.extract.figures import Figure, find_figures, primary_figures
from geo.extract.sentences import split_sentences

# Every kind a figure may have, as the module's docstring lists them ("" aside).
KINDS = ("killed", "injured", "missing", "displaced", "arrested", "evacuated", "homes", "people")


def kinds(text: str) -> list[tuple[float, str]]:
    return [(f.value, f.kind) for f in find_figures(text, split_sentences(text))]


def disputes(text: str) -> list[tuple[float, str, tuple[float, ...]]]:
    return [(f.value, f.kind, f.disputed) for f in find_figures(text, split_sentences(text))]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # killed
        ("50 villagers were found dead", [(50, "killed")]),
        ("the death toll rose to 118", [(118, "killed")]),
        ("The quake left 118 dead and 579 injured.", [(118, "killed"), (579, "injured")]),
        ("12 killed and 30 wounded", [(12, "killed"), (30, "injured")]),
        ("Soldiers opened fire, killing 12 civilians and wounding 30.",
         [(12, "killed"), (30, "injured")]),
        ("Police found 50 bodies in the river.", [(50, "killed")]),
        ("There were 14 fatalities.", [(14, "killed")]),
        ("At least 23 people lost their lives in the floods.", [(23, "killed")]),
        ("Nine migrants drowned off Lampedusa.", [(9, "killed")]),
        ("Five more people died overnight.", [(5, "killed")]),
        ("Some 300 passengers perished.", [(300, "killed")]),
        ("the number of people killed rose to 45", [(45, "killed")]),
        ("The ministry put the number of dead at 15 on Sunday.", [(15, "killed")]),
        ("a strike that claimed the lives of 40 worshippers", [(40, "killed")]),
        ("15 Palestinians were killed and 3 Israelis were wounded.",
         [(15, "killed"), (3, "injured")]),
        ("Eleven Hezbollah fighters and seven Syrian soldiers were killed.",
         [(11, "killed"), (7, "killed")]),
        ("The raid killed 12 civilians and 3 soldiers.", [(12, "killed"), (3, "killed")]),
        # injured
        ("at least 579 people were injured", [(579, "injured")]),
        ("Two people were hurt when a tree fell.", [(2, "injured")]),
        ("12 police officers were injured", [(12, "injured")]),
        ("the blast wounded 40 and killed 3", [(40, "injured"), (3, "killed")]),
        ("Floods killed at least 40 people and injured 120 in Sindh.",
         [(40, "killed"), (120, "injured")]),
        # missing
        ("five people were swept away", [(5, "missing")]),
        ("At least 20 people are missing.", [(20, "missing")]),
        ("Seven fishermen remain unaccounted for.", [(7, "missing")]),
        ("5 swept away by the river", [(5, "missing")]),
        ("118 dead and 20 missing", [(118, "killed"), (20, "missing")]),
        # displaced
        ("some 10,000 people have been displaced", [(10_000, "displaced")]),
        ("3 million people were displaced", [(3_000_000, "displaced")]),
        ("Two hundred and fifty families fled", [(250, "displaced")]),
        ("The fighting forced 4,000 residents from their homes.", [(4_000, "displaced")]),
        ("About 600 people lost their homes.", [(600, "displaced")]),
        ("100,000 refugees crossed into Chad.", [(100_000, "displaced")]),
        ("The storm left 2,000 homeless.", [(2_000, "displaced")]),
        ("Two men, aged 25 and 30, were detained.", [(2, "arrested")]),
        # arrested
        ("more than 2,000 were detained", [(2_000, "arrested")]),
        ("Police arrested 30 people and detained 12 others.", [(30, "arrested"), (12, "arrested")]),
        ("40 protesters were taken into custody", [(40, "arrested")]),
        ("Troops rounded up 25 men in the village.", [(25, "arrested")]),
        ("The 12 hostages were held in a basement.", [(12, "arrested")]),
        ("five Britons were arrested", [(5, "arrested")]),
        ("300 arrests were made", [(300, "arrested")]),
        # evacuated
        ("Rescuers evacuated 2,000 people; 500 were moved to shelters.",
         [(2_000, "evacuated"), (500, "evacuated")]),
        ("30 miners were rescued on Sunday.", [(30, "evacuated")]),
        ("1,200 evacuees are sleeping in schools.", [(1_200, "evacuated")]),
        # homes
        ("1,100 homes destroyed", [(1_100, "homes")]),
        ("The floods damaged 200 buildings and washed away 30 houses.",
         [(200, "homes"), (30, "homes")]),
        ("Some 40 buildings collapsed.", [(40, "homes")]),
        ("the number of dead climbed past 2,000", [(2_000, "killed")]),
        ("Deaths from the earthquake climb past 15,000 as rescuers dig", [(15_000, "killed")]),
        ("Turkey has reported at least 9,057 dead and Syria 2,530.",
         [(9_057, "killed"), (2_530, "killed")]),
        ("Officials listed 127 people as missing and a further 806 as injured.",
         [(127, "missing"), (806, "injured")]),
        ("Rescuers brought out 481 people, 113 of whom are being treated.",
         [(481, "evacuated"), (113, "injured")]),
        ("Rescuers pulled more than 8,000 people out of the wreckage.", [(8_000, "evacuated")]),
        ("At least 1,846 people had been brought out alive.", [(1_846, "evacuated")]),
        ("About 380,000 people are sheltering in government facilities.", [(380_000, "displaced")]),
        ("a refugee camp outside Adre that is home to more than 44,000 people",
         [(44_000, "displaced")]),
        ("The floods have affected 800,000 people and forced thousands of them from their homes.",
         [(800_000, "people")]),
        # a line's label says what its number counts
        ("Killed: 501\nInjured: 1,523\nHomes damaged or destroyed: 99,317\n"
         "Crops damaged: 669,903 hectares\nPeople affected: 1.85 million\n"
         "Displaced: 16,000 households\nMissing: 12",
         [(501, "killed"), (1_523, "injured"), (99_317, "homes"), (1_850_000, "people"),
          (16_000, "displaced"), (12, "missing")]),
        # a part counted as the whole is
        ("The attack killed at least 12 people, including four children, and wounded dozens.",
         [(12, "killed"), (4, "killed")]),
        ("At least 59 civilians were killed, three United Nations workers among them.",
         [(59, "killed"), (3, "killed")]),
        # people: other counts of persons
        ("Buses carrying 308 militants left.", [(308, "people")]),
        ("The camp holds 44,000 people.", [(44_000, "people")]),
        ("12 soldiers killed 30 rebels.", [(12, "people"), (30, "killed")]),
        ("300 fighters fled to Idlib.", [(300, "people")]),  # fighters are not displaced
        ("the 300 or so civilians on board", [(300, "people")]),
        # other: not persons
        ("a convoy of 17 buses and 11 ambulances", [(17, ""), (11, "")]),
        ("Russia fired twenty-five missiles, killing 12", [(25, ""), (12, "killed")]),
        ("20 rockets were fired, killing 5 people", [(20, ""), (5, "killed")]),
        ("about 140 square kilometres", [(140, "")]),
        ("cash grants to 50,000 households", [(50_000, "")]),
        ("a 3 km stretch of road", [(3, "")]),
        ("close to 7.1 million Somalis face hunger", [(7_100_000, "people")]),
        ("Close to 4,000 firefighters, soldiers and police officers were sent in.",
         [(4_000, "people")]),
        # Tolls told other ways.
        ("Police shoot at protesters as toll reaches 133.", [(133, "killed")]),
        ("A count puts the death toll at no fewer than 133 so far.", [(133, "killed")]),
        ("At least 150 police officers had been taken to hospital.", [(150, "injured")]),
        ("Another 150 had been given first aid.", [(150, "injured")]),
        ("Over 10,000 were forced to flee.", [(10_000, "displaced")]),
        ("Rescuers pulled 14 survivors from the rubble.", [(14, "evacuated")]),
        ("They pulled 12 bodies from the river.", [(12, "killed")]),
        ("Security forces shot dead three protesters.", [(3, "killed")]),
        ("Police gunned down two men.", [(2, "killed")]),
        ("The clashes claimed 17 lives.", [(17, "killed")]),
    ],
)  # fmt: skip
def test_kind(text: str, expected: list[tuple[float, str]]) -> None:
    assert kinds(text) == expected


@pytest.mark.parametrize(
    "text",
    [
        # years
        "In 2015 people fled the town.",
        "since 2014 were killed",
        "Since 2011, 2012 were killed",
        # ages
        "a 25-year-old man was killed",
        "Men aged 25 and 30 were killed",
        "Men aged between 18 and 30 were detained",
        "He was 25 years old when he was killed",
        # magnitudes, labels
        "a magnitude 6.2 earthquake",
        "a magnitude 7 earthquake killed",
        "an M 6.1 quake",
        "a 7.8-magnitude quake",
        "a Category 5 hurricane",
        "Flight 370 passengers",
        "Resolution 2254 members",
        # times and spans
        "killed at 10:30 on Monday",
        "the blast at 5 p.m. killed",
        "He was killed 10 years ago.",
        "for 10 years",
        "killed 3 days ago",
        # percentages and money
        "30% of people were killed",
        "killed 40 percent",
        "killing 40 per cent of the herd",
        "$5 million for the displaced",
        "Rs 500 were stolen",
        "5 dollars were killed",
        # names and model numbers, ordinals
        "G7 leaders met",
        "a Mi-35 helicopter crashed",
        "two F-16 jets",
        "the 5th brigade",
        "the 101st Airborne Division",
        "the twenty-first killing",
        # pronouns and vague quantities
        "No one was killed.",
        "one of the commanders",
        "hundreds of people were killed",
        "dozens were injured",
        # decimals count measures only
        "2.5 people were killed",
        # a capitalised plural with no verb saying what happened: not a count
        "Two Americans visited.",
        "Three Powers Square, and hundreds were arrested",
        # plural heads we do not count
        "three fellow commissioners told reporters",
        "30 police posts were attacked",
        # ratios, "every one", a year before its noun, a number on the line above a label
        "roughly one in five of the state's residents fled",
        "Every one of the buildings was hit.",
        "The 2015 earthquake killed many.",
        "the 2015 earthquake victims",
    ],
)
def test_refused(text: str) -> None:
    assert kinds(text) == []


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # ranges: the low end, the top disputed
        ("between 30 and 40 killed", [(30, "killed", (40,))]),
        ("between thirty and forty people were killed", [(30, "killed", (40,))]),
        ("30-40 people were killed", [(30, "killed", (40,))]),
        ("30 to 40 people were killed", [(30, "killed", (40,))]),
        ("two or three people were hurt", [(2, "injured", (3,))]),
        # a change is not a range
        ("The toll rose from 30 to 40.", [(40, "killed", ())]),
        # rival counts of the same thing
        ("State media said 118 were killed, while another count put the toll at 120.",
         [(118, "killed", (120,)), (120, "killed", (118,))]),
        ("Officials said 12 people were killed. The UN put the toll higher, at 15.",
         [(12, "killed", (15,)), (15, "killed", (12,))]),
        ("The army said 40 people were detained, but rights groups said 65 were arrested.",
         [(40, "arrested", (65,)), (65, "arrested", (40,))]),
        # not the same count
        ("Officials said 12 people were killed in Homs, but activists said 30 died in Hama.",
         [(12, "killed", ()), (30, "killed", ())]),
        ("Twelve people were killed on Monday. Another attack killed 15 people on Tuesday, "
         "police said.", [(12, "killed", ()), (15, "killed", ())]),
        ("12 civilians were killed, while the army said 30 soldiers were killed.",
         [(12, "killed", ()), (30, "killed", ())]),
        ("118 were killed, but officials said 579 were injured.",
         [(118, "killed", ()), (579, "injured", ())]),
        ("12 people were killed and 30 were killed later.",
         [(12, "killed", ()), (30, "killed", ())]),
        ("118 were killed. Officials said 120 were killed. Another count put the toll at 130.",
         [(118, "killed", ()), (120, "killed", (130,)), (130, "killed", (120,))]),
        ("Killed: 185 according to the government, while the UN puts the toll at 259\n"
         "Injured: 200", [(185, "killed", (259,)), (259, "killed", (185,)), (200, "injured", ())]),
        # a part of a count is no rival of it
        ("12 people were killed, including four children, while officials said 13 died.",
         [(12, "killed", (13,)), (4, "killed", ()), (13, "killed", (12,))]),
    ],
)  # fmt: skip
def test_disputed(text: str, expected: list) -> None:
    assert disputes(text) == expected


def test_range_is_approximate_and_spans_both_numbers() -> None:
    (fig,) = find_figures("between 30 and 40 people were killed")
    assert (fig.text, fig.approximate, fig.value, fig.disputed) == (
        "30 and 40 people",
        True,
        30,
        (40,),
    )


@pytest.mark.parametrize(
    "text",
    [
        "Soldiers opened fire, killing 12 civilians and wounding 30 near 17 buses; 5 missing.",
        "118 dead and 579 injured, 2,000 detained, 10,000 displaced, 1,100 homes destroyed.",
    ],
)
def test_flags_follow_kind(text: str) -> None:
    for f in find_figures(text):
        assert f.kind in (*KINDS, "")
        assert f.killed == (f.kind == "killed")
        assert f.wounded == (f.kind == "injured")


def test_to_dict_keeps_old_keys_and_adds_kind_and_disputed() -> None:
    (fig,) = find_figures("between 30 and 40 people were killed")
    d = fig.to_dict()
    assert list(d) == ["value", "text", "span", "sentence", "what", "noun", "qualifier",
                       "killed", "wounded", "approximate", "kind", "disputed", "part"]  # fmt: skip
    assert (d["kind"], d["disputed"], d["value"], d["killed"]) == ("killed", [40], 30, True)


def test_figure_made_with_flags_only_gets_their_kind() -> None:
    made = Figure(3, "3", 0, 1, 0, "people", "", "", True, False, False)
    assert (made.kind, made.killed, made.wounded, made.disputed) == ("killed", True, False, ())
    made = Figure(3, "3", 0, 1, 0, "people", "", "", False, True, False)
    assert made.kind == "injured"
    made = Figure(3, "3", 0, 1, 0, "people", "", "", True, False, False, kind="missing")
    assert (made.killed, made.wounded) == (False, False)


def test_primary_figures_drop_a_rival_count() -> None:
    text = (
        "State media said 118 were killed, while another count put the toll at 120. 30 were hurt."
    )
    kept = primary_figures(find_figures(text, split_sentences(text)))
    assert [(f.value, f.kind) for f in kept] == [(118, "killed"), (30, "injured")]


def test_a_noun_on_the_next_line_is_not_counted() -> None:
    text = "the UN puts the toll at 259\nInjured: 200"
    assert [(f.value, f.what, f.kind) for f in find_figures(text)] == [
        (259, "killed", "killed"),
        (200, "wounded", "injured"),
    ]


def test_parts_are_marked_and_left_out_of_primary_figures() -> None:
    text = "The attack killed 12 people, including four children, and wounded 30."
    figs = find_figures(text, split_sentences(text))
    assert [(f.value, f.kind, f.part) for f in figs] == [
        (12, "killed", False),
        (4, "killed", True),
        (30, "injured", False),
    ]
    assert [f.value for f in primary_figures(figs)] == [12, 30]
    assert figs[1].to_dict()["part"] is True


def test_dates_excluded_from_a_range() -> None:
    text = "between 5 and 8 August 40 people were killed"
    figs = find_figures(text, exclude=[(8, 22)])
    assert [(f.value, f.disputed) for f in figs] == [(40, ())]
