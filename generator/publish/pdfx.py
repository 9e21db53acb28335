"""PDF/X through ghostscript: an RGB PDF converted to CMYK, with an OutputIntent and the PDF/X keys.

Why ghostscript: no maintained Python library converts vector PDF colour to CMYK through an ICC
profile; ghostscript's ``pdfwrite`` does, keeps Separation (spot) colours such as CutContour, embeds
every font and writes the OutputIntent. Debian's ghostscript 10.0 writes PDF/X-3:2002 (``-dPDFX``);
PDF/X-4 needs a later ghostscript. The press profile is ghostscript's own CMYK profile (Artifex's
SWOP characterisation, CGATS TR 001): Debian's icc-profiles-free ships no CMYK ``.icc`` file, only
FOGRA measurement data.

Glossary
--------
OutputIntent   the catalog entry naming the press condition the CMYK numbers are meant for,
               with its ICC profile embedded (``/DestOutputProfile``).
press profile  that ICC profile on disk, and the names the OutputIntent gives it.
"""

from __future__ import annotations

import glob
import hashlib
import re
import shutil
import subprocess
import tempfile
from dataclasses import dataclass
from pathlib import Path

from generator.errors import TrailwrightError

PDFX_VERSION = "PDF/X-3:2002"
INSTALL = "install it with `make sysdeps` (or: sudo apt-get install ghostscript)"
FIXED_EPOCH = "315532800"  # 1980-01-01: PDF/X needs dates; the same date every run keeps the bytes
_PROFILE_GLOBS = (
    "/usr/share/color/icc/ghostscript/default_cmyk.icc",
    "/usr/share/ghostscript/*/iccprofiles/default_cmyk.icc",
)


@dataclass(frozen=True)
class PressProfile:
    """A CMYK ICC profile and the names an OutputIntent gives it."""

    path: Path
    condition: str = "SWOP (Artifex CMYK SWOP Profile, ghostscript)"
    identifier: str = "CGATS TR 001"
    registry: str = "http://www.color.org"


def ghostscript() -> str:
    """The ghostscript command, or an error saying how to install it."""
    found = shutil.which("gs")
    if not found:
        raise TrailwrightError(f"factory files need ghostscript (gs), which is not installed: {INSTALL}")
    return found


def press_profile() -> PressProfile:
    """Ghostscript's own CMYK profile, wherever this system keeps it."""
    for pattern in _PROFILE_GLOBS:
        for path in sorted(glob.glob(pattern)):
            return PressProfile(Path(path))
    raise TrailwrightError(f"no CMYK ICC profile found (looked for {', '.join(_PROFILE_GLOBS)}): {INSTALL}")


def _ps_string(text: str) -> str:
    return "(" + text.replace("\\", "\\\\").replace("(", "\\(").replace(")", "\\)") + ")"


def pdfx_def(profile: PressProfile, title: str) -> str:
    """The PostScript prologue (after ghostscript's PDFX_def.ps) that sets the PDF/X keys and OutputIntent."""
    return f"""[ /GTS_PDFXVersion {_ps_string(PDFX_VERSION)} /Title {_ps_string(title)} /Trapped /False /DOCINFO pdfmark
[/_objdef {{icc_PDFX}} /type /stream /OBJ pdfmark
[{{icc_PDFX}} << /N 4 >> /PUT pdfmark
[{{icc_PDFX}} {_ps_string(str(profile.path))} (r) file /PUT pdfmark
[/_objdef {{OutputIntent_PDFX}} /type /dict /OBJ pdfmark
[{{OutputIntent_PDFX}} << /Type /OutputIntent /S /GTS_PDFX /OutputCondition {_ps_string(profile.condition)}
  /Info {_ps_string(profile.condition)} /OutputConditionIdentifier {_ps_string(profile.identifier)}
  /RegistryName {_ps_string(profile.registry)} /DestOutputProfile {{icc_PDFX}} >> /PUT pdfmark
[{{Catalog}} << /OutputIntents [ {{OutputIntent_PDFX}} ] >> /PUT pdfmark
"""


def fixed_id(pdf: bytes) -> bytes:
    """The trailer's ``/ID`` (ghostscript seeds it with the time) replaced by a digest of the rest."""
    pattern = re.compile(rb"/ID\s*\[\s*<([0-9A-Fa-f]+)>\s*<([0-9A-Fa-f]+)>\s*\]")
    matches = list(pattern.finditer(pdf))
    if not matches:
        return pdf
    blank = pattern.sub(b"/ID[]", pdf)
    out = pdf
    for m in reversed(matches):
        digest = hashlib.md5(blank).hexdigest().upper().encode()[: len(m.group(1))]
        out = out[: m.start(1)] + digest + out[m.end(1) : m.start(2)] + digest + out[m.end(2) :]
    return out


def to_pdfx(pdf: bytes, title: str, profile: PressProfile | None = None) -> bytes:
    """``pdf`` converted to CMYK PDF/X (spot colours kept, fonts embedded), the same bytes every run."""
    gs = ghostscript()
    profile = profile or press_profile()
    with tempfile.TemporaryDirectory(prefix="trailwright-pdfx-") as tmp:
        folder = Path(tmp)
        (folder / "in.pdf").write_bytes(pdf)
        (folder / "pdfx.ps").write_text(pdfx_def(profile, title), encoding="utf-8")
        command = [
            gs,
            "-q",
            "-dBATCH",
            "-dNOPAUSE",
            "-dSAFER",
            f"--permit-file-read={profile.path}",
            "-dPDFX=true",
            "-sDEVICE=pdfwrite",
            "-sColorConversionStrategy=CMYK",
            "-sProcessColorModel=DeviceCMYK",
            f"-sOutputICCProfile={profile.path}",
            "-dEmbedAllFonts=true",
            "-dSubsetFonts=true",
            "-dAutoRotatePages=/None",
            "-dPDFSETTINGS=/prepress",
            "-o",
            "out.pdf",
            "pdfx.ps",
            "in.pdf",
        ]  # relative: the random folder's name never reaches gs
        env = {"PATH": "/usr/bin:/bin", "SOURCE_DATE_EPOCH": FIXED_EPOCH}
        done = subprocess.run(command, capture_output=True, text=True, env=env, timeout=600, cwd=folder)
        if done.returncode != 0 or not (folder / "out.pdf").is_file():
            detail = " ".join((done.stderr or done.stdout).split())[:300]
            raise TrailwrightError(f"ghostscript could not make the PDF/X file {title!r}: {detail}")
        return fixed_id((folder / "out.pdf").read_bytes())
