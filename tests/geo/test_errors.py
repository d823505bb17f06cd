"""One exception root: every exception class the library defines derives from DatelineError."""

from __future__ import annotations

import importlib
import inspect
import types
from pathlib import Path

from geo.errors import DatelineError

GEO = Path(__file__).resolve().parents[2] / "geo"


def module_names() -> list[str]:
    """Every module and package under geo/, as a dotted name."""
    names = []
    for path in sorted(GEO.rglob("*.py")):
        rel = path.relative_to(GEO.parent).with_suffix("")
        names.append(".".join(rel.parts).removesuffix(".__init__"))
    return names


def strays(module: types.ModuleType) -> list[str]:
    """The exception classes ``module`` defines (not imports) that are not DatelineErrors."""
    return [
        f"{module.__name__}.{name}"
        for name, cls in vars(module).items()
        if inspect.isclass(cls)
        and cls.__module__ == module.__name__
        and issubclass(cls, BaseException)
        and not issubclass(cls, DatelineError)
    ]


def test_every_exception_class_under_geo_derives_from_dateline_error() -> None:
    names = module_names()
    assert "geo.story.storage" in names and "geo.story.load.problems" in names
    found = [s for name in names for s in strays(importlib.import_module(name))]
    assert found == []


def test_a_stray_exception_class_is_found() -> None:
    module = types.ModuleType("geo.fake")
    exec(
        "class Rooted(DatelineError, ValueError): pass\n"
        "class Stray(ValueError): pass\n"
        "Imported = KeyError\n",
        {"DatelineError": DatelineError, "__name__": "geo.fake"},
        module.__dict__,
    )
    assert strays(module) == ["geo.fake.Stray"]
