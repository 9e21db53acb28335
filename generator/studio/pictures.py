"""The studio's pictures: a side as the renderer draws it, a maze of the edited set, the board draft and the
published kit's files, each drawn in a worker thread (``App.worked``) once the token is checked."""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING

from starlette.requests import Request
from starlette.responses import FileResponse, Response

from generator.errors import TrailwrightError
from generator.studio.errors import EditError
from generator.studio.publishing import KIT, PAGES, served
from generator.web.guard import error_response

if TYPE_CHECKING:
    from generator.render.style import Style
    from generator.studio.boards import BoardDraft
    from generator.studio.search import Search
    from generator.studio.session import Studio

Picture = Response | Callable[[], Response]  # a refusal, or the drawing to do in a worker thread


class Pictures:
    """The picture routes of the studio's ``App`` (which holds the project, its search and its board draft)."""

    studio: Studio
    search: Search
    draft: BoardDraft

    @property
    def style(self) -> Style:
        raise NotImplementedError

    def allowed(self, request: Request) -> bool:
        raise NotImplementedError

    async def worked(self, work: Callable[[], Response]) -> Response:
        raise NotImplementedError

    def side_svg(self, tile: str, face: str, of: str | None, key: str | None) -> Picture:
        """A side as the renderer draws it: the edited set's, or (``of=offer``) the search result's. A label with no
        room on the side (a long id on a busy side) is left off the picture, and the ``X-Trailwright-Problem``
        header says why (publishing refuses it)."""
        from generator.render.tiles import render_side

        try:  # a tile by its place in the set (the page's pictures); ids are for the JSON calls
            index = self.studio.where(int(tile), face)[0]
        except (ValueError, EditError):
            return error_response(404, "no such side")
        offered = self.search.offered() if of == "offer" else None
        if of == "offer" and offered is None:
            return error_response(404, "no search result")
        side = (offered or self.studio.current).tiles[index]
        drawn = [side.id, [list(t) for t in side.face(face).trails]]
        keyed = key == json.dumps(drawn, separators=(",", ":"), ensure_ascii=False)
        # an address naming the side's trails always shows that picture: the browser may keep it
        cache = "private, max-age=86400" if keyed else "no-store"
        style = self.style

        def draw() -> Response:
            headers = {"Cache-Control": cache}
            try:
                svg = render_side(side, face, style, bleed_mm=0.0)
            except TrailwrightError:
                svg = render_side(side, face, style, bleed_mm=0.0, label=False)
                shown = side.id if len(side.id) <= 40 else side.id[:40] + "..."
                problem = f"no room for the label of tile {shown} {face}: drawn without it (publishing refuses it)"
                headers["X-Trailwright-Problem"] = problem.encode("ascii", "replace").decode()
            return Response(svg, media_type="image/svg+xml", headers=headers)

        return draw

    def maze_svg(self, seed: str) -> Picture:
        """A random layout of the edited set (the ``preview`` picture, of any geometry's tiles)."""
        from generator.render import render_sheet

        if not (seed.isascii() and seed.isdigit()) or int(seed) >= 2**32:  # "²" is a digit to str.isdigit
            return error_response(400, "seed: a whole number from 0 to 2**32 - 1")
        tiles, board, style = self.studio.current, self.studio.board, self.style
        return lambda: Response(
            render_sheet(tiles, board, style, int(seed), 1, highlight=True),
            media_type="image/svg+xml",
            headers={"Cache-Control": "no-store"},
        )

    def board_svg(self) -> Picture:
        """The board draft as ``trailwright render`` draws it (422 while the loader refuses it)."""
        from generator.render.board import render_board

        try:
            board = self.draft.check()
        except TrailwrightError as err:
            return error_response(422, str(err))
        style = self.style
        return lambda: Response(
            render_board(board, style), media_type="image/svg+xml", headers={"Cache-Control": "no-store"}
        )

    def kit_file(self, path: str, name: str) -> Response:
        """A file of the published kit, or a page picture; nothing outside them."""
        found = served(self.studio.folder, KIT if path.startswith("/kit/") else PAGES, name)
        if found is None:
            return error_response(404, "no such file in the kit")
        return FileResponse(found, headers={"Cache-Control": "no-store", "X-Content-Type-Options": "nosniff"})

    def picture(self, make: Callable[[Request], Picture]) -> Callable[[Request], Awaitable[Response]]:
        """A GET route answered by ``make(request)`` once the token is checked: a refusal, or the drawing, done in a
        worker thread (``worked``) from what ``make`` read of the project."""

        async def answer(request: Request) -> Response:
            if not self.allowed(request):
                return error_response(403, "the studio needs its session token")
            made = make(request)
            if isinstance(made, Response):
                return made

            def draw() -> Response:
                try:
                    return made()
                except TrailwrightError as err:
                    return error_response(422, str(err))

            return await self.worked(draw)

        return answer
