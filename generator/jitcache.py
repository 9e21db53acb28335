"""One numba disk cache for every checkout and install of a Trailwright version.

numba caches a compiled function beside its source (the checkout's ``__pycache__``), or under
``NUMBA_CACHE_DIR`` in a folder named after a hash of the source's absolute path: either way a fresh
clone, a second worktree or a wheel install starts cold and compiles every kernel again (a minute or
more on two cores). Here the kernels are cached in one folder per version,
``user_cache_dir("trailwright")/numba/<version>`` (the user's ``NUMBA_CACHE_DIR`` instead, when set), laid out
by module and stamp: ``generator/scoring/kernel-<stamp>/kernel.<function>-<line>.py311.nbi``.

The stamp is a hash of the module's source and of the ``generator`` modules it imports, following the
imports on through other kernel modules. numba's own stamp covers the module alone, so a shared cache
would hand ``kernel.py``'s code, compiled with another checkout's edited ``layouts.py`` inlined, to every
checkout whose ``kernel.py`` is the same. Code compiled from other sources is never loaded; a new
stamp is a new folder, so checkouts that differ do not overwrite each other's kernels.

``configure`` (called by ``generator/__init__.py``, before anything imports numba) sets
``NUMBA_CACHE_DIR`` unless the user has: a spawned Dask worker inherits it. Every kernel module takes
``njit`` from here, which registers the locator before numba's decorator runs.
"""

from __future__ import annotations

import ast
import functools
import hashlib
import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

ENV = "NUMBA_CACHE_DIR"
PACKAGE = "generator"
_ROOT = Path(__file__).resolve().parent.parent  # the folder that holds the ``generator`` package


def default_root(version: str) -> Path:
    """The cache folder for ``version`` when the user names none: under the user's cache folder."""
    from platformdirs import user_cache_dir

    return Path(user_cache_dir("trailwright")) / "numba" / version


def configure() -> None:
    """Set ``NUMBA_CACHE_DIR`` to this version's folder unless the user has set it (child processes inherit it)."""
    if not os.environ.get(ENV):
        from generator import __version__

        os.environ[ENV] = str(default_root(__version__))


def cache_root() -> Path:
    """The folder every kernel of this process is cached under."""
    configure()
    return Path(os.environ[ENV])


def _module_file(name: str, root: Path) -> Path | None:
    """The source of module ``name`` (a module or a package) under ``root``, if there."""
    base = root.joinpath(*name.split("."))
    for path in (base.with_suffix(".py"), base / "__init__.py"):
        if path.is_file():
            return path
    return None


@functools.cache
def _imports(path: Path, module: str, root: Path) -> tuple[Path, ...]:
    """The ``generator`` modules ``path`` (module ``module``) imports, as files (each file parsed once a process)."""
    return tuple(_each_import(path, module, root))


def _each_import(path: Path, module: str, root: Path) -> Iterator[Path]:
    """``_imports`` one by one: ``from a import b`` yields ``a`` and, when ``b`` is a module, ``a.b`` too."""
    package = module.rsplit(".", 1)[0] if path.name != "__init__.py" else module
    for node in _statements(ast.parse(path.read_bytes(), str(path)).body):
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parts = package.split(".")
                base = ".".join(parts[: len(parts) - node.level + 1] + ([base] if base else []))
            names = [base] + [f"{base}.{alias.name}" for alias in node.names]
        else:
            continue
        for name in names:
            if name == __name__:  # this module compiles nothing into a kernel: editing it recompiles none
                continue
            if name == PACKAGE or name.startswith(PACKAGE + "."):
                found = _module_file(name, root)
                if found is not None:
                    yield found


def _statements(body: list[ast.stmt]) -> Iterator[ast.stmt]:
    """A module's statements at its top level and in its top-level ``if``, ``try`` and ``with`` blocks (where its
    module-level imports are; a compiled function imports nothing)."""
    for node in body:
        yield node
        for block in ("body", "orelse", "finalbody"):
            if isinstance(node, ast.If | ast.Try | ast.With) and hasattr(node, block):
                yield from _statements(getattr(node, block))
        for handler in getattr(node, "handlers", []):
            yield from _statements(handler.body)


@functools.cache
def _is_kernel_module(path: Path) -> bool:
    return b"@njit" in path.read_bytes()


def sources(path: Path, module: str, root: Path = _ROOT) -> list[Path]:
    """The files a kernel module's compiled code may depend on: itself and the ``generator`` modules it imports,
    followed on through the kernel modules among them (their inlined functions and constants are compiled in)."""
    seen: dict[Path, None] = {path: None}
    todo = [(path, module)]
    while todo:
        current, name = todo.pop()
        for found in _imports(current, name, root):
            if found in seen:
                continue
            seen[found] = None
            if _is_kernel_module(found):
                relative = found.relative_to(root).with_suffix("")
                parts = relative.parts[:-1] if relative.name == "__init__" else relative.parts
                todo.append((found, ".".join(parts)))
    return sorted(seen)


@functools.cache
def stamp(path: str, module: str, root: str = str(_ROOT)) -> str:
    """A hash of the sources a kernel module depends on (``sources``): the same text gives the same stamp in
    every checkout."""
    digest = hashlib.sha256()
    for source in sources(Path(path), module, Path(root)):
        digest.update(source.relative_to(root).as_posix().encode() + b"\0")
        digest.update(hashlib.sha256(source.read_bytes()).digest())
    return digest.hexdigest()[:20]


def _module_root(py_file: str, module: str) -> Path | None:
    """The folder that holds the top package of ``module`` defined in ``py_file`` (None: not laid out so)."""
    path = Path(py_file).resolve()
    depth = module.count(".") + (1 if path.name == "__init__.py" else 0)
    root = path.parents[depth]
    return root if root.joinpath(*module.split(".")).with_suffix(".py") == path else None


@functools.cache
def locator_class() -> type | None:
    """numba's cache locator for the kernels of ``generator``, or None where this numba's caching is laid out
    otherwise (the kernels are then cached as numba does by default)."""
    from numba.core import caching

    base = getattr(caching, "_CacheLocator", None)
    impl = getattr(caching, "CacheImpl", None) or getattr(caching, "_CacheImpl", None)
    if base is None or impl is None or not isinstance(getattr(impl, "_locator_classes", None), list):
        return None

    class SharedLocator(base):  # type: ignore[misc, valid-type]
        """Caches a ``generator`` function under ``cache_root()/<package path>/<module>-<stamp>``."""

        def __init__(self, py_func, py_file: str, root: Path):
            module = py_func.__module__
            self._lineno = py_func.__code__.co_firstlineno
            self._stamp = stamp(str(Path(py_file).resolve()), module, str(root))
            *package, name = module.split(".")
            self._cache_path = str(cache_root().joinpath(*package, f"{name}-{self._stamp}"))

        def get_cache_path(self) -> str:
            return self._cache_path

        def get_source_stamp(self) -> str:
            return self._stamp

        def get_disambiguator(self) -> str:
            return str(self._lineno)

        @classmethod
        def from_function(cls, py_func, py_file):
            module = getattr(py_func, "__module__", None) or ""
            if not module.startswith(PACKAGE + ".") or not os.path.isfile(py_file):
                return None
            root = _module_root(py_file, module)
            if root is None:
                return None
            self = cls(py_func, py_file, root)
            try:
                self.ensure_cache_path()
            except OSError:  # not writable: numba's own locators decide
                return None
            return self

    impl._locator_classes.insert(0, SharedLocator)
    return SharedLocator


def njit(*args: Any, **options: Any) -> Any:
    """numba's ``njit``, with this module's locator registered first (use it for every kernel of ``generator``)."""
    from numba import njit as numba_njit

    locator_class()
    return numba_njit(*args, **options)


def index_path(dispatcher: Any) -> Path | None:
    """The index file numba reads ``dispatcher``'s cached code from (None: not cached to disk)."""
    cache = getattr(dispatcher, "_cache", None)
    path, impl = getattr(cache, "_cache_path", None), getattr(cache, "_impl", None)
    base = getattr(impl, "filename_base", None)
    return Path(path) / f"{base}.nbi" if path and base else None


def is_cold(dispatcher: Any) -> bool:
    """Whether calling ``dispatcher`` will compile it: no index of its compiled code for these sources."""
    path = index_path(dispatcher)
    return path is not None and not path.is_file()
