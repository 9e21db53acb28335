"""The studio: a designer edits a project's tile set in the browser and sees the score and the game change with
every edit. ``session`` is the core (edits, figures, saves); ``server`` the Starlette app behind the web guard
the game server also uses. See docs/studio.md."""
