"""A static HTML dashboard of the catalog: an index of mission cards and a page per mission.

The pages are Jinja2 templates (``missions/templates``: ``base.html``, ``index.html``,
``mission.html``, ``target.html``), autoescaped, so a designer changes a page without reading
Python and text from a mission file is never markup. What needs computing is rendered here
and handed to them as HTML: ``$...$`` / ``$$...$$`` mathematics becomes MathML (which
browsers render natively), Lean statements are highlighted with the project's own lexer, and
each mission's dependency graph is laid out here and drawn as inline SVG. The pages work
offline and without JavaScript. The only external addresses are plain links
to a mission's sources (arXiv, DOI, its own URL); no page loads anything from the network.

Colours come from :data:`PALETTE` (text on background pairs, WCAG AA: contrast ≥ 4.5:1) and
:data:`BAR_COLOURS` (graphics against the bar's track: ≥ 3:1); ``style.css`` is generated
from them, so the tests that check the ratios check what the pages use.
"""

from __future__ import annotations

import functools
import hashlib
import html
import itertools
import json
import os
import re
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, cast
from xml.etree.ElementTree import Element

from jinja2 import Environment, PackageLoader, StrictUndefined
from markupsafe import Markup, escape

from missions import forked
from missions.chart import progress_section
from missions.frontier import mission_frontier
from missions.gate import GateResult
from missions.history import HistoryEvent, mission_histories
from missions.lean.lexer import CHAR, DOC, HASH, IDENT, MODDOC, NUMBER, STRING, lex
from missions.progress import weekly_progress
from missions.render import plural, summary_line
from missions.report import report_json
from missions.status import Analysis, MissionStatus, TargetStatus
from missions.yamlio import atomic_write_text

STATUSES = ("proved", "stated", "missing", "external")

#: name -> (foreground, background); every pair is used as text on that background.
PALETTE: dict[str, tuple[str, str]] = {
    "body": ("#1f2328", "#ffffff"),
    "muted": ("#57606a", "#ffffff"),
    "link": ("#0b57d0", "#ffffff"),
    "panel": ("#1f2328", "#f6f8fa"),
    "panel-muted": ("#57606a", "#f6f8fa"),
    "panel-link": ("#0b57d0", "#f6f8fa"),
    "proved": ("#14532d", "#d8f3dc"),
    "stated": ("#6b4400", "#fdefc3"),
    "missing": ("#8a1c17", "#fde2e1"),
    "external": ("#1d4e7a", "#dcebf8"),
    "neutral": ("#374151", "#eceff3"),
    "origin": ("#3b2f7a", "#ebe7fb"),
    "pass": ("#14532d", "#d8f3dc"),
    "fail": ("#8a1c17", "#fde2e1"),
    "stale": ("#6b4400", "#fdefc3"),
    "lean-keyword": ("#8a2c8f", "#f6f8fa"),
    "lean-decl": ("#0550ae", "#f6f8fa"),
    "lean-comment": ("#57606a", "#f6f8fa"),
    "lean-doc": ("#3f6212", "#f6f8fa"),
    "lean-string": ("#0a6b3b", "#f6f8fa"),
    "lean-number": ("#9a4a00", "#f6f8fa"),
}

#: Progress-bar segments (graphics, not text) and the track they sit on: ≥ 3:1 (WCAG 1.4.11).
BAR_TRACK = "#e5e7eb"
BAR_COLOURS: dict[str, str] = {"proved": "#2e7d32", "stated": "#b26a00", "missing": "#c62828"}
#: Graph edges and arrowheads, drawn on the page background.
EDGE_COLOUR = "#57606a"

ORIGIN_LABELS = {
    "literature-sourced": "Literature-sourced",
    "ai-adapted": "AI-adapted",
    "ai-generated": "AI-generated",
    "external": "External",
    "none": "None yet",
}

# fmt: off
LEAN_KEYWORDS = frozenset(
    {
        "def", "theorem", "lemma", "abbrev", "structure", "class", "instance", "inductive", "axiom",
        "opaque", "example", "where", "extends", "fun", "let", "have", "show", "from", "by", "at",
        "with", "match", "if", "then", "else", "do", "return", "open", "namespace", "section",
        "end", "variable", "universe", "import", "noncomputable", "private", "protected", "partial",
        "unsafe", "macro", "macro_rules", "syntax", "notation", "infix", "infixl", "infixr",
        "prefix", "postfix", "attribute", "set_option", "mutual", "deriving", "termination_by",
        "decreasing_by", "calc", "in", "using", "sorry", "Type", "Prop", "Sort", "forall", "exists",
        "this", "suffices", "obtain", "intro", "exact", "apply", "simp", "rfl",
    }
)
# fmt: on
LEAN_SYMBOL_KEYWORDS = frozenset({"∀", "∃", "λ", "↦", "Π", "Σ", "∃!"})
DECL_KEYWORDS = frozenset(
    {"def", "theorem", "lemma", "abbrev", "structure", "class", "inductive", "axiom", "opaque"}
)


# ---------------------------------------------------------------- colours


def _luminance(colour: str) -> float:
    value = colour.lstrip("#")
    channels = [int(value[i : i + 2], 16) / 255 for i in (0, 2, 4)]
    linear = [c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
    return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]


def contrast_ratio(foreground: str, background: str) -> float:
    """WCAG 2 contrast ratio of two ``#rrggbb`` colours (1 to 21)."""
    high, low = sorted((_luminance(foreground), _luminance(background)), reverse=True)
    return (high + 0.05) / (low + 0.05)


def _fg(name: str) -> str:
    return PALETTE[name][0]


def _bg(name: str) -> str:
    return PALETTE[name][1]


def stylesheet() -> str:
    """The shared ``style.css``: every colour in it comes from the palette constants."""
    chips = "\n".join(
        f".chip.{name}, .node.{name} text {{ color: {_fg(name)}; fill: {_fg(name)}; }}\n"
        f".chip.{name} {{ background: {_bg(name)}; border-color: {_fg(name)}; }}\n"
        f".node.{name} rect {{ fill: {_bg(name)}; stroke: {_fg(name)}; }}"
        for name in (*STATUSES, "neutral", "origin", "pass", "fail", "stale")
    )
    bars = "\n".join(f".bar .{name} {{ background: {c}; }}" for name, c in BAR_COLOURS.items())
    lean = "\n".join(
        f"pre.lean .{cls} {{ color: {_fg('lean-' + name)}; }}"
        for cls, name in (
            ("kw", "keyword"),
            ("decl", "decl"),
            ("cm", "comment"),
            ("doc", "doc"),
            ("str", "string"),
            ("num", "number"),
        )
    )
    return f"""/* missions dashboard: generated by `missions report --format html` */
:root {{ color-scheme: light; }}
* {{ box-sizing: border-box; }}
body {{
  margin: 0; color: {_fg("body")}; background: {_bg("body")};
  font: 16px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial,
    sans-serif;
}}
a {{ color: {_fg("link")}; }}
a:focus-visible, summary:focus-visible {{ outline: 3px solid {_fg("link")}; outline-offset: 2px; }}
.skip {{ position: absolute; left: -999px; top: 0; background: {_bg("body")}; padding: 4px; }}
.skip:focus {{ left: 8px; }}
header.site, footer.site {{ background: {_bg("panel")}; color: {_fg("panel")}; }}
header.site {{ padding: 8px 24px; border-bottom: 1px solid {BAR_TRACK}; }}
header.site a {{ color: {_fg("panel-link")}; }}
footer.site {{ padding: 12px 24px; margin-top: 48px; color: {_fg("panel-muted")};
  border-top: 1px solid {BAR_TRACK}; font-size: 14px; }}
main {{ max-width: 1100px; margin: 0 auto; padding: 8px 24px; }}
h1 {{ font-size: 28px; line-height: 1.25; margin: 16px 0 8px; }}
h2 {{ font-size: 22px; margin: 32px 0 8px; border-bottom: 1px solid {BAR_TRACK}; }}
h3 {{ font-size: 18px; margin: 16px 0 6px; }}
code, pre, .mono {{ font-family: ui-monospace, "SFMono-Regular", Menlo, Consolas,
  "DejaVu Sans Mono", monospace; font-size: 14px; }}
.muted {{ color: {_fg("muted")}; }}
.chip {{ display: inline-block; padding: 0 8px; margin: 2px 4px 2px 0; border: 1px solid;
  border-radius: 10px; font-size: 13px; line-height: 20px; white-space: nowrap; }}
{chips}
.cards {{ list-style: none; padding: 0; display: grid; gap: 16px;
  grid-template-columns: repeat(auto-fill, minmax(320px, 1fr)); }}
.card {{ border: 1px solid {BAR_TRACK}; border-radius: 8px; padding: 12px 16px; }}
.card h3 {{ margin-top: 0; }}
.card dl, .target dl, dl.meta {{ display: grid; grid-template-columns: max-content 1fr;
  gap: 2px 12px; margin: 8px 0; }}
dt {{ color: {_fg("muted")}; }}
dd {{ margin: 0; }}
.bar {{ display: flex; height: 12px; border-radius: 6px; overflow: hidden;
  background: {BAR_TRACK}; margin: 8px 0 4px; }}
.bar span {{ display: block; height: 100%; }}
.bar-label {{ margin: 0 0 8px; font-size: 14px; }}
p.why {{ border-left: 4px solid {BAR_COLOURS["stated"]}; padding-left: 8px; }}
.draft {{ border: 1px solid {_fg("neutral")}; background: {_bg("neutral")}; color: {_fg("neutral")};
  border-radius: 6px; padding: 4px 12px; }}
{bars}
.target {{ border-top: 1px solid {BAR_TRACK}; padding-top: 8px; margin-top: 16px; }}
.target h3 code {{ font-weight: normal; color: {_fg("muted")}; }}
pre.lean {{ background: {_bg("panel")}; color: {_fg("panel")}; padding: 12px; overflow-x: auto;
  border-radius: 6px; border: 1px solid {BAR_TRACK}; }}
{lean}
pre.lean .doc, pre.lean .cm {{ font-style: italic; }}
figure.graph {{ margin: 8px 0; overflow-x: auto; }}
figure.graph svg {{ max-width: 100%; height: auto; }}
svg.chart {{ width: 100%; max-width: 640px; height: auto; }}
.swatch {{ display: inline-block; width: 10px; height: 10px; margin: 0 4px 0 10px; }}
.node text {{ font: 13px ui-monospace, Menlo, Consolas, "DejaVu Sans Mono", monospace; }}
.node rect {{ stroke-width: 1.5; }}
.node.goal rect {{ stroke-width: 3; }}
.node:focus-visible rect {{ stroke-width: 4; }}
.edge {{ stroke: {EDGE_COLOUR}; fill: none; stroke-width: 1.5; }}
.legend {{ list-style: none; padding: 0; margin: 4px 0; }}
.legend li {{ display: inline; }}
table {{ border-collapse: collapse; margin: 8px 0; width: 100%; }}
th, td {{ text-align: left; padding: 4px 8px; border-bottom: 1px solid {BAR_TRACK};
  vertical-align: top; }}
math[display="block"] {{ margin: 8px 0; }}
nav.toc ul {{ list-style: none; padding: 0; margin: 0; display: flex; flex-wrap: wrap;
  gap: 4px 12px; }}
.scroll {{ overflow-x: auto; max-width: 100%; }}
.scroll:focus-visible {{ outline: 3px solid {_fg("link")}; outline-offset: 2px; }}
main {{ overflow-wrap: anywhere; }}
@media (max-width: 600px) {{
  main {{ padding: 8px 12px; }}
  header.site, footer.site {{ padding-left: 12px; padding-right: 12px; }}
  .cards {{ grid-template-columns: 1fr; }}
  .card dl, .target dl, dl.meta {{ grid-template-columns: 1fr; }}
  dd {{ margin-bottom: 6px; }}
  figure.graph svg {{ max-width: none; }}
}}
"""


# ---------------------------------------------------------------- text and mathematics

_SAFE_NAME = re.compile(r"^[A-Za-z][A-Za-z0-9:-]*$")
_MARKUP = re.compile(
    r"\$\$(?P<display>.+?)\$\$"
    r"|(?<![\\$])\$(?P<inline>[^$\n]+?)\$"
    r"|`(?P<code>[^`\n]+)`",
    re.DOTALL,
)


def esc(text: object) -> str:
    return html.escape(str(text), quote=True)


def _serialize_mathml(element: Element) -> str:
    """MathML from latex2mathml's element tree, escaping every text (it does not)."""
    tag = element.tag.rsplit("}", 1)[-1]
    if not _SAFE_NAME.match(tag):
        raise ValueError(f"unexpected MathML tag {tag!r}")
    attrs = "".join(
        f' {name}="{esc(html.unescape(value))}"'
        for name, value in element.attrib.items()
        if name != "xmlns" and _SAFE_NAME.match(name)
    )
    parts = [f"<{tag}{attrs}>", esc(html.unescape(element.text or ""))]
    for child in element:
        parts.append(_serialize_mathml(child))
        parts.append(esc(html.unescape(child.tail or "")))
    parts.append(f"</{tag}>")
    return "".join(parts)


def latex_to_mathml(latex: str, *, display: bool = False) -> str | None:
    """MathML for a LaTeX formula, or ``None`` when latex2mathml cannot convert it."""
    try:
        from latex2mathml.converter import convert_to_element

        element = convert_to_element(latex, display="block" if display else "inline")
        return _serialize_mathml(element)
    except Exception:  # latex2mathml raises many types on malformed input
        return None


def render_inline(text: str) -> str:
    """Escaped text with ``$...$``/``$$...$$`` as MathML and ```code``` as ``<code>``."""
    parts: list[str] = []
    pos = 0
    for match in _MARKUP.finditer(text):
        parts.append(esc(text[pos : match.start()].replace("\\$", "$")))
        pos = match.end()
        if match.group("code") is not None:
            parts.append(f"<code>{esc(match.group('code'))}</code>")
            continue
        display = match.group("display") is not None
        latex = match.group("display") if display else match.group("inline")
        mathml = latex_to_mathml(latex.strip(), display=display)
        parts.append(mathml if mathml is not None else esc(match.group()))
    parts.append(esc(text[pos:].replace("\\$", "$")))
    return "".join(parts)


def render_text(text: str) -> str:
    """Paragraphs (separated by blank lines) of :func:`render_inline` text."""
    paragraphs = [p.strip() for p in re.split(r"\n\s*\n", text.strip()) if p.strip()]
    return "".join(f"<p>{render_inline(' '.join(p.split()))}</p>" for p in paragraphs)


# ---------------------------------------------------------------- Lean highlighting


def _gap(text: str) -> str:
    """Text between tokens: whitespace, line comments and (non-doc) block comments."""
    parts: list[str] = []
    pos = 0
    while pos < len(text):
        space = re.match(r"\s+", text[pos:])
        if space:
            end = pos + space.end()
            parts.append(esc(text[pos:end]))
        elif text.startswith("--", pos):
            newline = text.find("\n", pos)
            end = len(text) if newline < 0 else newline
            parts.append(f'<span class="cm">{esc(text[pos:end])}</span>')
        elif text.startswith("/-", pos):
            depth, end = 0, pos
            for match in re.finditer(r"/-|-/", text[pos:]):
                depth += 1 if match.group() == "/-" else -1
                end = pos + match.end()
                if depth == 0:
                    break
            else:
                end = len(text)
            parts.append(f'<span class="cm">{esc(text[pos:end])}</span>')
        else:  # not expected between tokens; keep it as plain text
            end = len(text)
            parts.append(esc(text[pos:]))
        pos = end
    return "".join(parts)


def highlight_lean(code: str) -> str:
    """Lean source as HTML with ``<span class=...>`` for keywords, names, comments, literals."""
    source = lex(code)
    parts: list[str] = []
    pos = 0
    after_decl_keyword = False
    for kind, text, offset in source.tokens:
        if offset < pos:  # never expected; keep the text intact rather than duplicate it
            continue
        if offset > pos:
            parts.append(_gap(code[pos:offset]))
        cls: str | None = None
        if kind == IDENT:
            if text in LEAN_KEYWORDS:
                cls = "kw"
            elif after_decl_keyword:
                cls = "decl"
            else:
                cls = "id"
        elif kind in (DOC, MODDOC):
            cls = "doc"
        elif kind in (STRING, CHAR):
            cls = "str"
        elif kind == NUMBER:
            cls = "num"
        elif kind == HASH or text in LEAN_SYMBOL_KEYWORDS:
            cls = "kw"
        after_decl_keyword = kind == IDENT and text in DECL_KEYWORDS
        parts.append(f'<span class="{cls}">{esc(text)}</span>' if cls else esc(text))
        pos = offset + len(text)
    rest = code[pos:]
    if source.error is not None or source.exit_offset is not None:
        parts.append(esc(rest))
    elif rest:
        parts.append(_gap(rest))
    return "".join(parts)


# ---------------------------------------------------------------- dependency graph

NODE_WIDTH = 200
NODE_HEIGHT = 36
LAYER_GAP = 70
ROW_GAP = 18
MARGIN = 16
#: Label lines break after a hyphen once longer than this; a longer piece widens its box.
MAX_LABEL = 22
#: Advance of one character of the 13px monospace label font (0.6 em, rounded up).
CHAR_WIDTH = 8.0
LINE_HEIGHT = 16
LABEL_PAD = 10


@dataclass(frozen=True)
class Layout:
    """Layer (column, left to right) and row of every node.

    An edge spanning several layers passes through one dummy node per layer in between
    (``chains``), so it gets a row of its own there instead of running through real nodes.
    """

    layers: list[list[str]]
    chains: dict[tuple[str, str], list[str]] = field(default_factory=dict)

    def position(self) -> dict[str, tuple[int, int]]:
        return {node: (i, j) for i, layer in enumerate(self.layers) for j, node in enumerate(layer)}

    def is_dummy(self, node: str) -> bool:
        return node.startswith(DUMMY)


DUMMY = "\0"  # prefix of dummy nodes: never the start of a target id


def layered_layout(
    nodes: Sequence[str], edges: Sequence[tuple[str, str]], sink: str | None = None
) -> Layout:
    """Longest-path layers from the sources; ``sink`` (the goal) in the last layer when nothing
    depends on it; rows ordered by barycenter sweeps to reduce crossings.

    ``edges`` are ``(dependency, dependent)`` pairs; edges closing a cycle are ignored.
    """
    preds: dict[str, list[str]] = {n: [] for n in nodes}
    succs: dict[str, list[str]] = {n: [] for n in nodes}
    for a, b in edges:
        if a in preds and b in preds and a != b:
            preds[b].append(a)
            succs[a].append(b)
    layer: dict[str, int] = {}
    visiting: set[str] = set()

    def depth(node: str) -> int:
        if node in layer:
            return layer[node]
        if node in visiting:  # a cycle: the catalog rejects these, but never loop
            return -1
        visiting.add(node)
        value = max((depth(p) + 1 for p in preds[node]), default=0)
        visiting.discard(node)
        layer[node] = max(value, 0)
        return layer[node]

    for node in nodes:
        depth(node)
    count = max(layer.values(), default=-1) + 1
    if sink is not None and sink in layer and not succs[sink]:
        last = max((v for n, v in layer.items() if n != sink), default=-1) + 1
        layer[sink] = max(layer[sink], last)
        count = max(count, last + 1)
    layers: list[list[str]] = [[] for _ in range(count)]
    for node in nodes:  # catalog order is the starting order within each layer
        layers[layer[node]].append(node)
    chains: dict[tuple[str, str], list[str]] = {}
    for a in nodes:
        for b in list(succs[a]):
            if layer[b] - layer[a] <= 1:
                continue
            chain = [f"{DUMMY}{a}{DUMMY}{b}{DUMMY}{k}" for k in range(layer[a] + 1, layer[b])]
            chains[(a, b)] = chain
            succs[a].remove(b)
            preds[b].remove(a)
            path = [a, *chain, b]
            for k, dummy in enumerate(chain, start=layer[a] + 1):
                layers[k].append(dummy)
                preds[dummy], succs[dummy] = [], []
            for x, y in itertools.pairwise(path):
                succs[x].append(y)
                preds[y].append(x)

    def sweep(index: int, neighbours: dict[str, list[str]]) -> None:
        where = {n: j for lay in layers for j, n in enumerate(lay)}

        def key(node: str) -> float:
            around = [where[n] for n in neighbours[node]]
            return sum(around) / len(around) if around else float(where[node])

        layers[index].sort(key=key)  # stable: ties keep their order

    for _ in range(2):
        for i in range(1, count):
            sweep(i, preds)
        for i in range(count - 2, -1, -1):
            sweep(i, succs)
    return Layout(layers, chains)


def label_lines(text: str) -> list[str]:
    """A node label broken after hyphens into lines of at most :data:`MAX_LABEL` characters.

    Nothing is cut or split inside a word: a hyphen-free piece longer than the limit keeps
    a line of its own and the box grows to fit it (see :func:`_node_size`).
    """
    lines: list[str] = []
    current = ""
    for piece in re.findall(r"[^-]+-?|-", text):
        if current and len(current) + len(piece.rstrip("-")) > MAX_LABEL:
            lines.append(current)
            current = piece
        else:
            current += piece
    lines.append(current)
    return lines


def _node_size(label: str) -> tuple[float, float]:
    lines = label_lines(label)
    width = max(NODE_WIDTH, max(len(line) for line in lines) * CHAR_WIDTH + 2 * LABEL_PAD)
    height = max(NODE_HEIGHT, len(lines) * LINE_HEIGHT + 2 * LABEL_PAD)
    return width, height


def dependency_svg(mission: dict[str, Any]) -> str:
    """Inline SVG of a mission's targets (``report_json`` form), milestones flowing into
    the goal; every node links to ``#target-<id>`` on the same page."""
    targets = mission["targets"]
    ids = [t["id"] for t in targets]
    by_id = {t["id"]: t for t in targets}
    edges = [(dep, t["id"]) for t in targets for dep in t["depends_on"] if dep in by_id]
    goal = next((t["id"] for t in targets if t["kind"] == "goal"), None)
    layout = layered_layout(ids, edges, goal)
    # every box is as wide as its column's widest label and as tall as its own label
    size = {
        node: _node_size(node) if not layout.is_dummy(node) else (0.0, float(NODE_HEIGHT))
        for layer in layout.layers
        for node in layer
    }
    columns = [max((size[n][0] for n in layer), default=NODE_WIDTH) for layer in layout.layers]
    columns = [max(c, NODE_WIDTH) for c in columns]
    heights = [
        sum(size[n][1] for n in layer) + max(len(layer) - 1, 0) * ROW_GAP for layer in layout.layers
    ]
    tallest = max(heights, default=NODE_HEIGHT)
    width = 2 * MARGIN + sum(columns) + max(len(columns) - 1, 0) * LAYER_GAP
    height = 2 * MARGIN + tallest
    box: dict[str, tuple[float, float]] = {}
    node_width: dict[str, float] = {}
    node_height: dict[str, float] = {}
    left = float(MARGIN)
    for i, layer in enumerate(layout.layers):
        top = MARGIN + (tallest - heights[i]) / 2
        for node in layer:
            box[node] = (left, top)
            node_width[node] = columns[i]
            node_height[node] = size[node][1]
            top += size[node][1] + ROW_GAP
        left += columns[i] + LAYER_GAP
    title = f"Dependency graph of {mission['title']}"
    flows = "; ".join(f"{a} → {b}" for a, b in edges) or "no dependencies between targets"
    statuses = ", ".join(f"{t['id']} ({t['status']})" for t in targets)
    desc = (
        f"{plural(len(targets), 'target')}, coloured by status: {statuses}. "
        f"Arrows run from a target to what uses it: {flows}."
    )
    parts = [
        f'<svg class="graph" role="img" aria-label="{esc(title)}" '
        f'aria-describedby="graph-desc" width="{width}" height="{height}" '
        f'viewBox="0 0 {width} {height}">',
        f"<title>{esc(title)}</title>",
        f'<desc id="graph-desc">{esc(desc)}</desc>',
        '<defs><marker id="arrow" viewBox="0 0 10 10" refX="10" refY="5" markerWidth="6" '
        f'markerHeight="6" orient="auto-start-reverse"><path d="M0,0 L10,5 L0,10 z" '
        f'fill="{EDGE_COLOUR}"/></marker></defs>',
    ]
    routes = {(a, b): [a, *layout.chains.get((a, b), []), b] for a, b in edges}
    # spread the ends of several edges along a node's side, ordered by where they come from
    start: dict[tuple[str, str], float] = {}
    end: dict[tuple[str, str], float] = {}
    for node in ids:
        outgoing = sorted((e for e in edges if e[0] == node), key=lambda e: box[routes[e][1]][1])
        incoming = sorted((e for e in edges if e[1] == node), key=lambda e: box[routes[e][-2]][1])
        for side, chosen in ((start, outgoing), (end, incoming)):
            for k, edge in enumerate(chosen):
                side[edge] = box[node][1] + node_height[node] * (k + 1) / (len(chosen) + 1)
    for a, b in edges:
        points = [box[n] for n in routes[(a, b)]]
        sx, sy = points[0][0] + node_width[a], start[(a, b)]
        path = [f"M{sx:.1f},{sy:.1f}"]
        steps = zip(points[1:], routes[(a, b)][1:], strict=True)
        for k, ((x, y), through) in enumerate(steps, start=1):
            last = k == len(points) - 1
            tx, ty = x, end[(a, b)] if last else y + node_height[through] / 2
            bend = max((tx - sx) / 2, 20)
            path.append(f"C{sx + bend:.1f},{sy:.1f} {tx - bend:.1f},{ty:.1f} {tx:.1f},{ty:.1f}")
            if not last:  # through a dummy: straight across its column
                sx, sy = x + node_width[through], ty
                path.append(f"L{sx:.1f},{sy:.1f}")
        parts.append(
            f'<path class="edge" data-from="{esc(a)}" data-to="{esc(b)}" '
            f'd="{" ".join(path)}" marker-end="url(#arrow)"/>'
        )
    for node in ids:
        target = by_id[node]
        x, y = box[node]
        kind = " goal" if target["kind"] == "goal" else ""
        tip = f"{node}: {target['title']} ({target['status']})"
        parts.append(
            f'<a class="node {esc(target["status"])}{kind}" data-target="{esc(node)}" '
            f'href="#target-{esc(node)}" aria-label="{esc(tip)}">'
            f"<title>{esc(tip)}</title>"
            f'<rect x="{x:.1f}" y="{y:.1f}" width="{node_width[node]:.1f}" '
            f'height="{node_height[node]:.1f}" rx="6"/>'
            + _label_svg(node, x + node_width[node] / 2, y + node_height[node] / 2)
            + "</a>"
        )
    parts.append("</svg>")
    return "".join(parts)


def _label_svg(label: str, cx: float, cy: float) -> str:
    """The label as one ``<text>`` with a ``<tspan>`` per line, centred on (cx, cy)."""
    lines = label_lines(label)
    spans = "".join(
        f'<tspan x="{cx:.1f}" y="{cy + (i - (len(lines) - 1) / 2) * LINE_HEIGHT:.1f}">'
        f"{esc(line)}</tspan>"
        for i, line in enumerate(lines)
    )
    return f'<text text-anchor="middle" dominant-baseline="central">{spans}</text>'


# ---------------------------------------------------------------- pages


#: Pages of the dashboard itself: a mission with one of these ids gets ``mission-ID.html``.
SITE_PAGES = frozenset({"index", "errata"})


def page_name(mission_id: str) -> str:
    """The file of a mission's page (never one of the site's own pages)."""
    return f"mission-{mission_id}.html" if mission_id in SITE_PAGES else f"{mission_id}.html"


def _chip(text: str, cls: str, title: str | None = None) -> str:
    tip = f' title="{esc(title)}"' if title else ""
    return f'<span class="chip {esc(cls)}"{tip}>{esc(text)}</span>'


#: How a checker's verdict is coloured: "not run" is never shown as a pass.
_VERDICT_CLS = {"passed": "pass", "failed": "fail", "not run": "neutral"}


def _status_cls(status: str) -> str:
    return {
        "complete": "proved",
        "open": "stated",
        "incomplete": "missing",
        "draft": "neutral",
    }.get(status, status)


def _counts(targets: Iterable[dict[str, Any]]) -> dict[str, int]:
    counts = dict.fromkeys(STATUSES, 0)
    for target in targets:
        counts[target["status"]] = counts.get(target["status"], 0) + 1
    return counts


def _bar(counts: dict[str, int]) -> str:
    """Progress: the filled part is the share of counted targets proved, the rest is track."""
    counted = counts["proved"] + counts["stated"] + counts["missing"]
    share = counts["proved"] / counted if counted else 0.0
    label = f"{counts['proved']} of {counted} counted targets proved ({100 * share:.0f}%)"
    fill = (
        f'<span class="proved" style="width:{100 * share:.2f}%"></span>' if counts["proved"] else ""
    )
    return (
        f'<div class="bar" role="progressbar" aria-valuemin="0" aria-valuemax="{counted}" '
        f'aria-valuenow="{counts["proved"]}" aria-label="{esc(label)}" '
        f'title="{esc(label)}">{fill}</div>'
        f'<p class="bar-label muted">{esc(label)}</p>'
    )


def _count_text(counts: dict[str, int]) -> str:
    text = f"{counts['proved']} proved · {counts['stated']} stated · {counts['missing']} missing"
    if counts["external"]:
        text += f" · {counts['external']} external"
    return text


def _evidence_text(targets: Iterable[dict[str, Any]]) -> str:
    found: dict[str, int] = {}
    for target in targets:
        if target["evidence"]:
            found[target["evidence"]] = found.get(target["evidence"], 0) + 1
    if not found:
        return "none"
    return ", ".join(f"{kind}: {n}" for kind, n in sorted(found.items()))


def _witness_state(target: dict[str, Any], module: str | None) -> str | None:
    """``pass``/``fail`` from the last run, ``stale`` when the statement pin moved since the
    witnesses were stamped, ``not run`` for a linked witness never run, else None."""
    result = target.get("witness")
    if isinstance(result, dict):
        if result.get("stale"):
            return "stale"
        if result.get("ok") is None:
            return "not run"
        return "pass" if result.get("ok") else "fail"
    return "not run" if module else None


def _witness_summary(states: Sequence[str | None]) -> str:
    present = [s for s in states if s is not None]
    if not present:
        return "none"
    order = ("fail", "stale", "pass", "not run")
    return ", ".join(f"{present.count(s)} {s}" for s in order if present.count(s))


def _lint_text(counts: dict[str, int] | None) -> str:
    """A mission's or target's lint state, from its ``lint`` counts (``None``: not linted)."""
    if counts is None:
        return "not run"
    if not counts["unaccepted"] and not counts["accepted"]:
        return "no findings"
    return f"{counts['unaccepted']} unaccepted, {counts['accepted']} accepted"


def _nonvacuity_summary(targets: Sequence[dict[str, Any]]) -> str:
    """How many linked targets are shown non-vacuous, not, or unknown (empty if none)."""
    values = [_nonvacuous_text(t["witness"]) for t in targets if isinstance(t.get("witness"), dict)]
    if not values:
        return ""
    parts = [
        f"{values.count(v)} {label}"
        for v, label in (
            ("yes", "non-vacuous"),
            ("no", "non-vacuity failing"),
            ("unknown", "non-vacuity unknown"),
        )
        if values.count(v)
    ]
    return "; " + ", ".join(parts)


def _nonvacuous_text(result: dict[str, Any]) -> str:
    value = result.get("nonvacuous", "unknown")
    if isinstance(value, bool):
        return "yes" if value else "no"
    return "unknown"


def _ladder_text(value: float | None, down: bool) -> str:
    if value is None:
        return "–"
    if value >= 1 or (down and value >= 0.9):
        return f"{'÷' if down else '×'}{(1 / (1 - value)) if down else (1 + value):g}"
    return f"{'−' if down else '+'}{value * 100:g}%"


def _witness_details(result: dict[str, Any]) -> str:
    """Non-vacuity (with the instance) and the smallest detected change of each constant."""
    parts = [f"non-vacuous: {esc(_nonvacuous_text(result))}"]
    if result.get("instance"):
        parts[0] += f" (instance: {esc(result['instance'])})"
    sensitivity = result.get("sensitivity") or {}
    if sensitivity:
        items = [
            f"{esc(name)} {_ladder_text(down, True)} / {_ladder_text(up, False)}"
            for name, (down, up) in sensitivity.items()
        ]
        parts.append("smallest change caught (down / up): " + "; ".join(items))
    if result.get("stale"):
        parts.append("stale: review against the statements, then stamp")
    return "<br>".join(parts)


def _pin_text(pin: dict[str, Any]) -> str:
    if pin["recorded"] is None:
        return "unpinned"
    return "matches the sources" if pin["matches"] else "CHANGED since pinned"


def _source_links(source: dict[str, Any]) -> str:
    links: list[str] = []
    if source.get("arxiv"):
        arxiv = str(source["arxiv"])
        links.append(f'<a href="https://arxiv.org/abs/{esc(arxiv)}">arXiv:{esc(arxiv)}</a>')
    if source.get("doi"):
        doi = str(source["doi"])
        links.append(f'<a href="https://doi.org/{esc(doi)}">doi:{esc(doi)}</a>')
    if source.get("url"):
        url = str(source["url"])
        if re.match(r"^https?://", url):
            links.append(f'<a href="{esc(url)}">{esc(url)}</a>')
        else:
            links.append(esc(url))
    if source.get("repository"):
        repo = str(source["repository"])
        commit = f" at commit <code>{esc(source['commit'])}</code>" if source.get("commit") else ""
        if re.match(r"^(github\.com|gitlab\.com|codeberg\.org)/[\w.-]+/[\w.-]+$", repo):
            links.append(f'repository <a href="https://{esc(repo)}">{esc(repo)}</a>{commit}')
        else:
            links.append(f"repository {esc(repo)}{commit}")
    return " · ".join(links)


def _short(sha: str | None) -> str:
    return sha[:10] if sha else "-"


def _target_view(
    target: dict[str, Any],
    status: TargetStatus,
    source_anchor: dict[str, str],
    witness: str | None,
) -> dict[str, Any]:
    """What ``templates/target.html`` shows of one target."""
    info = status.target
    prov = target["provenance"]
    statement_origin = ORIGIN_LABELS.get(prov["statement"], prov["statement"])
    proof_origin = ORIGIN_LABELS.get(prov.get("proof", "none"), prov.get("proof", "none"))
    chips: list[tuple[str, ...]] = [
        (target["kind"], "neutral"),
        (target["status"], target["status"]),
        (f"Statement: {statement_origin}", "origin", "where the statement comes from"),
        (f"Proof: {proof_origin}", "origin", "where the proof comes from"),
    ]
    if witness is not None:
        chips.append((f"witness: {witness}", witness if witness != "not run" else "neutral"))
    if target.get("lint") is not None:
        unaccepted = target["lint"]["unaccepted"]
        chips.append(
            (
                f"lint: {_lint_text(target['lint'])}",
                "fail" if unaccepted else "pass",
                "lint findings in what this statement reaches (missions lint)",
            )
        )
        if isinstance(target.get("witness"), dict):
            nonvacuous = _nonvacuous_text(target["witness"])
            chips.append(
                (
                    f"non-vacuous: {nonvacuous}",
                    {"yes": "pass", "no": "fail"}.get(nonvacuous, "neutral"),
                    "one instance satisfies every hypothesis of the Lean statement",
                )
            )
    checks = []
    if target.get("checks") and target["kind"] != "external":
        checks = [
            (f"{name}: {c['verdict']}", _VERDICT_CLS.get(c["verdict"], "fail"), c["detail"])
            for name, c in target["checks"].items()
        ]
    details = target.get("witness")
    why = target["reasons"] if target["reasons"] and target["status"] != "proved" else []
    return {
        "id": target["id"],
        "title": target["title"],
        "chips": chips,
        "informal": Markup(render_text(target["informal"])),
        "lean": Markup(highlight_lean(target["lean"])) if target.get("lean") else None,
        "statement": target["statement"],
        "proof": target["proof"],
        "external": info.external,
        "printed": Markup(render_inline(info.printed)) if info.printed else None,
        "evidence": target["evidence"],
        "checks": checks,
        "depends_on": target["depends_on"],
        "source": info.source,
        "source_anchor": source_anchor.get(info.source) if info.source else None,
        "locator": info.locator,
        "step": " · ".join(x for x in (info.step, info.method) if x),
        "facts": ", ".join(info.facts),
        "where": prov.get("where"),
        "witness": info.witness,
        "witness_state": witness,
        "witness_details": Markup(_witness_details(details)) if isinstance(details, dict) else None,
        "why": why,
        "why_heading": "Not counted here" if target["status"] == "external" else "Why not proved",
    }


def _footer(data: dict[str, Any]) -> dict[str, Any]:
    """What every page's footer (``templates/base.html``) says: when and from which commit."""
    return {
        "generated": data["generated"],
        "commit": _short(data["commit"]) if data["commit"] else None,
    }


def mission_page(
    entry: dict[str, Any],
    mission: MissionStatus,
    events: list[HistoryEvent],
    footer: dict[str, Any],
) -> str:
    """A mission's page (``templates/mission.html``) from its report entry."""
    counts = _counts(entry["targets"])
    source_anchor = {s["key"]: f"source-{i}" for i, s in enumerate(entry["sources"], 1)}
    witness_states = [
        _witness_state(t, s.target.witness)
        for t, s in zip(entry["targets"], mission.targets, strict=True)
    ]
    meta = [
        ("Mission", Markup("<code>{}</code>").format(entry["id"])),
        ("Category", entry["category"]),
        ("Status", Markup(_chip(entry["status"], _status_cls(entry["status"])))),
        ("Targets", _count_text(counts)),
        ("Lean module", Markup("<code>{}</code>").format(entry["module"])),
        ("Statement pin", _pin_text(entry["pin"])),
        ("Evidence", _evidence_text(entry["targets"])),
        ("Witnesses", _witness_summary(witness_states) + _nonvacuity_summary(entry["targets"])),
        ("Lint", _lint_text(entry.get("lint"))),
    ]
    sources = [
        {
            "key": source["key"],
            "citation": Markup(render_inline(source["citation"])),
            "links": Markup(_source_links(source)),
            "locators": [Markup(render_inline(x)) for x in source.get("locators", [])],
        }
        for source in entry["sources"]
    ]
    lint = [
        {
            **finding,
            "message": Markup(render_inline(finding["message"])),
            "reason": Markup(render_inline(finding["reason"] or "")),
        }
        for finding in entry.get("lint_findings", [])
    ]
    return render_page(
        "mission.html",
        title=f"{entry['title']} · missions",
        footer=footer,
        id=entry["id"],
        title_text=entry["title"],
        toc=TOC,
        meta=meta,
        bar=Markup(_bar(counts)),
        placeholders=entry.get("placeholders") or [],
        summary=Markup(render_text(entry["summary"])),
        graph=Markup(dependency_svg(entry)),
        statuses=STATUSES,
        targets=[
            _target_view(t, s, source_anchor, w)
            for t, s, w in zip(entry["targets"], mission.targets, witness_states, strict=True)
        ],
        sources=sources,
        conventions=[Markup(render_inline(c)) for c in entry["conventions"]],
        lint=lint,
        revisions=entry["statement_history"],
        regressions=entry.get("regressions") or [],
        events=list(reversed(events)),
        short=_short,
    )


#: The sections of a mission page, in order (anchor, heading).
TOC = (
    ("summary", "Summary"),
    ("graph", "Dependency graph"),
    ("targets", "Targets"),
    ("sources", "Sources"),
    ("conventions", "Conventions"),
    ("lint", "Lint"),
    ("history", "History"),
)


def site_model(analysis: Analysis, mission: MissionStatus) -> dict[str, Any]:
    """What the front page and the errata read of a mission besides its report entry: its
    targets' witness modules and printed claims, and its frontier items."""
    return {
        "witness": [s.target.witness for s in mission.targets],
        "printed": [s.target.printed for s in mission.targets],
        "frontier": [item.as_json() for item in mission_frontier(analysis, mission)],
    }


def index_parts(entry: dict[str, Any], model: dict[str, Any]) -> dict[str, Any]:
    """What the front page and the errata show of one mission (its report entry and
    :func:`site_model`), rendered: its card, its rows of the frontier table and how many,
    how many refutation targets it has, and its errata (``[group, citation, article]``,
    grouped by ``group`` on the errata page). Plain data: a dashboard's state keeps it for
    the missions an edit cannot reach (:mod:`missions.redraw`)."""
    counts = _counts(entry["targets"])
    states = [
        _witness_state(t, module)
        for t, module in zip(entry["targets"], model["witness"], strict=True)
    ]
    card = {
        "id": entry["id"],
        "title": entry["title"],
        "page": page_name(entry["id"]),
        "category": entry["category"],
        "status": entry["status"],
        "status_cls": _status_cls(entry["status"]),
        "bar": Markup(_bar(counts)),
        "rows": [
            ("Targets", _count_text(counts)),
            ("Evidence", _evidence_text(entry["targets"])),
            ("Witnesses", _witness_summary(states) + _nonvacuity_summary(entry["targets"])),
            ("Lint", _lint_text(entry.get("lint"))),
            ("Pin", _pin_text(entry["pin"])),
        ],
    }
    frontier = [
        {
            "href": f"{page_name(i['mission'])}#target-{i['target']}",
            "mission": i["mission"],
            "target": i["target"],
            "status": i["status"],
            "status_cls": _status_cls(i["status"]),
            "file": i["file"],
            "line": i["line"],
            "why": i["reasons"][0] if i["reasons"] else "-",
        }
        for i in model["frontier"]
    ]
    citations = {s["key"]: s["citation"] for s in entry["sources"]}
    errata = []
    targets = zip(entry["targets"], states, model["printed"], strict=True)
    for target, state, printed in targets:
        source = target["source"]
        if target["kind"] != "refutation" or source is None:
            continue
        citation = citations.get(source, source)
        article = {
            "mission": entry["id"],
            "mission_title": entry["title"],
            "page": page_name(entry["id"]),
            "id": target["id"],
            "title": target["title"],
            "status": target["status"],
            "evidence": target["evidence"],
            "printed": Markup(render_inline(printed or "")),
            "locator": target["locator"],
            "informal": Markup(render_inline(" ".join(target["informal"].split()))),
            "statement": target["statement"],
            "proof": target["proof"],
            "witness_state": state,
            "witness_cls": state if state in ("pass", "fail") else "neutral",
        }
        errata.append(
            [
                f"{source}\0{citation}",
                render_inline(citation),
                render_page("erratum.html", t=article),
            ]
        )
    return {
        "card": render_page("card.html", card=card),
        "frontier": render_page("frontier_rows.html", frontier=frontier) if frontier else "",
        "open": len(frontier),
        "refutations": sum(t["kind"] == "refutation" for t in entry["targets"]),
        "errata": errata,
    }


def finding_rows(findings: Iterable[dict[str, Any]]) -> Iterator[Markup]:
    """The rows of a table of gate findings (``check --json``'s objects,
    ``templates/findings.html``), one by one. Made here, not in the template: at 2,000
    missions the front page lists 20,000 of them, and the template's loop over their
    fields took a third of a second."""
    for f in findings:
        yield Markup(
            f"<tr><td><code>{escape(f['rule'])}</code></td>"
            f"<td><code>{escape(f['file'] or '-')}:{escape(f['line'] or 1)}</code></td>"
            f"<td>{escape(f['message'])}</td></tr>"
        )


def index_page(
    data: dict[str, Any], parts: Sequence[dict[str, Any]], footer: dict[str, Any]
) -> Iterator[str]:
    """The front page (``templates/index.html``) from the report's summary, gate and
    progress and each mission's :func:`index_parts`, as the pieces the template renders:
    it lists every mission and open target (7 MB at 2,000 missions), and as one text it
    was held twice, joined and as the pieces it was joined from."""
    gate = data["gate"]
    return (
        _templates()
        .get_template("index.html")
        .generate(
            title="Missions dashboard",
            footer=footer,
            intro=summary_line(data) + ".",
            statuses=STATUSES,
            cards=[Markup(part["card"]) for part in parts],
            frontier=sum(part["open"] for part in parts),
            frontier_rows=[Markup(part["frontier"]) for part in parts if part["open"]],
            progress=Markup(progress_section(data.get("progress"))),
            gate={**gate, "warnings": gate.get("warnings", [])},
            errata=sum(part["refutations"] for part in parts),
        )
    )


def errata_page(parts: Sequence[dict[str, Any]], footer: dict[str, Any]) -> str:
    """Every refutation target (a printed claim shown false), by the source that printed it
    (``templates/errata.html``), from each mission's :func:`index_parts`."""
    by_source: dict[str, dict[str, Any]] = {}
    for part in parts:
        for group, citation, article in part["errata"]:
            found = by_source.setdefault(
                group,
                {
                    "anchor": f"source-{len(by_source) + 1}",
                    "citation": Markup(citation),
                    "targets": [],
                },
            )
            found["targets"].append(Markup(article))
    return render_page(
        "errata.html",
        title="Errata · missions",
        footer=footer,
        sources=list(by_source.values()),
    )


@functools.cache
def _templates() -> Environment:
    """The page templates (``missions/templates``), autoescaped: a value is HTML only where
    the Python side built it as such (``Markup``: highlighted Lean, MathML, SVG, chips)."""
    environment = Environment(
        loader=PackageLoader("missions", "templates"),
        autoescape=True,
        undefined=StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
    )
    environment.globals["chip"] = lambda *args: Markup(_chip(*args))
    environment.globals["plural"] = plural
    environment.globals["finding_rows"] = finding_rows
    return environment


def render_page(template: str, **context: Any) -> str:
    """One page of the dashboard from its template."""
    return _templates().get_template(template).render(**context)


@dataclass
class Site:
    """What a dashboard is written from. A whole run has every mission's report entry,
    analysis and :func:`site_model` and can render every page; the incremental one
    (:mod:`missions.redraw`) has them only for the missions an edit reached, and keeps the
    others' :func:`index_parts` and page keys from the run before."""

    root: Path
    #: the report's data (:func:`missions.report.report_json`) but for its missions
    #: (summary, gate, generation time, commit) and ``progress``
    head: dict[str, Any]
    ids: list[str]
    yamls: list[Path]
    #: the missions whose pages can be rendered: their entries, analyses and models
    entries: dict[int, dict[str, Any]]
    missions: dict[int, MissionStatus]
    models: dict[int, dict[str, Any]]
    #: each mission's :func:`index_parts` and page key (:func:`_page_key`), kept from
    #: before; those of the missions that can be rendered are made by :func:`write_site`
    parts: list[dict[str, Any] | None]
    keys: list[str | None]


def dashboard_site(
    analysis: Analysis, gate: GateResult, witnesses: dict[str, dict[str, Any]] | None = None
) -> Site:
    """The whole dashboard of ``analysis``; ``witnesses`` are the last witness results per
    ``mission/target`` (default: the ones ``missions witness`` saved for this workspace)."""
    if witnesses is None:
        from missions.witness import load_results

        witnesses = load_results(str(analysis.root))
    data = report_json(analysis, gate, witnesses)
    data["progress"] = weekly_progress(
        analysis.root, {m.id: m.file.path for m in analysis.missions}
    )
    count = len(analysis.missions)
    return Site(
        root=analysis.root,
        head=data,
        ids=[mission.id for mission in analysis.missions],
        yamls=[mission.file.path for mission in analysis.missions],
        entries=dict(enumerate(data["missions"])),
        missions=dict(enumerate(analysis.missions)),
        models={i: site_model(analysis, m) for i, m in enumerate(analysis.missions)},
        parts=[None] * count,
        keys=[None] * count,
    )


def write_dashboard(
    analysis: Analysis,
    gate: GateResult,
    out_dir: Path,
    *,
    witnesses: dict[str, dict[str, Any]] | None = None,
) -> list[Path]:
    """Write ``index.html``, one page per mission and ``style.css`` into ``out_dir``."""
    written = write_site(dashboard_site(analysis, gate, witnesses), out_dir)
    assert written is not None  # every page can be rendered
    return written


def write_site(site: Site, out_dir: Path) -> list[Path] | None:
    """Write ``site`` into ``out_dir``: the index, the errata, the style sheet and every
    mission page whose key moved or whose file is not as written. None, with nothing
    written, when such a page belongs to a mission ``site`` cannot render."""
    footer = _footer(site.head)
    rendered = sorted(site.entries)
    histories = mission_histories(site.root, [site.yamls[i] for i in rendered])
    findings: dict[int, str] = {}  # the lint findings' digests (the entries share them)
    for index in rendered:
        entry, yaml = site.entries[index], site.yamls[index]
        site.keys[index] = _page_key(entry, yaml, histories[yaml], footer, findings)
    kept = _PageRecords.open(site.root, out_dir)
    fresh = [
        index
        for index, mission_id in enumerate(site.ids)
        if not kept.intact(out_dir / page_name(mission_id), site.keys[index])
    ]
    if any(index not in site.entries for index in fresh):
        return None
    for index in rendered:
        site.parts[index] = index_parts(site.entries[index], site.models[index])
    parts = cast(list[dict[str, Any]], site.parts)
    out_dir.mkdir(parents=True, exist_ok=True)

    def write_pages(chosen: list[int]) -> list[str]:
        """The pages written, as the sha256 of each one's text."""
        done = []
        for index in chosen:
            entry, events = site.entries[index], histories[site.yamls[index]]
            text = mission_page(entry, site.missions[index], events, footer)
            _emit(out_dir / page_name(entry["id"]), text)
            done.append(hashlib.sha256(text.encode()).hexdigest())
        return done

    # the mission pages are independent: side by side, a share per core (a share whose
    # child failed is written here, where a fault is reported)
    shares = forked.split(fresh, forked.cores() if len(fresh) >= PARALLEL_PAGES else 1)
    for template in ("base.html", "target.html", "mission.html"):
        _templates().get_template(template)  # compiled once, before the children copy them
    children = [forked.start(functools.partial(write_pages, share)) for share in shares[1:]]
    written = [
        _emit(out_dir / "style.css", stylesheet()),
        _emit(out_dir / "index.html", index_page(site.head, parts, footer)),
        _emit(out_dir / "errata.html", errata_page(parts, footer)),
    ]
    digests = write_pages(shares[0])
    for waiting, share in zip(children, shares[1:], strict=True):
        found = waiting()
        digests.extend(write_pages(share) if found is None else found)
    for index, digest in zip(fresh, digests, strict=True):
        kept.record(out_dir / page_name(site.ids[index]), site.keys[index], digest)
    kept.save()
    return written + [out_dir / page_name(mission_id) for mission_id in site.ids]


#: Fewer mission pages than this are written by one process.
PARALLEL_PAGES = 16


PAGES_FILE = "dashboard-pages.json"


@functools.cache
def _renderer() -> str:
    """What renders a page besides its inputs: this package's code, the templates and the
    libraries they call."""
    from importlib.metadata import PackageNotFoundError, version

    from missions import code_fingerprint

    digest = hashlib.sha256(code_fingerprint().encode())
    for path in sorted(Path(__file__).with_name("templates").iterdir()):
        digest.update(path.name.encode() + b"\0" + path.read_bytes())
    for package in ("jinja2", "markupsafe", "latex2mathml"):
        try:
            digest.update(f"\0{package}={version(package)}".encode())
        except PackageNotFoundError:
            digest.update(f"\0{package}".encode())
    return digest.hexdigest()[:24]


def _page_key(
    entry: dict[str, Any],
    yaml_path: Path,
    events: list[HistoryEvent],
    footer: dict[str, Any],
    shared: dict[int, str],
) -> str | None:
    """A digest of everything :func:`mission_page` reads: the mission's report entry (in its
    order), its YAML file (the target models), its history and the footer's commit. The
    generation time is left out: a page kept because nothing else changed says, truly,
    when it was generated. None when the YAML cannot be read (the page is rendered).

    A lint finding's entry is one dict shared by every mission whose closure holds it
    (:func:`missions.report.report_json`); ``shared`` keeps its digest by that dict, so it
    is encoded once, not once per mission."""
    try:
        yaml = yaml_path.read_bytes()
    except OSError:
        return None
    findings = []
    for finding in entry.get("lint_findings", ()):
        digest = shared.get(id(finding))
        if digest is None:
            text = json.dumps(finding, default=str).encode()
            digest = shared[id(finding)] = hashlib.sha256(text).hexdigest()
        findings.append(digest)
    parts = [  # the code and templates key the records file itself (see _PageRecords)
        json.dumps({k: v for k, v in entry.items() if k != "lint_findings"}, default=str),
        ",".join(findings),
        hashlib.sha256(yaml).hexdigest(),
        repr(events),
        repr(footer.get("commit")),
    ]
    return hashlib.sha256("\n".join(parts).encode()).hexdigest()


class _PageRecords:
    """The mission pages a dashboard run wrote, by path: the key of what each was rendered
    from and the digest of its text. The next run into the same folder renders a page again
    only when its key moved or the file no longer holds that text (edited, deleted, lost in
    a crash: no file time is trusted). Kept in the workspace's cache folder; a damaged or
    foreign record renders every page."""

    def __init__(self, path: Path, folder: str, records: dict[str, Any]) -> None:
        self.path, self.folder, self.records = path, folder, records
        self.new: dict[str, list[str]] = {}

    @classmethod
    def open(cls, root: Path, out_dir: Path) -> _PageRecords:
        from missions.cache import default_cache_dir, read_store

        path = default_cache_dir(root) / PAGES_FILE
        return cls(path, str(out_dir.absolute()), read_store(path, _renderer()))

    def intact(self, page: Path, key: str | None) -> bool:
        name = str(page.absolute())
        record = self.records.get(name)
        if key is None or not isinstance(record, list) or record[:1] != [key]:
            return False
        try:
            text = page.read_bytes()
        except OSError:
            return False
        if record[1:] != [hashlib.sha256(text).hexdigest()]:
            return False
        self.new[name] = record
        return True

    def record(self, page: Path, key: str | None, digest: str) -> None:
        if key is not None:
            self.new[str(page.absolute())] = [key, digest]

    def save(self) -> None:
        """This run's pages, and those other folders' runs recorded."""
        from missions.cache import write_store

        inside = self.folder + os.sep
        kept = {p: r for p, r in self.records.items() if not p.startswith(inside)}
        write_store(self.path, _renderer(), {**kept, **self.new})


def _emit(path: Path, text: str | Iterable[str]) -> Path:
    atomic_write_text(path, text, durable=False)  # regenerated: see atomic_write_text
    path.chmod(0o644)  # published as a static site: readable by the web server
    return path
