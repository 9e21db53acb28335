"""The scripts and stylesheets of the servers' pages, served as files of their own so that a page's
Content-Security-Policy allows no inline script (``generator.web.guard``).

Glossary
--------
asset route  ``/static/{package}/{name}``: one file of a package's allow-list, nothing else; its address carries the
             package version, so a browser may keep it a day.
"""

from __future__ import annotations

from importlib import resources

from generator import __version__

TYPES = {".js": "text/javascript; charset=utf-8", ".css": "text/css; charset=utf-8"}


def asset_url(package: str, name: str) -> str:
    """A page's address for the asset ``name`` of ``package`` (``host``, ``studio`` or ``table``)."""
    return f"/static/{package}/{name}?v={__version__}"


def script(package: str, name: str) -> str:
    """A page's ``<script>`` element for an asset."""
    return f'<script src="{asset_url(package, name)}"></script>'


def stylesheet(package: str, name: str) -> str:
    """A page's ``<link>`` element for a stylesheet asset."""
    return f'<link rel="stylesheet" href="{asset_url(package, name)}">'


def asset_route(allowed: dict[str, tuple[str, str, tuple[str, ...]]]):
    """The Starlette route serving ``allowed``: a package's name to its module, the folder in it and its files."""
    from starlette.requests import Request
    from starlette.responses import Response
    from starlette.routing import Route

    from generator.web.guard import error_response

    async def asset(request: Request) -> Response:
        package, name = request.path_params["package"], request.path_params["name"]
        found = allowed.get(package)
        if found is None or name not in found[2]:
            return error_response(404, "no such file")
        module, folder, _ = found
        text = resources.files(module).joinpath(folder, name).read_text(encoding="utf-8")
        suffix = name[name.rfind(".") :]
        return Response(text, media_type=TYPES[suffix], headers={"Cache-Control": "public, max-age=86400"})

    return Route("/static/{package}/{name:path}", asset)
