"""Every package the code imports is declared in the requirements.

A package that arrives only as another's dependency can vanish or change under the code when
that other package moves; so each direct import names a distribution pinned in the requirements
file of its part: the app and the library in requirements.txt, the tests and tools in
requirements-dev.txt (which includes requirements.txt).
"""

from __future__ import annotations

import ast
import sys
from functools import cache
from importlib.metadata import packages_distributions
from pathlib import Path

import pytest

import dev

ROOT = Path(__file__).resolve().parents[1]
# What runs in the app (requirements.txt) and what only the tests and tools use.
RUNTIME = ("geo", "dashboard", "pages", "app.py", "serve.py")
TOOLS = ("tests", "bench", "data/scripts", "docs", "dev.py")
# The repository's own top-level modules and packages.
LOCAL = {"geo", "dashboard", "tests", "bench", "data", "app", "serve", "dev", "conftest"}


def _files(parts: tuple[str, ...]) -> list[Path]:
    out = []
    for part in parts:
        path = ROOT / part
        out += sorted(path.rglob("*.py")) if path.is_dir() else [path]
    return out


def _imports(path: Path) -> set[str]:
    """The top-level names of the absolute imports in ``path`` (inside functions, too)."""
    names = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names.update(a.name.split(".")[0] for a in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names.add(node.module.split(".")[0])
    return names


def _third_party(path: Path) -> set[str]:
    # A script's siblings (bench/run.py imports bench/common.py as ``common``) are local too.
    siblings = {p.stem for p in path.parent.glob("*.py")} | {
        p.name for p in path.parent.iterdir() if (p / "__init__.py").exists()
    }
    return _imports(path) - set(sys.stdlib_module_names) - LOCAL - siblings


def _declared(req: str) -> set[str]:
    names = set()
    for f in dev._included(ROOT / req):
        names |= set(dev.pins(f.read_text()))
    return names


@cache
def _distributions() -> dict[str, list[str]]:
    return packages_distributions()


def _undeclared(paths: list[Path], req: str) -> dict[str, list[str]]:
    """``{import name: [files]}`` of the imports in ``paths`` that ``req`` does not pin."""
    dists = _distributions()
    declared = _declared(req)
    missing: dict[str, list[str]] = {}
    for path in paths:
        for name in sorted(_third_party(path)):
            owners = {dev._name(d) for d in dists.get(name, [name])}
            if not owners & declared:
                missing.setdefault(name, []).append(path.name)
    return missing


@pytest.mark.slow  # parses some 200 files
@pytest.mark.parametrize(
    ("parts", "req"), [(RUNTIME, "requirements.txt"), (TOOLS, "requirements-dev.txt")]
)
def test_every_import_is_declared(parts, req):
    missing = _undeclared(_files(parts), req)
    assert not missing, f"imported but not pinned in {req}: {missing}"


def test_the_scan_sees_an_undeclared_import(tmp_path):
    # The check can fail: pytest is installed but not a requirement of the app, and a name no
    # installed package provides is reported under its own name.
    mod = tmp_path / "mod.py"
    mod.write_text("import os\nimport pytest\nfrom streamlit import cache_data\nimport nosuchpkg\n")
    assert _undeclared([mod], "requirements.txt") == {"pytest": ["mod.py"], "nosuchpkg": ["mod.py"]}
