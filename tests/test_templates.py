"""The dashboard's templates: autoescaped, so text from a mission file is never markup."""

from __future__ import annotations

from collections.abc import Callable
from html.parser import HTMLParser
from pathlib import Path

from typer.testing import CliRunner

from missions.cli import app
from missions.yamlio import dump_document, load_document

HOSTILE = '<script>alert(1)</script><img src=x onerror="alert(2)"> & "quotes"'


class Tags(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.tags: list[tuple[str, dict[str, str | None]]] = []
        self.text: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append((tag, dict(attrs)))

    def handle_data(self, data: str) -> None:
        self.text.append(data)


def test_hostile_yaml_text_reaches_every_page_as_text(
    demo_workspace: Callable[..., Path], tmp_path: Path
) -> None:
    demo = demo_workspace(use_git=True)
    path = demo / "missions/demo.yaml"
    doc = load_document(path)
    doc["title"] = doc["summary"] = HOSTILE
    doc["sources"][0]["citation"] = doc["conventions"] = HOSTILE
    doc["conventions"] = [HOSTILE]
    for target in doc["targets"]:
        target["title"] = target["informal"] = HOSTILE
    path.write_text(dump_document(doc), encoding="utf-8")
    out = tmp_path / "site"
    result = CliRunner().invoke(
        app, ["report", "--format", "html", "-o", str(out), "--root", str(demo)]
    )
    assert result.exit_code == 0, result.stderr
    for page in ("index.html", "demo.html"):
        parser = Tags()
        parser.feed((out / page).read_text(encoding="utf-8"))
        assert not [t for t, _ in parser.tags if t in ("script", "img")], page
        assert not [a for _, a in parser.tags if any(k.startswith("on") for k in a)], page
        assert HOSTILE in "".join(parser.text), page  # shown, as text
