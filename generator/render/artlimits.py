"""The cost of a designer's art bounded: the files it is read from, its raster pictures, and the time to draw it.

Glossary
--------
theme file    a file named inside a theme's folder: it resolves inside the folder (no ``..``, absolute path or link
              out) and is a regular file (no FIFO, device or folder), read at most ``MAX_FILE_BYTES``.
raster        a PNG or JPEG, from a file or inline in SVG art (``data:image/png;base64,...``): its size in pixels is
              read from its header before anything is decoded, and at most ``MAX_DECODE_PIXELS`` are decoded (a
              picture inside SVG art, which has no printed size to scale it to, at most ``MAX_INLINE_PIXELS``, and
              all the pictures of one SVG file together, each counted every time it is named, at most
              ``MAX_INLINE_PIXELS`` and ``MAX_INLINE_BYTES`` written: so a file naming one picture a thousand times
              costs no more than one large picture).
              It is written anew (a PNG re-encoded from its pixels, so no chunk of the file travels on).
print size    a raster ground, cover or landmark is checked at the size it prints: an error below ``LEAST_DPI``, a
              warning below ``PRINT_DPI``, and one finer than ``KEEP_DPI`` is downscaled to it, with a warning.
time bound    each piece of a theme's SVG art is drawn once, alone, stretched to ``PROBE_PX`` on each side (so each axis
              at least as finely as where it is stretched or cut to cover its box), in one child process
              for the theme that has ``DRAW_SECONDS`` for each piece and ``DRAW_BYTES`` of memory; a piece that
              takes longer, or that the drawing cannot finish, is refused in one line naming it (the child is
              killed, nothing is written). A drawing of the kit that fails all the same (at a scale the bound did
              not meet) is one line too (``drawing``).
run budget    a whole run's drawing time (``art_budget``: a publish's, ``art_seconds`` in its settings): cairo's time
              in every drawing of the run, summed over its threads; a drawing that would start past it is refused
              in one line, so a run overshoots by one drawing at most.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import io
import os
import re
import stat
import threading
import time
import warnings
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from generator.errors import TrailwrightError
from generator.units import MM_PER_IN

MAX_FILE_BYTES = 32 * 2**20
MAX_DECODE_PIXELS = 100_000_000  # about 400 MB decoded as RGBA: the largest raster decoded at all
MAX_INLINE_PIXELS = 16_000_000
MAX_INLINE_BYTES = 16 * 2**20  # the pictures of one SVG file, written inline, in all
PRINT_DPI, LEAST_DPI, KEEP_DPI = 300, 150, 600
DRAW_SECONDS, PROBE_PX = 15.0, 1024
DRAW_BYTES = 2 * 2**30  # what the drawing child may allocate beyond what it was forked with
CAIRO_LOCK = threading.Lock()  # every cairosvg call in this process takes it (render.raster); a fork holds it too
_DRAWN: set[str] = set()  # the digests of art already drawn within the time bound in this process


def stays_inside(folder: Path, name: str) -> bool:
    """Whether ``folder / name`` resolves inside ``folder`` (no ``..``, absolute part or link leads out)."""
    root = folder.resolve()
    return (root / name).resolve().is_relative_to(root)


def regular_inside(folder: Path, name: str, where: str, what: str = "the file") -> Path:
    """``folder / name`` resolved: inside ``folder`` and a regular file (see the glossary), else one line."""
    root = folder.resolve()
    path = (root / name).resolve()
    if not path.is_relative_to(root):
        raise TrailwrightError(f"{name[:60]!r} leads outside the theme's folder (a link or '..')", where)
    try:
        mode = path.stat().st_mode
    except OSError as err:
        raise TrailwrightError(f"cannot read {what} {name[:60]!r}: {err.strerror or err}", where) from None
    if not stat.S_ISREG(mode):
        raise TrailwrightError(f"{name[:60]!r} is not a regular file (a FIFO, device or folder)", where)
    return path


def theme_file(folder: Path, name: str, where: str, what: str = "the file", limit: int = MAX_FILE_BYTES) -> bytes:
    """The bytes of the theme file ``name`` (see the glossary), opened without blocking and checked again once
    open, so a FIFO or device put in its place is never waited on."""
    path = regular_inside(folder, name, where, what)
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_NOFOLLOW", 0))
    except OSError as err:
        raise TrailwrightError(f"cannot read {what} {name[:60]!r}: {err.strerror or err}", where) from None
    with os.fdopen(fd, "rb") as f:
        if not stat.S_ISREG(os.fstat(f.fileno()).st_mode):
            raise TrailwrightError(f"{name[:60]!r} is not a regular file (a FIFO, device or folder)", where)
        data = f.read(limit + 1)
    if len(data) > limit:
        raise TrailwrightError(f"{what} {name[:60]!r} is larger than {limit:,} bytes", where)
    return data


MAX_FOLDER_FILES = 1000
THEME_SUFFIXES = frozenset({".toml", ".svg", ".png", ".jpg", ".jpeg", ".ttf", ".otf"})  # what a theme draws from


def folder_digest(folder: Path) -> str:
    """The SHA-256 of the files a theme folder can draw from (``THEME_SUFFIXES``: their names and bytes, in name
    order), so a kit records which art it was drawn from. Hidden files and folders (``.git``), links and every
    other kind of file are left out: never read, never counted."""
    root = folder.resolve()
    digest = hashlib.sha256()
    names: list[str] = []
    for top, folders, files in os.walk(root):  # links to folders are not followed
        folders[:] = sorted(f for f in folders if not f.startswith("."))  # .git and the like: not walked at all
        here = Path(top)
        names += [
            (here / f).relative_to(root).as_posix()
            for f in files
            if not f.startswith(".")
            and Path(f).suffix.lower() in THEME_SUFFIXES
            and (here / f).is_file()
            and not (here / f).is_symlink()
        ]
        if len(names) > MAX_FOLDER_FILES:
            raise TrailwrightError(f"more than {MAX_FOLDER_FILES} art files in the theme's folder", str(folder))
    names.sort()
    for name in names:
        data = theme_file(root, name, str(folder))
        digest.update(f"{name}\0{len(data)}\0".encode())
        digest.update(data)
    return digest.hexdigest()


def _header(data: bytes, where: str, most: int):
    """The raster ``data`` opened, its header read and nothing decoded: PNG or JPEG, at most ``most`` pixels."""
    from PIL import Image

    if len(data) > MAX_FILE_BYTES:
        raise TrailwrightError(f"a picture of {len(data):,} bytes, at most {MAX_FILE_BYTES:,}", where)
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", Image.DecompressionBombWarning)
            image = Image.open(io.BytesIO(data), formats=("PNG", "JPEG"))
    except Image.DecompressionBombError:
        raise TrailwrightError(f"too many pixels to decode safely (over {most:,})", where) from None
    except (OSError, SyntaxError, ValueError):
        raise TrailwrightError("not a PNG or JPEG image Pillow reads", where) from None
    width, height = image.size
    if width * height > most:
        raise TrailwrightError(
            f"{width:,} × {height:,} px is too many pixels to decode safely (over {most:,}): scale it down", where
        )
    return image


def _decoded(image, where: str):
    from PIL import Image

    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", Image.DecompressionBombWarning)
            image.load()
    except (OSError, SyntaxError, ValueError, Image.DecompressionBombError) as err:
        raise TrailwrightError(f"a picture Pillow cannot decode ({str(err).splitlines()[0][:80]})", where) from None
    return image


def _uri(image, kind: str, original: bytes | None = None) -> str:
    """The picture as a ``data:`` URI: a PNG re-encoded from its pixels; a JPEG as it was (``original``), unless
    it is larger than its pixels (extra segments) or was changed."""
    kind = "JPEG" if kind in ("JPEG", "MPO") else "PNG"  # a camera's JPEG may read as MPO (several pictures)
    if kind == "JPEG" and original is not None and len(original) <= 3 * image.width * image.height + 65536:
        data = original
    else:
        out = io.BytesIO()
        if kind == "JPEG":
            image.convert("RGB").save(out, format="JPEG", quality=95)
        else:
            image.save(out, format="PNG", compress_level=6)
        data = out.getvalue()
    return f"data:image/{kind.lower()};base64,{base64.b64encode(data).decode('ascii')}"


class PictureBudget:
    """The pictures of one SVG file, in all: at most ``MAX_INLINE_PIXELS`` and ``MAX_INLINE_BYTES`` written (see the
    glossary), each counted every time it is named; the header is read before anything is decoded."""

    def __init__(self) -> None:
        self.pixels = self.written = 0

    def spend(self, pixels: int, written: int, where: str) -> None:
        self.pixels, self.written = self.pixels + pixels, self.written + written
        if self.pixels > MAX_INLINE_PIXELS:
            raise TrailwrightError(
                f"the file's pictures have more than {MAX_INLINE_PIXELS:,} pixels in all (each counted every time "
                "it is named)",
                where,
            )
        if self.written > MAX_INLINE_BYTES:
            raise TrailwrightError(f"the file's pictures make more than {MAX_INLINE_BYTES:,} bytes in all", where)


def inline_raster(picture: str | bytes, where: str, budget: PictureBudget | None = None) -> str:
    """A picture inside SVG art (a ``data:`` URI, or a theme file's bytes) checked (see the glossary) and written
    anew as a ``data:`` URI; ``budget`` counts it against the file's pictures in all."""
    data = picture
    if isinstance(picture, str):
        match = re.fullmatch(r"data:image/(png|jpeg|jpg);base64,([A-Za-z0-9+/=\s]*)", picture.strip(), re.I)
        if not match:
            raise TrailwrightError(f"{picture[:40]!r}: only an inline PNG or JPEG (data:image/png;base64,...)", where)
        try:
            data = base64.b64decode(re.sub(r"\s", "", match.group(2)), validate=True)
        except binascii.Error:
            raise TrailwrightError("an inline picture that is not base64", where) from None
    assert isinstance(data, bytes)
    budget = budget or PictureBudget()
    header = _header(data, where, MAX_INLINE_PIXELS)
    budget.spend(header.width * header.height, 0, where)  # before anything is decoded
    image = _decoded(header, where)
    uri = _uri(image, str(image.format), data)
    budget.spend(0, len(uri), where)
    return uri


def image_info(data: bytes, where: str) -> tuple[int, int, str]:
    """A raster's width, height (pixels) and format, read from its header (see the glossary)."""
    image = _header(data, where, MAX_DECODE_PIXELS)
    return image.width, image.height, str(image.format)


def raster_dpi(data: bytes, where: str, width_mm: float, height_mm: float) -> tuple[float, str | None]:
    """The effective resolution of a raster printed ``width_mm`` by ``height_mm`` (the lower of the two axes),
    and a warning below ``PRINT_DPI``; below ``LEAST_DPI``, or too large to decode safely, one line."""
    width, height, _ = image_info(data, where)
    dpi = min(width / (width_mm / MM_PER_IN), height / (height_mm / MM_PER_IN))
    if dpi < LEAST_DPI:
        raise TrailwrightError(f"{dpi:.0f} dpi at {width_mm:g} x {height_mm:g} mm, at least {LEAST_DPI} needed", where)
    warning = (
        f"{where}: {dpi:.0f} dpi at {width_mm:g} x {height_mm:g} mm, {PRINT_DPI} wanted" if dpi < PRINT_DPI else None
    )
    return dpi, warning


def printed_raster(data: bytes, where: str, size_mm: tuple[float, float]) -> tuple[str, int, int, float, str | None]:
    """A raster ground, cover or landmark printed at ``size_mm``: its ``data:`` URI, size in pixels, effective dpi
    and a warning (below ``PRINT_DPI``, or downscaled from finer than ``KEEP_DPI``)."""
    from PIL import Image

    dpi, warning = raster_dpi(data, where, *size_mm)
    image = _header(data, where, MAX_DECODE_PIXELS)
    kind = str(image.format)
    if dpi > KEEP_DPI:
        scale = KEEP_DPI / dpi
        size = (max(1, round(image.width * scale)), max(1, round(image.height * scale)))
        if kind == "JPEG":
            image.draft("RGB", size)  # decoded at a fraction of the size where JPEG allows
        image = _decoded(image, where).resize(size, Image.Resampling.LANCZOS, reducing_gap=3.0)
        warning = f"{where}: {dpi:.0f} dpi at its printed size, downscaled to {size[0]} × {size[1]} px ({KEEP_DPI} dpi)"
        dpi, data = KEEP_DPI, b""
    else:
        image = _decoded(image, where)
    return _uri(image, kind, data or None), image.width, image.height, dpi, warning


def _bound_memory(more: int) -> None:  # pragma: no cover - runs in the child process
    """Let this process allocate at most ``more`` bytes beyond what it holds now (a MemoryError past it)."""
    import resource

    try:
        status = Path("/proc/self/status").read_text().splitlines()
        held = next(int(x.split()[1]) * 1024 for x in status if x.startswith("VmData:"))
        resource.setrlimit(resource.RLIMIT_DATA, (held + more, held + more))
    except (OSError, ValueError, StopIteration):  # not Linux: the time bound alone
        pass


def _draw(pieces: list[tuple[str, int, int]], say) -> None:  # pragma: no cover - runs in the child process
    """Draw each piece in turn, telling the parent after each: ``""`` when drawn, else why not."""
    from cairosvg.parser import Tree
    from cairosvg.surface import PNGSurface

    _bound_memory(DRAW_BYTES)
    for svg, width, height in pieces:
        try:  # drawn into cairo's memory, never encoded
            surface = PNGSurface(
                Tree(bytestring=svg.encode("utf-8")), io.BytesIO(), 96, output_width=width, output_height=height
            )
            surface.cairo.flush()
            surface.cairo.finish()
            say.send("")
        except BaseException as err:  # noqa: BLE001 - any failure of the drawing is the art's, told in one line
            say.send(f"{type(err).__name__}: {str(err).splitlines()[0][:80] if str(err) else '?'}")
    os._exit(0)


class ArtClock:
    """A run's drawing time against its budget (see ``run budget`` in the module glossary)."""

    def __init__(self, seconds: float):
        self.seconds, self.spent = seconds, 0.0
        self._lock = threading.Lock()

    def check(self, what: str) -> None:
        """One line when the run's drawing time is spent."""
        if self.spent >= self.seconds:
            raise TrailwrightError(
                f"the art has been drawing for {self.spent:.0f} s in all, its budget (art_seconds = "
                f"{self.seconds:g} in the settings): simplify the theme's art, or raise art_seconds",
                what,
            )

    def add(self, seconds: float) -> None:
        with self._lock:
            self.spent += seconds


_CLOCKS: list[ArtClock] = []  # the clock of the run drawing now (``art_budget``), if any


@contextmanager
def art_budget(seconds: float) -> Iterator[ArtClock]:
    """Count every drawing in this block against ``seconds`` (see ``run budget``)."""
    clock = ArtClock(seconds)
    _CLOCKS.append(clock)
    try:
        yield clock
    finally:
        _CLOCKS.remove(clock)


@contextmanager
def drawing(what: str) -> Iterator[None]:
    """A drawing of the kit by cairo (its pictures and PDFs): a failure there, at a scale the time-bound drawing did
    not meet (a theme's text or mask drawn far larger), is one line naming ``what`` is drawn, never a traceback; its
    time counts against the run's budget (``art_budget``)."""
    clock = _CLOCKS[-1] if _CLOCKS else None
    if clock is not None:
        clock.check(what)
    began = time.perf_counter()
    try:
        yield
    except TrailwrightError:
        raise
    except Exception as err:  # noqa: BLE001 - any failure of the drawing is the art's, told in one line
        why = str(err).splitlines()[0][:80] if str(err) else "?"
        raise TrailwrightError(f"the art cannot be drawn ({type(err).__name__}: {why})", what) from None
    finally:
        if clock is not None:
            clock.add(time.perf_counter() - began)


def bounded_draw(pieces: list[tuple[str, tuple[float, float, float, float], str]]) -> None:
    """Draw each piece (an SVG document, its viewBox, where an error names it) once, ``PROBE_PX`` across at its
    aspect, in one child process that has ``DRAW_SECONDS`` for each piece: a piece that takes longer, or that the
    drawing cannot finish, is one line naming it."""
    import multiprocessing

    import cairosvg  # noqa: F401 - imported once here, not in the child

    todo = {hashlib.sha256(svg.encode("utf-8")).hexdigest(): (svg, view, where) for svg, view, where in pieces}
    todo = {digest: piece for digest, piece in todo.items() if digest not in _DRAWN}
    if not todo or "fork" not in multiprocessing.get_all_start_methods():  # no fork: drawn where it is used
        return
    sizes = []
    for svg, view, _ in todo.values():
        scale = PROBE_PX / max(view[2], view[3])
        sizes.append((svg, max(1, round(view[2] * scale)), max(1, round(view[3] * scale))))
    context = multiprocessing.get_context("fork")
    hear, say = context.Pipe(duplex=False)
    child = context.Process(target=_draw, args=(sizes, say), daemon=True)
    with CAIRO_LOCK:  # no other thread is inside cairo while the child is forked
        child.start()
    say.close()  # the child's end only: a child that dies is an end of file here, not a wait
    try:
        for digest, (_, _, where) in todo.items():
            if not hear.poll(DRAW_SECONDS):
                raise TrailwrightError(f"drawing it takes longer than {DRAW_SECONDS:g} s: simplify the art", where)
            try:
                why = hear.recv()
            except EOFError:
                child.join()
                why = f"the drawing stopped with status {child.exitcode}"
            if why:
                raise TrailwrightError(f"the art cannot be drawn ({why})", where)
            _DRAWN.add(digest)
    finally:
        if child.is_alive():
            child.kill()
        child.join()
        hear.close()


__all__ = [
    "ArtClock",
    "CAIRO_LOCK",
    "KEEP_DPI",
    "LEAST_DPI",
    "MAX_DECODE_PIXELS",
    "MAX_FILE_BYTES",
    "MAX_INLINE_BYTES",
    "MAX_INLINE_PIXELS",
    "PictureBudget",
    "art_budget",
    "PRINT_DPI",
    "bounded_draw",
    "drawing",
    "folder_digest",
    "image_info",
    "inline_raster",
    "printed_raster",
    "raster_dpi",
    "regular_inside",
    "stays_inside",
    "theme_file",
]
