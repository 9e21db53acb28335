"""User-facing errors: one line naming the file, the item and the problem."""


class TrailwrightError(Exception):
    """A problem with the user's input or settings; the CLI prints it and exits with status 2."""

    def __init__(self, message: str, source: str | None = None):
        self.source = source
        super().__init__(f"{source}: {message}" if source else message)

    def within(self, source: str) -> "TrailwrightError":
        """The same error, prefixed with the file it came from (unless it already names one)."""
        return self if self.source else TrailwrightError(str(self), source)

    def under(self, flag: str) -> "TrailwrightError":
        """The same error, naming the command-line flag whose value it is about, unless it names a file already
        (a file's path is what the user typed after the flag)."""
        return self if self.source else TrailwrightError(str(self), flag)


def shown(value: object, limit: int = 40) -> str:
    """A value a client sent, quoted in a refusal as the client wrote it (JSON: ``true``, ``"0"``, ``{"a": 1}``, not
    Python's ``True`` or ``'0'``), cut to ``limit`` characters."""
    import json

    try:
        text = json.dumps(value, ensure_ascii=True, default=lambda v: "?")
    except (ValueError, RecursionError):
        text = "that"
    return text if len(text) <= limit else text[: limit - 3] + "..."
