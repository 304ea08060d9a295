"""The dashboard's progress chart: the weekly series of :mod:`missions.progress` as inline SVG.

No script and no external file: the dashboard is a static site that works offline. The SVG
scales to its box (``viewBox``), so a phone shows the whole chart without scrolling, and a
table below it carries the same numbers for screen readers and for copying.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from html import escape
from typing import Any

WIDTH, HEIGHT = 640, 220
LEFT, RIGHT, TOP, BOTTOM = 40, 12, 12, 36
#: (label, colour, value of a point): proved tiers are separate lines, never one sum.
SERIES: tuple[tuple[str, str, Callable[[Mapping[str, Any]], int]], ...] = (
    ("proved (kernel)", "#1b7a3a", lambda p: int(p["proved"].get("kernel", 0))),
    ("proved (source)", "#6cc070", lambda p: int(p["proved"].get("source", 0))),
    ("stated", "#d49a1e", lambda p: int(p["stated"])),
    ("missing", "#9a9a9a", lambda p: int(p["missing"])),
)


def _x(index: int, count: int) -> float:
    span = WIDTH - LEFT - RIGHT
    return LEFT + (span * index / (count - 1) if count > 1 else span / 2)


def _y(value: int, top: int) -> float:
    return HEIGHT - BOTTOM - (HEIGHT - TOP - BOTTOM) * value / max(top, 1)


def progress_svg(points: list[Mapping[str, Any]]) -> str:
    """A line per series over the weeks, the first and last week named on the axis."""
    count = len(points)
    top = max((value(p) for p in points for _, _, value in SERIES), default=0)
    parts = [
        f'<svg class="chart" viewBox="0 0 {WIDTH} {HEIGHT}" role="img" '
        'aria-labelledby="progress-title">',
        '<title id="progress-title">Targets per week by recorded status</title>',
        f'<line x1="{LEFT}" y1="{HEIGHT - BOTTOM}" x2="{WIDTH - RIGHT}" '
        f'y2="{HEIGHT - BOTTOM}" stroke="#888"/>',
        f'<text x="{LEFT - 6}" y="{TOP + 4}" text-anchor="end" font-size="11">{top}</text>',
        f'<text x="{LEFT - 6}" y="{HEIGHT - BOTTOM}" text-anchor="end" font-size="11">0</text>',
    ]
    for index in sorted({0, count - 1}):
        anchor = "start" if index == 0 and count > 1 else "end" if count > 1 else "middle"
        parts.append(
            f'<text x="{_x(index, count):.1f}" y="{HEIGHT - BOTTOM + 16}" '
            f'text-anchor="{anchor}" font-size="11">{escape(str(points[index]["week"]))}</text>'
        )
    for label, colour, value in SERIES:
        xy = [(_x(i, count), _y(value(p), top)) for i, p in enumerate(points)]
        if count > 1:
            path = " ".join(f"{x:.1f},{y:.1f}" for x, y in xy)
            parts.append(
                f'<polyline fill="none" stroke="{colour}" stroke-width="2" points="{path}">'
                f"<title>{escape(label)}</title></polyline>"
            )
        parts += [f'<circle cx="{x:.1f}" cy="{y:.1f}" r="2.5" fill="{colour}"/>' for x, y in xy]
    parts.append("</svg>")
    return "".join(parts)


def progress_section(progress: Mapping[str, Any] | None, last: int = 12) -> str:
    """The index page's progress: chart, legend and the last weeks as a table."""
    points = list((progress or {}).get("workspace", []))
    if not points:
        return "<p>No committed history of the mission files yet.</p>"
    legend = "".join(
        f'<li><span class="swatch" style="background:{colour}"></span>{escape(label)}</li>'
        for label, colour, _ in SERIES
    )
    heads = ["Week", *(label for label, _, _ in SERIES), "Pin moves", "Lint allows"]
    rows = []
    for point in points[-last:]:
        cells = [escape(str(point["week"])), *(str(value(point)) for _, _, value in SERIES)]
        cells += [str(point["pin_moves"]), str(point.get("lint_allows", 0))]
        rows.append("<tr>" + "".join(f"<td>{c}</td>" for c in cells) + "</tr>")
    return (
        f"<figure>{progress_svg(points)}"
        f'<figcaption><ul class="legend">{legend}</ul>As recorded by <code>missions sync</code>'
        " in each week's last commit (proved split by evidence tier).</figcaption></figure>"
        # every table of the dashboard is in a box of its own that scrolls sideways
        '<div class="scroll" tabindex="0"><table><thead><tr>'
        + "".join(f"<th>{h}</th>" for h in heads)
        + "</tr></thead><tbody>"
        + "".join(rows)
        + "</tbody></table></div>"
    )
