"""The library's architecture: seven base modules, four wings, imports only go downwards (and
never up into Streamlit or the dashboard's package)."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

GEO = Path(__file__).resolve().parents[2] / "geo"
BASE = (
    "geo.names",
    "geo.geometry",
    "geo.atomic",
    "geo.errors",
    "geo.bounded",
    "geo.vocabulary",
    "geo.paths",
)
# Lowest first: a module may import its own level or any level below it, never one above.
LEVELS = (BASE, ("geo.geocoders",), ("geo.story",), ("geo.extract",), ("geo.map",))
ENTRY_POINTS = {"geo", "geo.__main__"}  # the package and its CLI dispatcher sit above every wing


def level(module: str) -> int | None:
    """The level of a ``geo`` module or package, or None for anything outside the library."""
    for n, prefixes in enumerate(LEVELS):
        if any(module == p or module.startswith(p + ".") for p in prefixes):
            return n
    return None


def imported(module: str, source: str) -> list[str]:
    """Every module ``source`` imports, at any depth (imports inside functions count too)."""
    package = module if module.endswith("__init__") else module.rsplit(".", 1)[0]
    names = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            names += [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parts = package.removesuffix(".__init__").split(".")
                base = ".".join(parts[: len(parts) - node.level + 1] + ([base] if base else []))
            names.append(base)
            # "from geo.map import scale" imports geo.map.scale
            names += [f"{base}.{a.name}" for a in node.names if base in ("geo", *_packages())]
    return names


def _packages() -> tuple[str, ...]:
    return tuple(p for prefixes in LEVELS[1:] for p in prefixes)


def violations(module: str, source: str) -> list[str]:
    """The imports in ``source`` that break the layering, as 'module imports target'."""
    own = level(module)
    bad = []
    for target in imported(module, source):
        top = target.split(".")[0]
        if top in ("streamlit", "dashboard"):  # the dashboard's package sits on the library
            bad.append(f"{module} imports {top}")
        if own is None or top != "geo":
            continue
        theirs = level(target)
        if theirs is not None and theirs > own:
            bad.append(f"{module} imports {target}")
    return bad


def modules() -> list[tuple[str, Path]]:
    found = []
    for path in sorted(GEO.rglob("*.py")):
        rel = path.relative_to(GEO.parent).with_suffix("")
        name = ".".join(rel.parts).removesuffix(".__init__")
        found.append((name, path))
    return found


@pytest.mark.parametrize(
    ("module", "source", "expected"),
    [
        ("geo.story.load", "from geo.geometry import polygon_area_km2", []),
        (
            "geo.story.load",
            "from geo.map.layers import base_map",
            ["geo.story.load imports geo.map.layers"],
        ),
        (
            "geo.story.details",
            "def f():\n    import geo.extract",
            ["geo.story.details imports geo.extract"],
        ),
        (
            "geo.geocoders.chain",
            "from geo.story import load",
            ["geo.geocoders.chain imports geo.story", "geo.geocoders.chain imports geo.story.load"],
        ),
        (
            "geo.names",
            "from geo.geocoders.gazetteer import Gazetteer",
            ["geo.names imports geo.geocoders.gazetteer"],
        ),
        ("geo.map.layers", "from geo.map import scale\nfrom geo.story.load import Story", []),
        ("geo.map.layers", "import streamlit as st", ["geo.map.layers imports streamlit"]),
        (
            "geo.story.charts",
            "from dashboard.state import ViewState",
            ["geo.story.charts imports dashboard"],
        ),
        (
            "geo.map.publish",
            "def f():\n    import dashboard",
            ["geo.map.publish imports dashboard"],
        ),
        ("geo.extract.places", "from .regions import x\nfrom geo.geocoders import gazetteer", []),
        (
            "geo.story.storage",
            "from ..map import layers",
            ["geo.story.storage imports geo.map", "geo.story.storage imports geo.map.layers"],
        ),
    ],
)
def test_violations_table(module: str, source: str, expected: list[str]) -> None:
    assert violations(module, source) == expected


@pytest.mark.parametrize(("module", "path"), modules(), ids=lambda v: str(v))
def test_imports_only_go_downwards(module: str, path: Path) -> None:
    source = path.read_text(encoding="utf-8")
    if module in ENTRY_POINTS:
        assert not {"streamlit", "dashboard"} & {t.split(".")[0] for t in imported(module, source)}
        return
    assert level(module) is not None, f"{module} is in no wing: put it in one of {LEVELS}"
    assert violations(module, source) == []


def test_the_tree_has_seven_base_modules_and_four_wings() -> None:
    top = {p.name for p in GEO.iterdir() if not p.name.startswith((".", "__pycache__"))}
    assert top == {
        "__init__.py",
        "__main__.py",
        "names.py",
        "geometry.py",
        "atomic.py",
        "errors.py",
        "bounded.py",
        "vocabulary.py",
        "paths.py",
        "story",
        "geocoders",
        "extract",
        "map",
    }


def import_cycles(found: list[tuple[str, Path]]) -> list[list[str]]:
    """The sets of modules of ``found`` that import each other round, through any steps.

    Imports under ``if TYPE_CHECKING:`` count: a cycle held apart only by that guard is still
    two modules that cannot be understood, moved or tested one without the other.
    """
    names = {name for name, _ in found}
    graph = {
        name: {t for t in imported(name, path.read_text(encoding="utf-8")) if t in names} - {name}
        for name, path in found
    }
    reach = {name: _reach(graph, name) for name in graph}
    rings = {tuple(sorted(n for n in reach[m] if m in reach[n])) for m in graph if m in reach[m]}
    return sorted(list(ring) for ring in rings)


def _reach(graph: dict[str, set[str]], start: str) -> set[str]:
    """Every module ``start`` imports, directly or through others."""
    seen: set[str] = set()
    todo = list(graph[start])
    while todo:
        node = todo.pop()
        if node not in seen:
            seen.add(node)
            todo += graph[node]
    return seen


def test_no_modules_import_each_other_round() -> None:
    assert import_cycles(modules()) == []


def test_a_cycle_is_found_even_behind_type_checking(tmp_path: Path) -> None:
    sources = {
        "a": "from geo.story.b import x\n",
        "b": "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from geo.story.a import y\n",
        "c": "from geo.story.a import z\n",
    }
    found = []
    for name, source in sources.items():
        (tmp_path / f"{name}.py").write_text(source, encoding="utf-8")
        found.append((f"geo.story.{name}", tmp_path / f"{name}.py"))
    assert import_cycles(found) == [["geo.story.a", "geo.story.b"]]
