"""Fuzz: any article, repeated names and all, ends in a draft within a time and memory bound."""

from __future__ import annotations

import json
from datetime import date
from pathlib import Path

import pytest
from hypothesis import given, settings

from geo.extract import extract
from geo.geocoders.gazetteer import Gazetteer
from geo.story.library import BUNDLED, DEFAULT_STORY
from geo.story.load import load_story
from tests.fuzz import articles, bounded, scaled


@pytest.fixture(scope="module")
def gazetteer(gazetteer_cache: Path) -> Gazetteer:
    # The page's own: GeoNames plus the bundled story's places.
    return Gazetteer.load(load_story(BUNDLED / DEFAULT_STORY).places, cache_dir=gazetteer_cache)


@settings(max_examples=scaled(30))
@given(text=articles)
def test_any_article_ends_in_a_draft_in_bounded_time(gazetteer, text):
    with bounded(peak=500_000_000):
        result = extract(text, date(2017, 8, 28), gazetteer=gazetteer)
    json.dumps(result.to_dict())
