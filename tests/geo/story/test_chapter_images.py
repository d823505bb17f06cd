"""A chapter's image: its file, type, size and text are checked like every story file."""

from __future__ import annotations

import io
import struct
import zipfile
from pathlib import Path

import pytest
from PIL import Image

from geo.story.images import (
    MAX_IMAGE_BYTES,
    ImageFault,
    image_data_uri,
    image_kind,
    image_size,
)
from geo.story.load import UPLOAD_LIMITS, StoryError, load_story
from geo.story.storage import ZipError, files_from_zip, save_story, story_zip
from tests.helpers import FIXTURES, copy_story, replace

MEDIA = FIXTURES / "stories" / "mini-media"
C2 = "story.toml:chapter 2 (A ceasefire and a speech), line 26"
GOOD = 'file = "speech.png"'


def png_header(width: int, height: int) -> bytes:
    """Only the signature and IHDR chunk: what the check reads, never decodes."""
    return b"\x89PNG\r\n\x1a\n" + struct.pack(
        ">I4sIIBBBBB", 13, b"IHDR", width, height, 8, 2, 0, 0, 0
    )


def picture(fmt: str, size=(30, 20)) -> bytes:
    buf = io.BytesIO()
    Image.new("RGB", size, (200, 10, 10)).save(buf, fmt)
    return buf.getvalue()


@pytest.fixture
def story(tmp_path: Path) -> Path:
    return copy_story(MEDIA, tmp_path / "stories")


def problems_of(path: Path) -> list[str]:
    with pytest.raises(StoryError) as info:
        load_story(path, basemap=None)
    return [str(p) for p in info.value.problems]


def test_the_fixture_chapter_has_its_checked_image():
    image = load_story(MEDIA, basemap=None).chapters[1].image
    assert (image.file, image.mime, image.width, image.height) == (
        "speech.png",
        "image/png",
        240,
        160,
    )
    assert image.label() == "Where the made-up speech was given (Credit: Test fixture drawing, CC0)"


def _outside(story: Path) -> str:
    secret = story.parent.parent / "secret.png"
    secret.write_bytes(picture("PNG"))
    (story / "link.png").symlink_to(secret)
    return 'file = "link.png"'


def _write(name: str, data: bytes):
    def make(story: Path) -> str:
        (story / name).write_bytes(data)
        return f'file = "{name}"'

    return make


def _long_caption(story: Path) -> str:
    replace(story / "story.toml", "Where the made-up speech was given", "x" * 301)
    return GOOD


# (what the file holds or how image.file names it, the problem it gives)
BAD = {
    "traversal": (
        'file = "../mini-media/speech.png"',
        "image.file '../mini-media/speech.png' must stay inside the story folder",
    ),
    "absolute": ('file = "/etc/passwd"', "image.file '/etc/passwd' must stay inside the story"),
    "backslash": (r'file = "..\\speech.png"', "must stay inside the story folder: a file name"),
    "dot-dot in the middle": ('file = "a/../speech.png"', "must stay inside the story"),
    "a subfolder": ('file = "img/speech.png"', "a file name, no folders, '..' or drive"),
    "a drive": ('file = "C:speech.png"', "a file name, no folders, '..' or drive"),
    "not an image name": ('file = "speech.gif"', "ending .png, .jpg, .jpeg or .webp"),
    "symlink out": (_outside, "image.file 'link.png' leads outside the story folder"),
    "missing file": ('file = "nope.png"', "image.file 'nope.png' is missing from the story"),
    "not a string": ("file = 3", "image.file must be the name of a file in the story folder"),
    "a folder": ('file = "."', "must be a file name of letters, digits"),
    "wrong magic (GIF)": (
        _write("fake.png", b"GIF89a" + b"\0" * 100),
        "image 'fake.png' is not a PNG, JPEG or WebP file (by its first bytes)",
    ),
    "wrong magic (HTML)": (
        _write("page.png", b"<svg onload=alert(1)>"),
        "image 'page.png' is not a PNG, JPEG or WebP file",
    ),
    "too big": (
        _write("big.png", png_header(10, 10) + b"\0" * MAX_IMAGE_BYTES),
        f"is {MAX_IMAGE_BYTES + 29:,} bytes; a chapter's image has at most {MAX_IMAGE_BYTES:,}",
    ),
    "too many pixels": (
        _write("huge.png", png_header(3_000, 3_000)),
        "image 'huge.png' is 3,000×3,000 pixels; at most 4,000 a side and 8,000,000 in all",
    ),
    "too wide": (_write("wide.png", png_header(5_000, 10)), "is 5,000×10 pixels"),
    "truncated header": (_write("cut.png", b"\x89PNG\r\n\x1a\n"), "its PNG header cannot be read"),
    "caption too long": (_long_caption, "image.caption is 301 characters long; at most 300"),
}


@pytest.mark.parametrize("case", list(BAD))
def test_a_bad_chapter_image_is_a_problem_with_its_file_and_line(story: Path, case: str):
    how, message = BAD[case]
    new = how(story) if callable(how) else how
    replace(story / "story.toml", GOOD, new)
    found = problems_of(story)
    assert len(found) == 1, found
    assert found[0].startswith(C2 + ": "), found
    assert message in found[0], found


@pytest.mark.parametrize(
    ("old", "new", "message"),
    [
        (', credit = "Test fixture drawing, CC0"', "", "image must be { file = "),
        ('CC0" }', 'CC0", url = "https://x" }', "image must be { file = "),
        ("Test fixture drawing, CC0", "<b>me</b>", "image.credit holds an HTML tag"),
        ("Where the made-up", "Where\\nthe made-up", "image.caption holds line breaks"),
        ("image = { file", 'image = "speech.png"\nx = { file', "image must be { file = "),
    ],
)
def test_the_image_table_and_its_text_are_checked(story: Path, old, new, message):
    replace(story / "story.toml", old, new)
    found = problems_of(story)
    assert any(f.startswith(C2) and message in f for f in found), found


@pytest.mark.parametrize("fmt", ["PNG", "JPEG", "WEBP"])
def test_kind_and_size_come_from_the_header(fmt: str):
    data = picture(fmt, (37, 23))
    assert image_kind(data) == fmt.lower()
    assert image_size(fmt.lower(), data) == (37, 23)


def test_a_lossless_webp_and_a_progressive_jpeg_are_measured_too():
    buf = io.BytesIO()
    Image.new("RGB", (41, 17)).save(buf, "WEBP", lossless=True)
    assert image_size("webp", buf.getvalue()) == (41, 17)
    buf = io.BytesIO()
    Image.new("RGB", (41, 17)).save(buf, "JPEG", progressive=True)
    assert image_size("jpeg", buf.getvalue()) == (41, 17)


def test_the_data_uri_is_checked_again_when_read(story: Path):
    image = load_story(story, basemap=None).chapters[1].image
    assert image_data_uri(image).startswith("data:image/png;base64,iVBORw0KGgo")
    (story / "speech.png").write_bytes(b"GIF89a" + b"\0" * 40)
    with pytest.raises(ImageFault, match="not a PNG"):
        image_data_uri(image)


def test_a_story_zip_carries_its_chapter_pictures_and_loads_back(tmp_path: Path):
    files = files_from_zip(story_zip(MEDIA))
    assert files["speech.png"] == (MEDIA / "speech.png").read_bytes()
    story = save_story(tmp_path / "saved", "mini-media", files, limits=UPLOAD_LIMITS)
    assert story.chapters[1].image.file == "speech.png"


def test_a_zip_refuses_a_picture_that_is_too_big(tmp_path: Path):
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as zf:
        zf.writestr("story.toml", (MEDIA / "story.toml").read_bytes())
        zf.writestr("speech.png", png_header(10, 10) + b"\0" * MAX_IMAGE_BYTES)
    with pytest.raises(ZipError, match=r"speech\.png is larger than 2,000,000 bytes"):
        files_from_zip(buf.getvalue())


def test_a_zip_leaves_out_a_linked_picture_and_other_files(story: Path, tmp_path: Path):
    secret = tmp_path / "secret.png"
    secret.write_bytes(picture("PNG"))
    (story / "link.png").symlink_to(secret)
    (story / "notes.txt").write_text("not a story file")
    names = set(zipfile.ZipFile(io.BytesIO(story_zip(story))).namelist())
    assert names == {"story.toml", "places.csv", "events.csv", "convoy.csv", "fronts.geojson",
                     "speech.png"}  # fmt: skip
