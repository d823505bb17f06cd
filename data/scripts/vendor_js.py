"""Refresh the JavaScript vendored from npm into geo/map/js/vendor/ (``--check`` only compares).

Each package is pinned by version and by the registry's integrity hash of its tarball: the
tarball is fetched with ``npm pack`` (npm's own client), its SHA-512 checked against the pin,
and the built file and the licence written next to each other. The build's ``sourceMappingURL``
line is dropped: the map file is not vendored, and the published page must ask for nothing.
"""

from __future__ import annotations

import argparse
import base64
import hashlib
import io
import json
import subprocess
import sys
import tarfile
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from geo.atomic import atomic_write_text  # noqa: E402

VENDOR = ROOT / "geo" / "map" / "js" / "vendor"

# name: (version, npm integrity of the tarball, {file in the package: file written here})
PACKAGES = {
    "html-to-image": (
        "1.11.13",
        "sha512-cuOPoI7WApyhBElTTb9oqsawRvZ0rHhaHwghRLlTuffoD1B2aDemlCruLeZrUIIdvG7gs9xeELEPm6PhuASqrg==",
        {"dist/html-to-image.js": "html-to-image.js", "LICENSE": "html-to-image.LICENSE"},
    ),
}


def integrity(data: bytes) -> str:
    """npm's Subresource-Integrity string (sha512) of ``data``."""
    return "sha512-" + base64.b64encode(hashlib.sha512(data).digest()).decode()


def strip_source_map(text: str) -> str:
    """``text`` without its ``//# sourceMappingURL=`` line(s)."""
    lines = [ln for ln in text.splitlines() if not ln.startswith("//# sourceMappingURL=")]
    return "\n".join(lines) + "\n"


def files_of(tarball: bytes, wanted: dict[str, str]) -> dict[str, str]:
    """The ``wanted`` files of an npm tarball, by the name they are written under."""
    out = {}
    with tarfile.open(fileobj=io.BytesIO(tarball), mode="r:gz") as tar:
        for member, target in wanted.items():
            f = tar.extractfile(f"package/{member}")
            if f is None:
                raise SystemExit(f"{member} missing from the tarball")
            text = f.read().decode("utf-8")
            out[target] = strip_source_map(text) if target.endswith(".js") else text
    return out


def npm_pack(name: str, version: str) -> bytes:
    """The tarball of ``name@version`` from the npm registry, through ``npm pack``."""
    with tempfile.TemporaryDirectory() as tmp:
        done = subprocess.run(
            ["npm", "pack", f"{name}@{version}", "--json", "--pack-destination", tmp],
            capture_output=True,
            text=True,
            check=True,
            timeout=120,
        )
        filename = json.loads(done.stdout)[0]["filename"]
        return (Path(tmp) / filename).read_bytes()


def main(argv: list[str] | None = None) -> int:
    """Fetch, check and write (or, with ``--check``, compare) every pinned package."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="compare, write nothing")
    args = parser.parse_args(argv)
    stale = 0
    for name, (version, pin, wanted) in PACKAGES.items():
        tarball = npm_pack(name, version)
        got = integrity(tarball)
        if got != pin:
            print(f"{name}@{version}: integrity {got} is not the pinned {pin}", file=sys.stderr)
            return 1
        for target, text in files_of(tarball, wanted).items():
            path = VENDOR / target
            same = path.exists() and path.read_text(encoding="utf-8") == text
            if args.check:
                stale += not same
                print(f"{path.relative_to(ROOT)}: {'ok' if same else 'differs'}")
            elif not same:
                atomic_write_text(path, text)
                print(f"wrote {path.relative_to(ROOT)} ({len(text.encode()):,} bytes)")
    return 1 if stale else 0


if __name__ == "__main__":
    sys.exit(main())
