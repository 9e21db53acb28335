"""The studio's two refusals, which its server turns into 4xx answers."""


class EditError(ValueError):
    """An edit or a request the studio refuses (one line): a 400."""


class Conflict(Exception):
    """A file on disk changed since the studio read it, or a change needs the designer's yes: a 409."""
