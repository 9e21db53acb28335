"""Booklet templates run sandboxed, and publish uses the package's own templates unless --templates
names a folder: a ./templates folder in the current directory is never picked up."""

import shutil

import pytest

from generator.cli import main
from generator.publish.booklet import TEMPLATES, render_markup
from generator.publish.bookletkit import booklet_context
from generator.publish.settings import load_settings
from tests.test_publish_standin import ROOT, standin_sources

TILESET = str(ROOT / "examples" / "random-20.json")
HOSTILE = [
    "{{ ''.__class__.__mro__ }}",
    "{{ ().__class__.__base__.__subclasses__() }}",
    "{{ cycler.__init__.__globals__.os.system('echo pwned > PWNED') }}",
    "{{ lipsum.__globals__['os'].system('echo pwned > PWNED') }}",
    "{{ self._TemplateReference__context }}",
    "{{ figures.items.__self__ }}",
    "{{ 'x' * 10**12 }}",
    "{% for i in range(10**9) %}{% endfor %}",
]


@pytest.fixture
def templates(tmp_path):
    folder = tmp_path / "templates"
    shutil.copytree(TEMPLATES, folder)
    return folder


def _insert(path, index: int, text: str) -> int:
    """Insert ``text`` as line ``index`` (from 0); the line's number from 1."""
    lines = path.read_text().splitlines()
    lines.insert(index, text)
    path.write_text("\n".join(lines) + "\n")
    return index + 1


@pytest.mark.parametrize("hostile", HOSTILE)
def test_a_template_reaching_for_internals_is_one_line_naming_template_and_line(
    templates, hostile, tmp_path, monkeypatch
):
    monkeypatch.chdir(tmp_path)
    line = _insert(templates / "play.xml.j2", 3, hostile)
    context = booklet_context(standin_sources(templates), load_settings())
    with pytest.raises(Exception) as caught:
        render_markup(templates, context)
    message = str(caught.value)
    assert type(caught.value).__name__ == "TrailwrightError" and "\n" not in message
    assert message.startswith(f"{templates / 'play.xml.j2'}: template error at line {line}: ")
    assert not (tmp_path / "PWNED").exists()


def test_publish_refuses_a_sandbox_escape_with_exit_2_and_writes_nothing(templates, tmp_path, capsys, monkeypatch):
    import generator.cli.publish as cli

    monkeypatch.setattr(
        cli,
        "make_sources",
        lambda args, tileset, board, settings, language: standin_sources(language.templates, language),
    )
    monkeypatch.chdir(tmp_path)
    line = _insert(templates / "cover.xml.j2", 0, "{{ cycler.__init__.__globals__.os.system('touch PWNED') }}")
    status = main(["publish", TILESET, "--templates", str(templates), "--out", str(tmp_path / "out")])
    err = capsys.readouterr().err
    assert status == 2 and err.strip().count("\n") == 0
    assert f"cover.xml.j2: template error at line {line}: access to attribute '__init__'" in err
    assert not (tmp_path / "PWNED").exists() and not (tmp_path / "out").exists()


def test_publish_ignores_a_templates_folder_in_the_current_directory(templates, tmp_path, monkeypatch):
    import generator.cli.publish as cli

    (templates / "booklet.xml.j2").write_text("{{ this is someone else's template }}")
    monkeypatch.chdir(tmp_path)  # tmp_path/templates is ./templates now
    assert cli.default_templates() == TEMPLATES
    assert (cli.default_templates() / "booklet.xml.j2").read_text() != (templates / "booklet.xml.j2").read_text()
