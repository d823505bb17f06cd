"""A chapter's picture: a PNG, JPEG or WebP file in the story folder, checked before it is shown.

The file's type is read from its first bytes (never its name), its size in pixels from its
header (no image library: the check runs on every load, and a decoder is what a hostile file
attacks). ``image_data_uri`` gives the bytes as a ``data:`` address for the published file,
whose content security policy allows images from nowhere else.
"""

from __future__ import annotations

import base64
import re
import struct
from dataclasses import dataclass, field
from pathlib import Path

from geo.errors import DatelineError

MAX_IMAGE_BYTES = 2_000_000  # a published file carries it as base64 (a third bigger)
MAX_IMAGE_SIDE = 4_000  # pixels, either way
MAX_IMAGE_PIXELS = 8_000_000  # width times height: what a browser decodes into memory
MAX_CAPTION = 300
MAX_CREDIT = 200
IMAGE_KEYS = ("file", "caption", "credit")
TYPES = {"png": "image/png", "jpeg": "image/jpeg", "webp": "image/webp"}
_HEADER_BYTES = 65_536  # a JPEG's size marker may sit after its metadata
# Letters, digits, '-', '_', '.': no spaces, quotes or separators to escape later.
IMAGE_NAME = re.compile(r"[A-Za-z0-9_][A-Za-z0-9_.-]{0,95}\.(?:png|jpe?g|webp)", re.IGNORECASE)


class ImageFault(DatelineError, ValueError):
    """What is wrong with a chapter's image, as a sentence for the story's problems."""


@dataclass(frozen=True)
class ChapterImage:
    """A checked chapter picture: its path in the story folder, text and what it is."""

    file: str  # a file name in the story folder
    caption: str
    credit: str
    mime: str
    width: int
    height: int
    path: Path | None = field(default=None, compare=False)  # where it was checked, resolved

    def label(self) -> str:
        """The caption with its credit, as one line of text."""
        return f"{self.caption} (Credit: {self.credit})"


def is_image_name(name: object) -> bool:
    """Whether ``name`` may name a chapter's picture: a plain file name ending .png, .jpg,
    .jpeg or .webp (what a story's zip carries along with its files)."""
    return isinstance(name, str) and IMAGE_NAME.fullmatch(name) is not None


def safe_path(folder: Path, name: object) -> Path:
    """The file ``name`` names in ``folder``; ImageFault when it is not one.

    A plain file name (no folders, so a story's zip carries it), and once symbolic links are
    followed still inside the folder.
    """
    if not isinstance(name, str) or not name.strip():
        raise ImageFault("image.file must be the name of a file in the story folder")
    shown = repr(name[:60])
    if "/" in name or "\\" in name or ".." in name or ":" in name:
        raise ImageFault(
            f"image.file {shown} must stay inside the story folder: a file name, "
            "no folders, '..' or drive"
        )
    if not is_image_name(name):
        raise ImageFault(
            f"image.file {shown} must be a file name of letters, digits, '-', '_' and '.' "
            "ending .png, .jpg, .jpeg or .webp"
        )
    root = folder.resolve()
    target = (root / name).resolve()
    if not target.is_relative_to(root):
        raise ImageFault(f"image.file {shown} leads outside the story folder (a symbolic link)")
    if not target.is_file():
        raise ImageFault(f"image.file {shown} is missing from the story folder")
    return target


def image_kind(head: bytes) -> str | None:
    """'png', 'jpeg' or 'webp' from a file's first bytes, or None."""
    if head.startswith(b"\x89PNG\r\n\x1a\n"):
        return "png"
    if head.startswith(b"\xff\xd8\xff"):
        return "jpeg"
    if head[:4] == b"RIFF" and head[8:12] == b"WEBP":
        return "webp"
    return None


def image_size(kind: str, head: bytes) -> tuple[int, int] | None:
    """(width, height) from the header of a ``kind`` file, or None when it cannot be read."""
    try:
        if kind == "png":
            return _png_size(head)
        if kind == "jpeg":
            return _jpeg_size(head)
        return _webp_size(head)
    except (struct.error, IndexError):
        return None


def _png_size(head: bytes) -> tuple[int, int] | None:
    if head[12:16] != b"IHDR":
        return None
    return struct.unpack(">II", head[16:24])


def _jpeg_size(head: bytes) -> tuple[int, int] | None:
    """The size in the first start-of-frame marker (SOF0..SOF15 but DHT, JPG and DAC)."""
    at = 2
    while at + 9 < len(head):
        if head[at] != 0xFF:
            return None
        marker = head[at + 1]
        if marker == 0xFF:  # fill byte
            at += 1
            continue
        if 0xC0 <= marker <= 0xCF and marker not in (0xC4, 0xC8, 0xCC):
            height, width = struct.unpack(">HH", head[at + 5 : at + 9])
            return width, height
        if marker in (0xD8, 0x01) or 0xD0 <= marker <= 0xD7:
            at += 2
            continue
        at += 2 + struct.unpack(">H", head[at + 2 : at + 4])[0]
    return None


def _webp_size(head: bytes) -> tuple[int, int] | None:
    chunk = head[12:16]
    if chunk == b"VP8 " and head[23:26] == b"\x9d\x01\x2a":
        w, h = struct.unpack("<HH", head[26:30])
        return w & 0x3FFF, h & 0x3FFF
    if chunk == b"VP8L" and head[20] == 0x2F:
        bits = int.from_bytes(head[21:25], "little")
        return (bits & 0x3FFF) + 1, ((bits >> 14) & 0x3FFF) + 1
    if chunk == b"VP8X":
        return int.from_bytes(head[24:27], "little") + 1, int.from_bytes(head[27:30], "little") + 1
    return None


def check_image_file(path: Path, shown: str) -> tuple[str, int, int]:
    """(mime type, width, height) of the picture at ``path``; ImageFault when it is not a small
    PNG, JPEG or WebP. ``shown`` names the file in the message."""
    size = path.stat().st_size
    if size > MAX_IMAGE_BYTES:
        raise ImageFault(
            f"image {shown} is {size:,} bytes; a chapter's image has at most {MAX_IMAGE_BYTES:,}"
        )
    with open(path, "rb") as fh:
        head = fh.read(_HEADER_BYTES)
    kind = image_kind(head)
    if kind is None:
        raise ImageFault(f"image {shown} is not a PNG, JPEG or WebP file (by its first bytes)")
    dims = image_size(kind, head)
    if dims is None or min(dims) < 1:
        raise ImageFault(f"image {shown}: its {kind.upper()} header cannot be read")
    w, h = dims
    if max(w, h) > MAX_IMAGE_SIDE or w * h > MAX_IMAGE_PIXELS:
        raise ImageFault(
            f"image {shown} is {w:,}×{h:,} pixels; at most {MAX_IMAGE_SIDE:,} a side and "
            f"{MAX_IMAGE_PIXELS:,} in all"
        )
    return TYPES[kind], w, h


def read_image(image: ChapterImage) -> bytes:
    """The picture's bytes, its size and type checked again (the file may have changed)."""
    if image.path is None:
        raise ImageFault(f"image {image.file!r} was not checked in a story folder")
    mime, _, _ = check_image_file(image.path, repr(image.file))
    with open(image.path, "rb") as fh:
        data = fh.read(MAX_IMAGE_BYTES + 1)
    kind = image_kind(data)
    if len(data) > MAX_IMAGE_BYTES or kind is None or TYPES[kind] != mime:
        raise ImageFault(f"image {image.file!r} changed while it was read")
    return data


def image_data_uri(image: ChapterImage) -> str:
    """The picture as a ``data:`` address, for a page that may load nothing else."""
    return f"data:{image.mime};base64,{base64.b64encode(read_image(image)).decode('ascii')}"
