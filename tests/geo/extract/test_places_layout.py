"""The place finder's modules import one another one way: each only the ones listed before it.

``geo/extract/places/`` is a package of steps; an import back up the list would make a cycle
(or one waiting to happen), so a new module takes its place in ``ORDER``.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[3] / "geo" / "extract" / "places"
NAME = "geo.extract.places"
# Lowest first: a module may import any module before it, never one after it, nor the package.
ORDER = (
    "words",
    "records",
    "tokens",
    "match",
    "people",
    "roles",
    "recognise",
    "judge",
    "borders",
    "votes",
    "rank",
    "resolve",
    "cues",
    "unknown",
    "districts",
    "passed_over",
    "settle",
    "find",
)


def package_imports(source: str) -> set[str]:
    """The package's modules ``source`` (a module of the package) imports, at any depth;
    "__init__" for the package itself."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            targets = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level == 1:  # from . import x, from .x import y
                base = f"{NAME}.{base}" if base else NAME
            elif node.level:
                continue  # above the package: no module of it
            targets = [base] if base != NAME else [f"{NAME}.{a.name}" for a in node.names]
        else:
            continue
        for target in targets:
            if target == NAME:
                found.add("__init__")
            elif target.startswith(NAME + "."):
                module = target.removeprefix(NAME + ".").split(".")[0]
                found.add(module if (PACKAGE / f"{module}.py").exists() else "__init__")
    return found


def test_every_module_has_its_place_in_the_order() -> None:
    modules = {p.stem for p in PACKAGE.glob("*.py")} - {"__init__"}
    assert modules == set(ORDER)


@pytest.mark.parametrize(
    ("source", "expected"),
    [
        ("from geo.extract.places.votes import _Votes", {"votes"}),
        ("from geo.extract.places import votes, rank", {"votes", "rank"}),
        ("from .tokens import tokenize\nfrom . import match", {"tokens", "match"}),
        ("def f():\n    import geo.extract.places.find", {"find"}),
        ("from geo.extract.places import find_places", {"__init__"}),
        ("from geo.extract import places", set()),  # its parent: not checked here
        ("from geo.extract.regions import QUALIFIERS\nimport re", set()),
    ],
)
def test_package_imports_reads_every_form(source: str, expected: set[str]) -> None:
    assert package_imports(source) == expected


@pytest.mark.parametrize("module", ORDER)
def test_a_module_imports_only_modules_before_it(module: str) -> None:
    source = (PACKAGE / f"{module}.py").read_text("utf-8")
    allowed = set(ORDER[: ORDER.index(module)])
    assert package_imports(source) <= allowed


def test_the_package_re_exports_every_name_used_outside_it() -> None:
    import geo.extract.places as places

    # What app, pages, bench, the other extract modules and the tests import from the package.
    for name in ("find_places", "PlaceMention", "PassedOver", "PASSED_OVER_REASONS",
                 "capitals", "tokenize"):  # fmt: skip
        assert name in places.__all__
        assert getattr(places, name) is not None
