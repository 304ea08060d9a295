"""The static HTML dashboard: pages, links, graph, mathematics, highlighting, history, browser.

Tests over the bundled catalogue derive what they expect from the YAML; behaviour (witness
chips, history) is tested on the demo fixture workspace. The browser test runs chromium
headless on every page and is skipped, with the reason, where chromium is not installed
(``.ci/run`` installs it on Debian when run as root); it installs nothing itself, and its
screenshots go to the test's temporary directory, never into the repository.
"""

from __future__ import annotations

import html as htmllib
import re
import shutil
import subprocess
from collections.abc import Callable
from html.parser import HTMLParser
from pathlib import Path

import pytest
from typer.testing import CliRunner

from conftest import REPO, copy_repo_workspace, git, init_repo, link_witnesses, settle
from missions.catalog import load_catalog
from missions.cli import app
from missions.gate import run_gate
from missions.history import mission_history
from missions.html import (
    BAR_COLOURS,
    BAR_TRACK,
    EDGE_COLOUR,
    PALETTE,
    contrast_ratio,
    highlight_lean,
    layered_layout,
    page_name,
    render_text,
    stylesheet,
    write_dashboard,
)
from missions.lean.workspace import load_workspace
from missions.status import Analysis, analyze

#: How chips name provenance values (spelled out here, not taken from the tool).
ORIGIN_CHIPS = {
    "literature-sourced": "Literature-sourced",
    "ai-adapted": "AI-adapted",
    "ai-generated": "AI-generated",
    "external": "External",
    "none": "None yet",
}


def _analysis(root: Path) -> Analysis:
    return analyze(load_catalog(root, use_cache=False), load_workspace(root, use_cache=False))


class Page(HTMLParser):
    """What the tests need from a page: ids, links, headings, tags with attributes."""

    def __init__(self, text: str) -> None:
        super().__init__(convert_charrefs=True)
        self.ids: set[str] = set()
        self.tags: list[tuple[str, dict[str, str]]] = []
        self.headings: list[int] = []
        self.h1_text: list[str] = []
        self.svg_depth = 0
        self.svg_tags: list[tuple[str, dict[str, str]]] = []
        self._in_h1 = False
        self.feed(text)

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        attributes = {k: v or "" for k, v in attrs}
        self.tags.append((tag, attributes))
        if "id" in attributes:
            self.ids.add(attributes["id"])
        if re.fullmatch(r"h[1-6]", tag):
            self.headings.append(int(tag[1]))
            self._in_h1 = tag == "h1"
        if tag == "svg":
            self.svg_depth += 1
        if self.svg_depth:
            self.svg_tags.append((tag, attributes))

    def handle_endtag(self, tag: str) -> None:
        if tag == "svg":
            self.svg_depth -= 1
        if tag == "h1":
            self._in_h1 = False

    def handle_data(self, data: str) -> None:
        if self._in_h1:
            self.h1_text.append(data)

    def links(self) -> list[str]:
        return [a["href"] for tag, a in self.tags if "href" in a and tag in ("a", "link")]


@pytest.fixture(scope="module")
def real(tmp_path_factory: pytest.TempPathFactory) -> tuple[Analysis, Path, list[Path]]:
    """The dashboard of this repository's missions (no witness results)."""
    analysis = _analysis(REPO)
    out = tmp_path_factory.mktemp("dashboard")
    written = write_dashboard(analysis, run_gate(analysis), out, witnesses={})
    return analysis, out, written


def _pages(out: Path) -> dict[str, Page]:
    return {p.name: Page(p.read_text(encoding="utf-8")) for p in sorted(out.glob("*.html"))}


# ---------------------------------------------------------------- pages and links


def test_a_page_per_mission_plus_index_and_stylesheet(
    real: tuple[Analysis, Path, list[Path]],
) -> None:
    analysis, out, written = real
    expected = {"index.html", "errata.html", "style.css"}
    expected |= {page_name(m.id) for m in analysis.missions}
    assert {p.name for p in written} == expected == {p.name for p in out.iterdir()}
    files = sorted(p.stem for p in (REPO / "missions").glob("*.yaml"))
    assert files and sorted(m.id for m in analysis.missions) == files
    index = (out / "index.html").read_text(encoding="utf-8")
    for mission in analysis.missions:
        assert f'href="{page_name(mission.id)}"' in index


def test_every_table_scrolls_in_a_box_of_its_own(
    real: tuple[Analysis, Path, list[Path]],
) -> None:
    """A wide table must never make a page scroll sideways on a phone: each sits directly in
    a focusable box that scrolls (the browser test measures it where chromium exists)."""
    _, out, _ = real
    box = '<div class="scroll" tabindex="0">'
    tables = 0
    for page in sorted(out.glob("*.html")):
        text = page.read_text(encoding="utf-8")
        starts = [i for i in range(len(text)) if text.startswith("<table", i)]
        tables += len(starts)
        assert all(text[:i].endswith(box) for i in starts), page.name
        assert text.count("</table>") == text.count("</table></div>"), page.name
    assert tables > 0


def test_every_internal_link_resolves_to_a_file_and_an_id(
    real: tuple[Analysis, Path, list[Path]],
) -> None:
    _, out, _ = real
    pages = _pages(out)
    assert pages
    for name, page in pages.items():
        checked = 0
        for href in page.links():
            if re.match(r"^[a-z][a-z0-9+.-]*:", href):  # scheme: external or data
                continue
            file, _, fragment = href.partition("#")
            target = file or name
            assert (out / target).is_file(), f"{name}: {href} points to a missing file"
            if fragment:
                assert target in pages, f"{name}: {href} has a fragment into a non-page"
                assert fragment in pages[target].ids, f"{name}: {href}: no id {fragment!r}"
            checked += 1
        assert checked, f"{name}: no internal link (the stylesheet at least)"


def test_nothing_is_loaded_from_the_network_and_there_is_no_script(
    real: tuple[Analysis, Path, list[Path]],
) -> None:
    _, out, _ = real
    for path in out.glob("*.html"):
        text = path.read_text(encoding="utf-8")
        assert "<script" not in text.lower()
        page = Page(text)
        for tag, attrs in page.tags:
            assert not attrs.get("src", "").startswith(("http", "//")), (path.name, tag)
            if tag == "link":  # the stylesheet and an empty data: icon, nothing remote
                assert attrs["href"] in ("style.css", "data:,"), (path.name, attrs)
            if tag == "a" and re.match(r"^[a-z]+:", attrs.get("href", "")):
                assert re.match(r"^https?://", attrs["href"]), attrs  # plain links only
            assert not any(k.startswith("on") for k in attrs), (path.name, tag, attrs)
    css = (out / "style.css").read_text(encoding="utf-8")
    assert "@import" not in css and "url(" not in css and "@font-face" not in css


def test_sources_link_arxiv_and_locators_are_listed(
    real: tuple[Analysis, Path, list[Path]],
) -> None:
    analysis, out, _ = real
    arxiv_links = 0
    for mission in analysis.missions:
        info = mission.file.mission
        text = htmllib.unescape((out / page_name(info.id)).read_text(encoding="utf-8"))
        for source in info.sources:
            assert source.citation in text, (info.id, source.key)
            if source.arxiv:
                link = f'<a href="https://arxiv.org/abs/{source.arxiv}">arXiv:{source.arxiv}</a>'
                assert link in text, (info.id, source.key)
                arxiv_links += 1
            for locator in source.locators:
                assert locator in text, (info.id, locator)
        for target in info.targets:
            proof = target.provenance.proof
            assert f"Statement: {ORIGIN_CHIPS[target.provenance.statement]}" in text
            assert f"Proof: {ORIGIN_CHIPS[proof]}" in text, (info.id, target.id)
    assert arxiv_links, "no source with an arXiv id: the link rendering went untested"


# ---------------------------------------------------------------- accessibility


def test_pages_have_one_h1_ordered_headings_and_a_language(
    real: tuple[Analysis, Path, list[Path]],
) -> None:
    _, out, _ = real
    for name, page in _pages(out).items():
        text = (out / name).read_text(encoding="utf-8")
        assert '<html lang="en">' in text
        assert page.headings.count(1) == 1 and page.headings[0] == 1, name
        for before, after in zip(page.headings, page.headings[1:], strict=False):
            assert after <= before + 1, f"{name}: h{before} followed by h{after}"
        for tag, attrs in page.tags:
            if tag == "img":
                assert attrs.get("alt"), name


def test_palette_meets_wcag_aa() -> None:
    assert contrast_ratio("#000000", "#ffffff") == pytest.approx(21.0)
    assert contrast_ratio("#777777", "#ffffff") == pytest.approx(4.48, abs=0.01)
    for name, (fg, bg) in PALETTE.items():
        assert contrast_ratio(fg, bg) >= 4.5, name
    for name, colour in BAR_COLOURS.items():  # graphics: WCAG 1.4.11 asks 3:1
        assert contrast_ratio(colour, BAR_TRACK) >= 3, name
    assert contrast_ratio(EDGE_COLOUR, PALETTE["body"][1]) >= 3
    used = {c.lower() for c in re.findall(r"#[0-9a-fA-F]{6}\b", stylesheet())}
    known = {c for pair in PALETTE.values() for c in pair}
    known |= {BAR_TRACK, EDGE_COLOUR, *BAR_COLOURS.values()}
    assert used, "the stylesheet uses no colour: nothing was checked"
    assert used - known == set()


# ---------------------------------------------------------------- dependency graph


def test_graph_has_a_node_per_target_and_an_edge_per_dependency(
    real: tuple[Analysis, Path, list[Path]],
) -> None:
    analysis, out, _ = real
    for mission in analysis.missions:
        page = _pages(out)[page_name(mission.id)]
        svg = [attrs for tag, attrs in page.svg_tags if tag == "svg"]
        assert len(svg) == 1
        assert svg[0]["role"] == "img" and svg[0]["aria-label"]
        assert svg[0]["aria-describedby"] in page.ids
        names = [tag for tag, _ in page.svg_tags]
        assert "title" in names and "desc" in names and "marker" in names
        nodes = [a for tag, a in page.svg_tags if tag == "a" and "node" in a["class"].split()]
        ids = [t.target.id for t in mission.targets]
        assert sorted(n["data-target"] for n in nodes) == sorted(ids)
        for node in nodes:
            assert node["href"] == f"#target-{node['data-target']}"
            assert f"target-{node['data-target']}" in page.ids
        edges = {
            (a["data-from"], a["data-to"])
            for tag, a in page.svg_tags
            if tag == "path" and a.get("class") == "edge"
        }
        expected = {(d, t.target.id) for t in mission.targets for d in t.target.depends_on}
        assert edges == expected
        statuses = {n["data-target"]: n["class"].split()[1] for n in nodes}
        assert statuses == {t.target.id: t.status for t in mission.targets}


def test_layout_layers_flow_into_the_goal_and_reduce_crossings() -> None:
    nodes = ["a", "b", "c", "lonely", "goal"]
    edges = [("a", "b"), ("b", "c"), ("c", "goal")]
    layout = layered_layout(nodes, edges, sink="goal")
    pos = layout.position()
    assert [pos[n][0] for n in ("a", "b", "c", "goal")] == [0, 1, 2, 3]
    assert pos["lonely"][0] == 0
    # two crossing edges in catalog order are uncrossed by the barycenter pass
    layout = layered_layout(["x", "y", "p", "q"], [("x", "q"), ("y", "p")])
    assert layout.layers == [["x", "y"], ["q", "p"]]
    # a cycle (rejected by the catalog) never loops
    assert layered_layout(["u", "v"], [("u", "v"), ("v", "u")]).layers


@pytest.mark.parametrize(
    "long_id",
    [
        "a-very-long-target-identifier-that-does-not-fit",
        "averyveryverylongidentifierwithoutanyhyphenatall",  # one piece: the box grows
    ],
)
def test_long_ids_are_never_cut_the_box_fits_the_label(long_id: str) -> None:
    from missions.html import CHAR_WIDTH, dependency_svg

    mission = {
        "title": "T",
        "targets": [
            {
                "id": long_id,
                "kind": "milestone",
                "title": "M",
                "status": "stated",
                "depends_on": [],
            },
            {
                "id": "goal",
                "kind": "goal",
                "title": "G",
                "status": "missing",
                "depends_on": [long_id],
            },
        ],
    }
    svg = dependency_svg(mission)
    assert f"<title>{long_id}: M (stated)</title>" in svg
    assert "…" not in svg
    node = re.search(rf'data-target="{long_id}".*?</a>', svg)
    assert node is not None
    lines = re.findall(r"<tspan[^>]*>([^<]*)</tspan>", node.group())
    assert "".join(lines) == long_id  # whole, broken only after hyphens
    assert all(len(line) <= 22 or "-" not in line[:-1] for line in lines)
    rect = re.search(r'<rect x="([\d.]+)" y="[\d.]+" width="([\d.]+)"', node.group())
    assert rect is not None
    assert float(rect.group(2)) >= max(len(line) for line in lines) * CHAR_WIDTH
    canvas = re.search(r'<svg[^>]* width="([\d.]+)"', svg)
    assert canvas is not None
    assert float(rect.group(1)) + float(rect.group(2)) <= float(canvas.group(1))


# ---------------------------------------------------------------- mathematics and Lean


def test_dollar_math_becomes_mathml_and_everything_else_is_escaped() -> None:
    out = render_text("If $x^2 < 1$ then <b>a & b</b>, see `Foo.bar`.")
    assert "<math" in out and "<msup><mi>x</mi><mn>2</mn></msup>" in out
    assert "&lt;b&gt;a &amp; b&lt;/b&gt;" in out and "<code>Foo.bar</code>" in out
    assert "xmlns" not in out
    display = render_text(r"$$\frac{1}{2}$$")
    assert 'display="block"' in display and "<mfrac>" in display
    hostile = render_text(r"$\text{<script>alert(1)</script>}$")
    assert "<script" not in hostile and "&lt;script&gt;" in hostile
    broken = render_text(r"a $\frac{1}{$ b")
    assert "<math" not in broken and r"$\frac{1}{$" in htmllib.unescape(broken)
    assert render_text("costs 5$ only") == "<p>costs 5$ only</p>"


def _strip(markup: str) -> str:
    return htmllib.unescape(re.sub(r"<[^>]+>", "", markup))


def test_lean_highlighting_classes_and_round_trip(
    real: tuple[Analysis, Path, list[Path]],
) -> None:
    code = (
        "/-- The goal. -/\n"
        "def Goal : Prop :=\n"
        '  ∀ n : ℕ, n + 1 > 0 ∧ "s" = "s" -- trailing\n'
        "/- block -/ theorem x : True := trivial\n"
    )
    out = highlight_lean(code)
    assert '<span class="kw">def</span>' in out
    assert '<span class="decl">Goal</span>' in out
    assert '<span class="kw">Prop</span>' in out and '<span class="kw">∀</span>' in out
    assert '<span class="doc">/-- The goal. -/</span>' in out
    assert '<span class="cm">-- trailing</span>' in out
    assert '<span class="cm">/- block -/</span>' in out
    assert '<span class="num">1</span>' in out and '<span class="str">&quot;s&quot;</span>' in out
    assert _strip(out) == code
    assert _strip(highlight_lean('def x := "unterminated')) == 'def x := "unterminated'
    analysis, out_dir, _ = real
    statements = 0
    for mission in analysis.missions:
        page = (out_dir / page_name(mission.id)).read_text(encoding="utf-8")
        for status in mission.targets:
            if status.statement_decl is not None:
                module, decl = status.statement_decl
                text = module.path.read_text(encoding="utf-8")[decl.start : decl.end]
                assert _strip(highlight_lean(text)) == text
                assert f'aria-label="Lean statement of {status.target.id}"' in page
                statements += 1
        if any(t.statement_decl for t in mission.targets):
            assert '<pre class="lean"' in page and '<span class="kw">def</span>' in page
    assert statements, "no Lean statement was rendered"


# ---------------------------------------------------------------- witnesses, history, CLI


def test_witness_results_show_on_cards_and_targets(
    demo_workspace: Callable[..., Path], tmp_path: Path
) -> None:
    root = demo_workspace(settled=False)
    settle(root)
    link_witnesses(root)
    analysis = _analysis(root)
    site = tmp_path / "site"
    site.mkdir()
    write_dashboard(analysis, run_gate(analysis), site, witnesses={"demo/goal": {"ok": False}})
    index = (site / "index.html").read_text(encoding="utf-8")
    page = (site / "demo.html").read_text(encoding="utf-8")
    assert "1 fail, 1 not run" in index
    assert '<span class="chip fail">witness: fail</span>' in page
    assert '<span class="chip neutral">witness: not run</span>' in page
    assert '<span class="chip pass">' not in page
    results = {"demo/goal": {"ok": False}, "demo/step": {"ok": True}}
    write_dashboard(analysis, run_gate(analysis), site, witnesses=results)
    assert "1 fail, 1 pass" in (site / "index.html").read_text(encoding="utf-8")
    page = (site / "demo.html").read_text(encoding="utf-8")
    assert '<span class="chip pass">witness: pass</span>' in page


def _set(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert old in text
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


def test_history_events_from_git_and_on_the_page(
    demo_workspace: Callable[..., Path], tmp_path: Path
) -> None:
    root = demo_workspace(settled=False)
    mission = root / "missions/demo.yaml"
    assert mission_history(root, mission) == []  # not a repository
    init_repo(root, "initial")  # statuses recorded, statements not pinned yet
    settle(root, commit=True)
    pin = load_catalog(root, use_cache=False).get("demo").mission.lean.statement_pin
    assert pin is not None
    _set(mission, "status: proved\n", "status: stated\n")  # the first target
    git(root, "commit", "-q", "-am", "demote the milestone")
    mission.write_text("targets: [unclosed\n", encoding="utf-8")
    git(root, "commit", "-q", "-am", "broken yaml (skipped)")
    git(root, "checkout", "-q", "HEAD~1", "--", str(mission))
    new_pin = "sha256:" + "ab" * 32
    _set(mission, f"statement_pin: {pin}", f"statement_pin: {new_pin}")
    git(root, "commit", "-q", "-am", "re-pin")
    shas = git(root, "log", "--format=%H", "--reverse").split()
    assert len(shas) == 5

    events = mission_history(root, mission)
    assert [(e.sha, e.kind, e.target, e.before, e.after) for e in events] == [
        (shas[0], "status", "step", None, "stated"),
        (shas[0], "status", "goal", None, "stated"),
        (shas[1], "pin", None, None, pin),
        (shas[1], "status", "step", "stated", "proved"),
        (shas[1], "status", "goal", "stated", "proved"),
        (shas[2], "status", "step", "proved", "stated"),
        (shas[4], "pin", None, pin, new_pin),
    ]
    assert all(e.author == "Test Author" for e in events)
    assert events[-1].date.year >= 2024 and events[-1].summary == "re-pin"

    out = tmp_path / "site"
    code = (
        CliRunner()
        .invoke(app, ["report", "--format", "html", "-o", str(out), "--root", str(root)])
        .exit_code
    )
    assert code == 0  # a report, not the gate: written even though the pin is now wrong
    page = (out / "demo.html").read_text(encoding="utf-8")
    assert shas[4][:10] in page and shas[2][:10] in page and shas[3][:10] not in page
    assert "Test Author" in page and "<math" in page
    assert '<a href="#target-step">' in page


def test_cli_html_needs_an_output_directory_whose_parent_exists(tmp_path: Path) -> None:
    root = copy_repo_workspace(tmp_path)
    runner = CliRunner()
    result = runner.invoke(app, ["report", "--format", "html", "--root", str(root)])
    assert result.exit_code == 2 and result.stderr.startswith("--output:1: ")
    missing = tmp_path / "no" / "site"
    result = runner.invoke(
        app, ["report", "--format", "html", "-o", str(missing), "--root", str(root)]
    )
    assert result.exit_code == 2 and result.stderr.startswith(f"{missing}:1: ")
    afile = tmp_path / "file"
    afile.write_text("x", encoding="utf-8")
    result = runner.invoke(
        app, ["report", "--format", "html", "-o", str(afile), "--root", str(root)]
    )
    assert result.exit_code == 2 and result.stderr.startswith(f"{afile}:1: ")
    result = runner.invoke(
        app, ["report", "--format", "html", "-o", str(tmp_path / "site"), "--root", str(root)]
    )
    assert result.exit_code == 0 and (tmp_path / "site" / "index.html").is_file()
    assert oct((tmp_path / "site" / "index.html").stat().st_mode & 0o777) == "0o644"


# ---------------------------------------------------------------- real browser

CHROMIUM_FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--hide-scrollbars",
]


def _chromium() -> str | None:
    """The chromium executable on PATH (Debian names it ``chromium``), or None."""
    for name in ("chromium", "chromium-browser", "google-chrome"):
        found = shutil.which(name)
        if found:
            return found
    return None


def _browse(chromium: str, profile: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [chromium, *CHROMIUM_FLAGS, f"--user-data-dir={profile}", *args],
        capture_output=True,
        text=True,
        timeout=180,
    )


def _console_problems(stderr: str) -> list[str]:
    """Console output of a page: chromium logs every console message (and every uncaught
    exception) as a ``CONSOLE`` line with ``--enable-logging=stderr``; our pages have no
    scripts, so any such line is an error."""
    return [line for line in stderr.splitlines() if "CONSOLE" in line or "Uncaught" in line]


@pytest.mark.slow
def test_pages_load_in_headless_chromium(
    real: tuple[Analysis, Path, list[Path]], tmp_path: Path
) -> None:
    """Every page loads in a real browser with no console message, its DOM holds its ``h1``
    (and an ``svg`` graph with a node per target on mission pages), and screenshots of the
    index and a mission page are real images. A deliberately broken page checks that console
    errors are detected."""
    chromium = _chromium()
    if chromium is None:
        pytest.skip(
            "chromium not installed (.ci/run installs it on Debian as root; "
            "else: apt-get install chromium)"
        )
    analysis, out, _ = real
    profile = tmp_path / "profile"
    logging = ["--enable-logging=stderr", "--v=0", "--dump-dom"]

    control = tmp_path / "broken.html"
    control.write_text(
        '<!DOCTYPE html><html lang="en"><body><h1>x</h1>'
        "<script>undefinedFunction()</script></body></html>",
        encoding="utf-8",
    )
    done = _browse(chromium, profile, *logging, control.as_uri())
    assert done.returncode == 0, done.stderr[-2000:]
    assert any("Uncaught" in p for p in _console_problems(done.stderr)), done.stderr[-2000:]

    targets = {page_name(m.id): len(m.targets) for m in analysis.missions}
    for path in sorted(out.glob("*.html")):
        done = _browse(chromium, profile, *logging, path.as_uri())
        assert done.returncode == 0, (path.name, done.stderr[-2000:])
        assert _console_problems(done.stderr) == [], path.name
        h1 = "".join(Page(path.read_text(encoding="utf-8")).h1_text)
        dom = Page(done.stdout)
        assert "".join(dom.h1_text) == h1, path.name
        if path.name in targets:
            rects = [a for tag, a in dom.svg_tags if tag == "rect"]
            assert len(rects) == targets[path.name], path.name

    shots = tmp_path / "screenshots"  # kept with pytest's temporary directories
    shots.mkdir()
    mission = analysis.missions[0].id
    for name, shot in (("index.html", "index.png"), (page_name(mission), "mission.png")):
        screenshot = shots / shot
        done = _browse(
            chromium,
            profile,
            f"--screenshot={screenshot}",
            "--window-size=1280,900",
            (out / name).as_uri(),
        )
        assert done.returncode == 0, done.stderr[-2000:]
        data = screenshot.read_bytes()
        assert data.startswith(b"\x89PNG") and len(data) > 20_000, len(data)


@pytest.mark.slow
def test_no_page_scrolls_sideways_on_a_phone(
    real: tuple[Analysis, Path, list[Path]], tmp_path: Path
) -> None:
    """At 390 px (a phone) every page fits its width: wide tables, code and the graph scroll
    inside their own boxes. Measured in a real browser, each page in a 390 px frame."""
    chromium = _chromium()
    if chromium is None:
        pytest.skip("chromium not installed (.ci/run installs it on Debian as root)")
    _, out, _ = real
    site = tmp_path / "site"
    shutil.copytree(out, site)
    profile = tmp_path / "profile"
    for page in sorted(site.glob("*.html")):
        probe = site / "_probe.html"
        probe.write_text(
            '<!DOCTYPE html><html lang="en"><head><title>probe</title></head><body>'
            f'<iframe id="f" src="{page.name}" style="width:390px;height:844px;border:0">'
            "</iframe><script>document.getElementById('f').onload = function () {"
            "var d = this.contentDocument.documentElement;"
            "document.title = 'W' + d.scrollWidth + '/' + d.clientWidth; };</script>"
            "</body></html>",
            encoding="utf-8",
        )
        done = _browse(
            chromium,
            profile,
            "--allow-file-access-from-files",
            "--virtual-time-budget=5000",
            "--dump-dom",
            probe.as_uri(),
        )
        found = re.search(r"<title>W(\d+)/(\d+)</title>", done.stdout)
        assert found is not None, (page.name, done.stderr[-1000:])
        scroll, client = map(int, found.groups())
        assert 300 <= client <= 390 and scroll <= client, (page.name, scroll, client)
