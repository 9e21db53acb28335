# Trailwright: `make print` builds the print-and-play kit, `make test` runs the tests.
# The Makefile makes its own virtual environment in .venv/ and installs what it needs.

PYTHON ?= python3
VENV   := .venv
PY     := $(VENV)/bin/python
STAMP  := $(VENV)/.installed-stamp
TW     := $(VENV)/bin/trailwright
SEED   ?= 1
TIME   ?= 60
# the tile set make optimize writes and make print uses: output/tileset.json, or output/tileset-NAME.json with BOARD=NAME
# (a board's own, so a kit never picks up another board's tile set)
DEFAULT_TILESET := $(if $(BOARD),output/tileset-$(notdir $(basename $(BOARD))).json,output/tileset.json)
TILESET ?= $(DEFAULT_TILESET)
# make print options, each passed on only when set: BOARD=name|file STYLE=file THEME=river|folder PAPER=a4|letter (one paper)
# TITLE="Game name" SETTINGS=file ONLY=sheets,booklet SKIP=manufacturer FOR=factory (adds output/factory/)
BOARD   ?=
STYLE   ?=
THEME   ?=
PAPER   ?=
TITLE   ?=
SETTINGS ?=
ONLY    ?=
SKIP    ?=
FOR     ?=
BOARD_ARG := $(if $(BOARD),--board "$(BOARD)")
# a built-in board's own objective (examples/objective-NAME.toml: the article's weights and, where the static
# optimum plays long, a [play] limit on unfinished games), unless OBJECTIVE names one
BOARD_OBJECTIVE := $(wildcard examples/objective-$(notdir $(basename $(BOARD))).toml)
OBJECTIVE ?= $(if $(BOARD),$(BOARD_OBJECTIVE))
OBJECTIVE_ARG := $(if $(OBJECTIVE),--objective "$(OBJECTIVE)")
# ... and its example set as the start, where the board has an objective of its own: a play target searched from a
# random jungle set in 60 s still left 38 % of games unfinished; from the example, which ends, the search keeps it so
BOARD_INIT := $(if $(BOARD_OBJECTIVE),$(wildcard examples/optimized-$(notdir $(basename $(BOARD))).json))
INIT_ARG := $(if $(and $(BOARD),$(filter $(OBJECTIVE),$(BOARD_OBJECTIVE)),$(BOARD_INIT)),--init "$(BOARD_INIT)")
PUBLISH_ARGS := $(BOARD_ARG) $(if $(STYLE),--style "$(STYLE)") $(if $(THEME),--theme "$(THEME)") $(if $(PAPER),--paper "$(PAPER)") \
	$(if $(TITLE),--title "$(TITLE)") $(if $(SETTINGS),--settings "$(SETTINGS)") $(if $(ONLY),--only "$(ONLY)") \
	$(if $(SKIP),--skip "$(SKIP)") $(if $(FOR),--for "$(FOR)")

.PHONY: install sysdeps test test-heavy test-fast bench bench-smoke lint docs lock optimize render print clean distclean wheel-smoke

# Installs are locked: requirements.lock pins every package (runtime and tests) with its hashes, and
# requirements-dev.lock adds the linters and the docs site on the same pins. uv (itself pinned) installs
# them into .venv/ and `make lock` recompiles both. The install byte-compiles no package (every one's would cost some
# 18 s of CPU, a third of it on packages' own tests and on tools nothing imports): python -m generator.warmup does,
# for what a run imports and, with --with test, what the tests import (each pytest worker compiled it again: 4 s).
LOCK    := requirements.lock
DEVLOCK := requirements-dev.lock
DEVSTAMP := $(VENV)/.dev-stamp
UV_VERSION := 0.13.9
UV      := $(VENV)/bin/uv
INSTALL := $(UV) pip install --quiet --python $(PY)
COMPILE := $(UV) pip compile --quiet --generate-hashes --python-version 3.11

install: $(STAMP)

# System packages some stages and tests use: ghostscript and qpdf (PDF/X for factories), poppler-utils
# (pdftoppm), icc-profiles-free (CMYK press profiles), chromium and its driver (the browser play table).
# Installed with apt-get when missing and run as root; otherwise the tests that need them skip and say so.
SYSDEPS := ghostscript qpdf poppler-utils icc-profiles-free chromium chromium-driver fonts-droid-fallback
sysdeps:
	@missing=$$(for p in $(SYSDEPS); do dpkg -s $$p >/dev/null 2>&1 || echo $$p; done); \
	if [ -z "$$missing" ]; then exit 0; fi; \
	if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null; then \
	  echo "installing system packages: $$missing"; \
	  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $$missing >/dev/null; \
	else echo "make sysdeps: missing $$missing; install them with: sudo apt-get install $$missing (tests that need them will skip)"; fi

# The install ends by compiling the bytecode of what a run imports and every kernel a first `make print` uses
# (python -m generator.warmup: in parallel over the cores); the kernels go into the user's cache folder, one per
# version, which every checkout and install of it shares.
# The venv gets no pip of its own (ensurepip costs some 5 s of CPU): the system's pip installs uv into it, or, where
# that pip is missing or too old for --python, the venv's own, bootstrapped then.
$(STAMP): pyproject.toml $(LOCK)
	@test -x $(PY) || $(PYTHON) -m venv --without-pip $(VENV)
	@test -x $(UV) || $(PYTHON) -m pip --python $(PY) install --quiet --disable-pip-version-check uv==$(UV_VERSION) 2>/dev/null \
	  || { $(PY) -m ensurepip --default-pip >/dev/null && $(PY) -m pip install --quiet --disable-pip-version-check uv==$(UV_VERSION); }
	$(INSTALL) --require-hashes -r $(LOCK)
	$(INSTALL) --no-deps -e .
	@$(PY) -m generator.warmup --with test
	@touch $(STAMP)

$(DEVSTAMP): $(STAMP) $(DEVLOCK)
	$(INSTALL) --compile-bytecode --require-hashes -r $(DEVLOCK)
	@touch $(DEVSTAMP)

# ruff (lint and format) and mypy, configured in pyproject.toml
lint: $(DEVSTAMP)
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .
	$(VENV)/bin/mypy

# the docs site (MkDocs, Material theme) from docs/ into site/; --strict fails on a broken link or a missing page
docs: $(DEVSTAMP)
	NO_MKDOCS_2_WARNING=1 $(VENV)/bin/mkdocs build --strict --site-dir site

# new pins for everything pyproject.toml allows, then a fresh install from them and the tests on it
lock: $(STAMP)
	$(COMPILE) --upgrade --extra test -o $(LOCK) pyproject.toml
	$(COMPILE) --upgrade --extra test --extra dev -c $(LOCK) -o $(DEVLOCK) pyproject.toml
	rm -rf $(VENV)
	$(MAKE) lint test

# on every core this process may use, and one worker more (pytest-xdist; a worker steals tests from a busy one): the
# browser, server and subprocess tests wait on other processes for a sixth of their time (about 85 s of a 2-core
# run), and the extra worker runs tests meanwhile (2 cores: 309 s with two workers, 285 s with three)
TEST_WORKERS ?= $(shell echo $$(( $$(nproc 2>/dev/null || getconf _NPROCESSORS_ONLN) + 1 )))
test: $(STAMP)
	$(PY) -m pytest -q -n $(TEST_WORKERS) --dist worksteal -m "not heavy"

# the heavy tests: first starts from an empty kernel cache, exhaustive drawing searches, timed whole runs
test-heavy: $(STAMP)
	$(PY) -m pytest -q -m heavy

# the wheel, built and installed from the lock file into a fresh virtual environment outside the source tree, runs
# score, render, publish and check there: the package data travels (templates, themes, boards, static files)
wheel-smoke: $(STAMP)
	.ci/wheel-smoke $(UV)

test-fast: $(STAMP)
	$(PY) -m pytest -q -n $(TEST_WORKERS) --dist worksteal -m "not slow and not heavy"

bench: $(STAMP)
	$(PY) -m benchmarks

# every benchmark end to end at its smallest size (each module's SMOKE options; seconds each, a few minutes in all):
# one that no longer runs fails it, a target missed at this size does not. CI runs it.
bench-smoke: $(STAMP)
	$(PY) -m benchmarks --smoke

optimize: $(STAMP)
	$(TW) optimize $(BOARD_ARG) $(OBJECTIVE_ARG) $(INIT_ARG) --time $(TIME) --seed $(SEED) --out $(TILESET)

render: $(STAMP)
	$(TW) render $(TILESET) --out output/tiles

# make print [TILESET=path] [SEED=1] [TIME=60] [BOARD= STYLE= PAPER= TITLE= SETTINGS= ONLY= SKIP=]: optimize a tile set unless one exists (or is named),
# then publish the whole kit into output/ (tile SVGs in output/tiles/ included, each side drawn once), list
# where each file is, and preflight it with trailwright check. With BOARD=NAME the tile set is the board's own,
# output/tileset-NAME.json, optimized as the classic one is; TILESET=examples/optimized-NAME.json prints an
# example board's example set instead (docs/geometry.md).
print: $(STAMP)
	@if [ ! -f "$(TILESET)" ]; then \
	  if [ "$(TILESET)" != "$(DEFAULT_TILESET)" ]; then echo "make print: no tile set at $(TILESET)" >&2; exit 2; fi; \
	  echo "make print: optimizing a tile set ($(TIME) s, seed $(SEED)) into $(TILESET)"; \
	  $(TW) optimize $(BOARD_ARG) $(OBJECTIVE_ARG) $(INIT_ARG) --time $(TIME) --seed $(SEED) --out $(TILESET) || exit $$?; \
	fi
	$(TW) publish $(TILESET) $(PUBLISH_ARGS) --out output
	@if [ "$(TILESET)" != "$(DEFAULT_TILESET)" ] && [ -f $(DEFAULT_TILESET) ]; then \
	  echo "make print: note: $(DEFAULT_TILESET) is an earlier tile set, not this kit's ($(TILESET)); output/kit.json names the kit's"; fi
	$(TW) check output

clean:
	rm -rf output/* .pytest_cache
	@touch output/.gitkeep

distclean: clean
	rm -rf $(VENV) *.egg-info site
