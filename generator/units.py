"""Units, stated once: the core works in millimetres; points and inches are converted at the edges."""

from dataclasses import dataclass

MM_PER_IN = 25.4
PT_PER_IN = 72.0
MM_PER_PT = MM_PER_IN / PT_PER_IN  # a PostScript point, 1/72 in
PT_PER_MM = PT_PER_IN / MM_PER_IN
MM_PER_PX = MM_PER_IN / 96.0  # a CSS pixel, 1/96 in (an SVG length without a unit)


@dataclass(frozen=True)
class Numbers:
    """How a language writes numbers: its decimal mark, thousands separator and percent pattern (English by
    default: 1,234.5 and 12.5%; French: 1 234,5 and 12,5 %)."""

    decimal: str = "."
    group: str = ","
    percent_pattern: str = "{}%"

    def _local(self, text: str) -> str:
        return text.replace(",", "\0").replace(".", self.decimal).replace("\0", self.group)

    def number(self, x: float, places: int = 0) -> str:
        """``x`` with ``places`` decimals and grouped thousands: (12345.678, 1) -> "12,345.7" in English."""
        return self._local(f"{x:,.{places}f}")

    def short(self, x: float) -> str:
        """``x`` in the fewest digits (Python's ``g``): 12.0 -> "12", 12.5 -> "12.5" in English."""
        return self._local(f"{x:g}")

    def percent(self, share: float, places: int = 0) -> str:
        """``share`` (0.125) as a percentage with ``places`` decimals: "12.5%" in English, "12,5 %" in French."""
        return self.percent_pattern.format(self._local(f"{share:,.{places}%}")[:-1])


ENGLISH = Numbers()
