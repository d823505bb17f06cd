"""``python -m geo``: one parser with a subparser a command, each listing its own arguments."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from geo.__main__ import COMMANDS, main
from tests.helpers import MINI

ROOT = Path(__file__).resolve().parents[2]

# Each command: a command line it accepts (so that only the bad option is wrong), and the
# arguments its --help must name.
COMMAND_LINES = {
    "validate": (["story"], ["PATH"]),
    "geocode": (
        ["Arsal"],
        ["query", "--story", "--no-story", "--focus", "--online", "--candidates", "--cache-dir"],
    ),
    "extract": (
        ["a.txt", "--date", "2017-08-28"],
        ["file", "--date", "--story", "--dateline", "--format", "--cache-dir", "--no-text"],
    ),
    "publish": (["story", "out.html"], ["STORY_DIR", "OUT.html", "--chapter"]),
    "prepare": ([], []),
    "static": (["static"], ["dir", "--basemap"]),
    "import": (
        ["acled", "x.csv", "story"],
        ["acled", "FILE", "STORY_DIR", "--title", "--replace"],
    ),
}


def test_every_command_is_covered() -> None:
    assert set(COMMAND_LINES) == set(COMMANDS)


@pytest.mark.parametrize("command", COMMANDS)
def test_help_names_the_arguments(capsys, command: str) -> None:
    assert main([command, "--help"]) == 0
    out = capsys.readouterr().out
    assert out.startswith(f"usage: python -m geo {command}")
    for argument in COMMAND_LINES[command][1]:
        assert argument in out


@pytest.mark.parametrize("command", COMMANDS)
def test_bad_option_exits_2(capsys, command: str) -> None:
    assert main([command, *COMMAND_LINES[command][0], "--no-such-option"]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err.startswith(f"usage: python -m geo {command}")
    assert "unrecognized arguments: --no-such-option" in captured.err


@pytest.mark.parametrize("argv", [[], ["validat"], ["--verbose", "validate"]])
def test_bad_command_exits_2(capsys, argv: list[str]) -> None:
    assert main(argv) == 2
    assert capsys.readouterr().err.startswith("usage: python -m geo")


def test_top_level_help_lists_every_command(capsys) -> None:
    assert main(["--help"]) == 0
    out = capsys.readouterr().out
    for name, (_, help_text) in COMMANDS.items():
        assert name in out and help_text[:40] in out


def test_validate_imports_neither_gazetteer_nor_extractor() -> None:
    # A fresh interpreter: the module is what ``python -m geo validate`` runs.
    code = (
        "import sys\nfrom geo.__main__ import main\n"
        f"assert main(['validate', {str(MINI)!r}]) == 0\n"
        "print(sorted(m for m in sys.modules if m.startswith(('geo.geocoders', 'geo.extract'))))"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True
    )
    assert out.stdout.splitlines()[-1] == "[]"
