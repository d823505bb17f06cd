"""geo.bounded and geo.errors: hostile text refused before a parser recurses or reads it whole."""

from __future__ import annotations

import contextlib
import tomllib
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from geo.bounded import (
    _JSON_TOKENS,
    _TOML_TOKENS,
    MAX_DEPTH,
    InputError,
    json_loads,
    nesting_depth,
    read_text,
    toml_loads,
    value_depth,
)
from geo.errors import READ_FAILURES, DatelineError, failure_text


@pytest.mark.parametrize(
    ("text", "depth"),
    [
        ("a = 1", 0),
        ("a = [1, [2, [3]]]", 3),
        ("[table]\na = {b = [1]}", 2),
        ("[[chapters]]\nselect = 'x'", 2),
        ('a = "[[[[[["', 0),
        ("a = '[[[[[['", 0),
        ('a = """\n[[[[\n"""', 0),
        ("a = '''\n[[[[\n'''", 0),
        ("# [[[[[[\na = [1]", 1),
        ('a = "quote \\" [[[["', 0),
        ('a = """x""""', 0),
    ],
)
def test_toml_depth_counts_brackets_outside_strings_and_comments(text: str, depth: int):
    assert nesting_depth(text, _TOML_TOKENS, 100) == (depth, None)


@pytest.mark.parametrize(
    ("text", "depth"),
    [
        ('{"a": [1, {"b": []}]}', 4),
        ('{"a": "[[[[{{{{"}', 1),
        ('["\\"[[[["]', 1),
    ],
)
def test_json_depth_counts_brackets_outside_strings(text: str, depth: int):
    assert nesting_depth(text, _JSON_TOKENS, 100) == (depth, None)


def test_depth_reports_the_line_where_the_limit_is_passed():
    text = "a = 1\nb = 2\nc = " + "[" * 20 + "]" * 20
    assert nesting_depth(text, _TOML_TOKENS, 16) == (17, 3)


@pytest.mark.parametrize("depth", [MAX_DEPTH + 1, 5_000, 200_000])
def test_deep_toml_is_refused_before_parsing(depth: int):
    with pytest.raises(InputError, match="nested more than") as info:
        toml_loads("x = 1\nnested = " + "[" * depth + "]" * depth)
    assert info.value.line == 2


def test_toml_at_the_depth_limit_parses():
    text = "a = " + "[" * MAX_DEPTH + "]" * MAX_DEPTH
    # The document is a table: one level more than its brackets.
    assert value_depth(toml_loads(text), 100) == MAX_DEPTH + 1


def test_dotted_keys_nest_without_brackets_and_are_refused_too():
    with pytest.raises(InputError, match="nested more than"):
        toml_loads("a" + ".b" * 40 + " = 1")


@pytest.mark.parametrize("depth", [MAX_DEPTH + 1, 100_000])
def test_deep_json_is_refused_before_parsing(depth: int):
    with pytest.raises(InputError, match="nested more than"):
        json_loads('{"a":\n' + "[" * depth + "]" * depth + "}")


@pytest.mark.parametrize("text", ["[NaN]", "[Infinity]", "[-Infinity]", "[1e400]", "[-1e999]"])
def test_json_refuses_numbers_that_are_not_finite(text: str):
    with pytest.raises(InputError):
        json_loads(text)


def test_json_keeps_ordinary_numbers():
    assert json_loads('{"a": [1, 2.5, -1e300]}') == {"a": [1, 2.5, -1e300]}


def test_value_depth_is_iterative_and_stops_past_the_limit():
    deep: list = []
    for _ in range(50_000):  # far deeper than the recursion limit
        deep = [deep]
    assert value_depth(deep, 10) == 11
    assert value_depth({"a": [1, {"b": 2}]}, 10) == 3


def test_read_text_refuses_a_big_file_unread(tmp_path: Path):
    big = tmp_path / "big.toml"
    big.write_bytes(b"a" * 2_000)
    with pytest.raises(InputError, match="larger than 1 KB"):
        read_text(big, 1_000)
    small = tmp_path / "small.toml"
    small.write_bytes(b"\xef\xbb\xbfa = 1")  # a byte-order mark is dropped
    assert read_text(small, 1_000) == "a = 1"


def test_input_errors_are_value_errors_under_the_one_root():
    assert issubclass(InputError, DatelineError)
    assert issubclass(InputError, ValueError)
    for exc in (RecursionError, MemoryError, tomllib.TOMLDecodeError, UnicodeDecodeError):
        assert issubclass(exc, READ_FAILURES)


@pytest.mark.parametrize(
    ("exc", "text"),
    [
        (RecursionError("maximum recursion depth exceeded"), "nested too deeply"),
        (MemoryError(), "too big"),
        (InputError("is larger than 1 KB"), "is larger than 1 KB"),
        (KeyError("x" * 500), "KeyError: "),
    ],
)
def test_failure_text_is_one_short_line(exc: BaseException, text: str):
    out = failure_text(exc)
    assert text in out
    assert len(out) <= 200
    assert "\n" not in out


_SYNTAX = st.sampled_from("[]{}\"'\\#\n =a1.,:")


@given(st.text(alphabet=_SYNTAX, max_size=400) | st.text(max_size=200))
def test_any_text_ends_in_a_value_or_a_parse_error(text: str):
    """Whatever the text, the readers return or raise a ValueError: a parser's own error or an
    InputError, never a RecursionError or anything else."""
    for loads in (toml_loads, json_loads):
        with contextlib.suppress(ValueError):
            loads(text)


@given(st.recursive(st.none() | st.integers() | st.text(max_size=5), lambda c: st.lists(c)))
def test_depth_scan_matches_the_parsed_depth_of_json(value):
    import json

    text = json.dumps(value)
    scanned, _ = nesting_depth(text, _JSON_TOKENS, 10_000)
    assert scanned == value_depth(value, 10_000)
