"""Units, stated once: the core works in millimetres; points and inches are converted at the edges."""

MM_PER_IN = 25.4
PT_PER_IN = 72.0
MM_PER_PT = MM_PER_IN / PT_PER_IN  # a PostScript point, 1/72 in
PT_PER_MM = PT_PER_IN / MM_PER_IN
MM_PER_PX = MM_PER_IN / 96.0  # a CSS pixel, 1/96 in (an SVG length without a unit)
