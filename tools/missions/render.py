"""Terminal rendering of ``status`` from its JSON form.

Rendering from the JSON contract (not from live objects) lets the start-up fast path print
a cached result with nothing but rich loaded.
"""

from __future__ import annotations

from typing import Any

from rich.table import Table
from rich.text import Text

STATUS_STYLE = {"proved": "green", "stated": "yellow", "missing": "red", "external": "cyan"}


def status_text(status: str) -> Text:
    return Text(status, style=STATUS_STYLE.get(status, ""))


def status_table(data: dict[str, Any], *, why: bool = False) -> Table:
    table = Table(
        title="Missions (source evidence: no sorry visible, not compiled)", title_justify="left"
    )
    table.add_column("mission", overflow="fold", ratio=1)
    table.add_column("target", overflow="fold", ratio=1)
    for column in ("kind", "status", "evidence", "witness"):
        table.add_column(column, no_wrap=True, min_width=9)
    table.add_column("why not proved", overflow="fold", ratio=2)
    for mission in data["missions"]:
        targets = mission["targets"]
        for index, target in enumerate(targets):
            reasons = target["reasons"] if why else target["reasons"][:1]
            more = len(target["reasons"]) - len(reasons)
            table.add_row(
                Text(f"{mission['id']}\n[{mission['status']}]") if index == 0 else Text(""),
                target["id"],
                target["kind"],
                status_text(target["status"]),
                target["evidence"] or "-",
                _witness_text(target.get("witness")),
                Text("\n".join(reasons) + (f" (+{more})" if more else "")),
                end_section=index == len(targets) - 1,
            )
    return table


def _witness_text(witness: dict[str, Any] | None) -> Text:
    """pass/FAIL/stale (``-`` when never run), then non-vacuity: ``nv yes/NO/?``."""
    if not witness:
        return Text("-")
    ok = witness.get("ok")
    if witness.get("stale"):
        text = Text("stale", "yellow")
    elif ok is None:
        text = Text("-")
    else:
        text = Text("pass", "green") if ok else Text("FAIL", "red")
    nonvacuous = witness.get("nonvacuous", "unknown")
    label = {True: "yes", False: "NO"}.get(nonvacuous, "?") if isinstance(nonvacuous, bool) else "?"
    text.append(f"\nnv {label}", style="red" if nonvacuous is False else "dim")
    return text


def summary_line(data: dict[str, Any]) -> str:
    s = data["summary"]
    return (
        f"{s['missions']} missions ({s['complete']} complete), {s['targets']} targets: "
        f"{s['proved']} proved, {s['stated']} stated, {s['missing']} missing, "
        f"{s['external']} external"
    )
