"""Booklet images encoded once per build: the trial layouts (``bookletkit.fewest_sheets``) draw the same thumbnails,
board and pictures, and reportlab would Flate-compress every one afresh in each PDF.

``EncodedImages`` keeps, per ImageReader, the name reportlab gives it and its image XObject as reportlab makes it
(never registered with a document); a booklet canvas (``encoding_canvas``) registers a copy of that object in its
own document just where reportlab would make one, so every PDF keeps the bytes it had.
"""

from __future__ import annotations

import copy
from typing import Any

from reportlab.lib.utils import ImageReader, _digester
from reportlab.pdfbase.pdfdoc import PDFImageXObject
from reportlab.pdfgen.canvas import Canvas


class EncodedImages:
    """Each image drawn in a build, keyed by identity: (the image, its XObject name, its unregistered XObject)."""

    def __init__(self) -> None:
        self._made: dict[int, tuple[ImageReader, str, PDFImageXObject]] = {}
        self.encoded = 0  # images compressed so far (each at most once)

    def get(self, image: ImageReader) -> tuple[str, PDFImageXObject]:
        """The image's name, as ``Canvas.drawImage`` digests it without a mask, and its XObject, made once."""
        found = self._made.get(id(image))
        if found is None:
            name = _digester(image.getRGBData() + b"None")  # drawImage's name for mask=None
            found = (image, name, PDFImageXObject(name, image, mask=None))
            self._made[id(image)] = found  # holds the image, so its id is never reused within the build
            self.encoded += 1
        return found[1], found[2]


def encoding_canvas(base: type[Canvas], images: EncodedImages) -> type[Canvas]:
    """``base`` drawing an ImageReader without a mask from ``images``: the XObject it registers is a copy of the one
    made for the build, so only the first PDF of a build compresses the image."""

    class EncodingCanvas(base):
        def drawImage(self, image: Any, x: float, y: float, width=None, height=None, mask=None, **kw: Any) -> Any:
            if isinstance(image, ImageReader) and mask is None:
                name, made = images.get(image)
                reg_name = self._doc.getXObjectName(name)
                if reg_name not in self._doc.idToObject:  # as drawImage registers an image it has not seen
                    obj = copy.copy(made)
                    self._setXObjects(obj)
                    self._doc.Reference(obj, reg_name)
                    self._doc.addForm(name, obj)
            return super().drawImage(image, x, y, width, height, mask, **kw)

    return EncodingCanvas
