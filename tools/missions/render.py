"""Terminal rendering of ``status`` from its JSON form.

Rendering from the JSON contract (not from live objects) lets the start-up fast path print
a cached result with nothing but rich loaded.

The view is built for an 80-column terminal, like ``git status``: per mission a header line
and one line per target (id whole, status, evidence, witness), an unusual reason indented
under its target, and at the end what the reader needs in view: how many targets are open
for the ordinary reason (``sorry`` in their own proof), what the codes shown mean, the
evidence, and the overview as the last line. Nothing is a table that folds: on a
terminal, reasons wrap at spaces with a hanging indent and identifiers are never split (a
token longer than the line is printed whole and the terminal wraps it); when the output is
not a terminal nothing wraps at all, so every line can be grepped. Colour comes from rich,
which uses it only on a terminal and never when ``NO_COLOR`` is set.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from rich.console import Console
from rich.text import Text

STATUS_STYLE = {"proved": "green", "stated": "yellow", "missing": "red", "external": "cyan"}
MISSION_STYLE = {"complete": "green", "open": "yellow", "incomplete": "red", "draft": "magenta"}

#: Width of the status and evidence columns ("external", "source"/"kernel").
STATUS_WIDTH = 8
EVIDENCE_WIDTH = 6
#: The widest witness cell (state, then non-vacuity) and lint cell.
WITNESS_WIDTH = len("witness stale nv?")
LINT_WIDTH = len(" lint 99")
#: The id column never grows beyond what leaves this much room for the other columns.
OTHER_COLUMNS = 2 + 1 + STATUS_WIDTH + 1 + EVIDENCE_WIDTH + 1 + WITNESS_WIDTH + LINT_WIDTH
INDENT = "  "


def status_text(status: str) -> Text:
    return Text(status, style=STATUS_STYLE.get(status, ""))


def plural(count: int, noun: str) -> str:
    """``1 mission``, ``2 missions``, ``0 missions``."""
    return f"{count} {noun}" if count == 1 else f"{count} {noun}s"


def summary_line(data: dict[str, Any]) -> str:
    """``10 missions, 2 complete · 46 targets: 5 proved, 36 stated, 5 external``.

    ``proved`` is always named; other target counts only when not zero (as ``pytest -q``).
    """
    s = data["summary"]
    missions = plural(s["missions"], "mission")
    states = [f"{s.get('complete', 0)} complete"]
    if s.get("draft"):
        states.append(f"{s['draft']} draft")
    counts = [f"{s['proved']} proved"]
    counts += [f"{s[k]} {k}" for k in ("stated", "missing", "external") if s.get(k)]
    return (
        f"{missions}, {', '.join(states)} · {plural(s['targets'], 'target')}: {', '.join(counts)}"
    )


def evidence_line(data: dict[str, Any]) -> str:
    if data.get("evidence") == "kernel":
        return "evidence: the Lean kernel (audit of the built workspace)"
    return "evidence: a source scan of the Lean files (no sorry visible; not compiled)"


def wrap_words(first: str, text: str, indent: int, width: int | None) -> list[str]:
    """``first + text`` broken at spaces into lines of at most ``width`` characters.

    Continuation lines start with ``indent`` spaces. Words are never split: a word longer
    than the room left gets a line of its own, longer than ``width``. ``width`` None means
    one line, however long.
    """
    words = text.split()
    if width is None or not words:
        return [(first + " ".join(words)).rstrip()]
    lines: list[str] = []
    current = first + words[0]
    for word in words[1:]:
        if len(current) + 1 + len(word) <= width:
            current += " " + word
        else:
            lines.append(current)
            current = " " * indent + word
    lines.append(current)
    return lines


def _id_width(missions: Iterable[dict[str, Any]], width: int | None) -> int:
    longest = max((len(t["id"]) for m in missions for t in m["targets"]), default=4)
    if width is None:
        return longest
    return max(4, min(longest, width - OTHER_COLUMNS))


def _mission_header(mission: dict[str, Any]) -> Text:
    targets = mission["targets"]
    counted = [t for t in targets if t["status"] != "external"]
    proved = sum(t["status"] == "proved" for t in counted)
    external = len(targets) - len(counted)
    line = Text()
    line.append(mission["id"], style="bold")
    line.append("  ")
    line.append(mission["status"], style=MISSION_STYLE.get(mission["status"], ""))
    line.append(f" · {proved} of {len(counted)} proved")
    if external:
        line.append(f", {external} external")
    return line


def _target_line(target: dict[str, Any], id_width: int) -> Text:
    line = Text(INDENT)
    line.append(target["id"].ljust(id_width))
    line.append(" ")
    status = target["status"]
    evidence = target["evidence"] or ""
    witness = target.get("witness")
    line.append(status.ljust(STATUS_WIDTH), style=STATUS_STYLE.get(status, ""))
    if evidence or witness:
        line.append(" " + evidence.ljust(EVIDENCE_WIDTH))
    if isinstance(witness, dict):
        line.append(" witness ")
        line.append_text(_witness_cell(witness))
    lint = target.get("lint")
    if isinstance(lint, dict) and lint.get("unaccepted"):
        line.append(" lint ")
        line.append(str(lint["unaccepted"]), style="bold red")
    line.rstrip()
    return line


def _witness_cell(witness: dict[str, Any]) -> Text:
    """``pass``/``FAIL``/``stale``/``-`` (never run), then non-vacuity when it is not shown:
    ``nv?`` (no instance shown to satisfy every hypothesis), ``VACUOUS`` (the instance
    violates one). ``missions show`` spells both out."""
    ok = witness.get("ok")
    if witness.get("stale"):
        cell = Text("stale", style="yellow")
    elif ok is None:
        cell = Text("-", style="dim")
    else:
        cell = Text("pass", style="green") if ok else Text("FAIL", style="bold red")
    nonvacuous = witness.get("nonvacuous", "unknown")
    if nonvacuous is False:
        cell.append(" VACUOUS", style="bold red")
    elif nonvacuous is not True:
        cell.append(" nv?", style="dim")
    return cell


def ordinary(target: dict[str, Any]) -> bool:
    """The everyday reason an open target is open: ``sorry`` in its own proof, and nothing
    else. The default view counts these instead of printing each."""
    reasons = target["reasons"]
    proof = target.get("proof")
    return (
        len(reasons) == 1
        and proof is not None
        and reasons[0].startswith(f"sorry in {proof} at ")
        and "(used by" not in reasons[0]
    )


def _draft_lines(mission: dict[str, Any], width: int | None) -> list[Text]:
    placeholders = mission.get("placeholders") or []
    if not placeholders:
        return []
    first = placeholders[0]
    text = (
        f"{plural(len(placeholders), 'placeholder')} (TODO) left from `missions new`, "
        f"first at {first['file']}:{first['line']}; `missions check` lists them"
    )
    return [
        Text(piece, style="magenta") for piece in wrap_words(INDENT + "draft: ", text, 4, width)
    ]


def _reasons_of(target: dict[str, Any], why: bool, width: int | None) -> list[Text]:
    """Under a target's line: every reason with ``why``; else its first one, unless it is
    the ordinary one (:func:`ordinary`), which the footer counts."""
    if target["status"] in ("proved", "external") and not (why and target["reasons"]):
        return []
    reasons = list(target["reasons"])
    if not reasons:
        return []
    if not why:
        if ordinary(target):
            return []
        more = len(reasons) - 1
        reasons = [reasons[0] + (f" (+{more} more: --why)" if more else "")]
    lines: list[Text] = []
    for reason in reasons:
        lines.extend(Text(p, style="dim") for p in wrap_words(f"{INDENT * 2}↳ ", reason, 6, width))
    return lines


#: What each code of the witness cell means, in the order they are explained.
LEGEND = {
    "-": "-: not run",
    "stale": "stale: not stamped at the statement pin",
    "nv?": "nv?: no instance shown to meet every hypothesis",
    "VACUOUS": "VACUOUS: the instance violates a hypothesis",
}


def _legend(missions: list[dict[str, Any]], width: int | None) -> list[Text]:
    shown: set[str] = set()
    for mission in missions:
        for target in mission["targets"]:
            witness = target.get("witness")
            if isinstance(witness, dict):
                shown.update(_witness_cell(witness).plain.split())
    parts = [text for code, text in LEGEND.items() if code in shown]
    if not parts:
        return []
    return [Text(p, style="dim") for p in wrap_words("witness: ", "; ".join(parts), 2, width)]


def status_lines(
    data: dict[str, Any], *, why: bool = False, width: int | None = None
) -> list[Text]:
    """Every line of the status view: the missions, then what the reader needs last (how
    many targets are open for the ordinary reason, what the codes mean, the evidence) and
    the overview as the very last line, where a terminal leaves it in view.

    ``width`` is the terminal's width; None (output is not a terminal) means no line is
    ever broken. Identifiers are never broken either way.
    """
    missions = data["missions"]
    id_width = _id_width(missions, width)
    lines: list[Text] = []
    collapsed = 0
    for mission in missions:
        lines.append(_mission_header(mission))
        lines.extend(_draft_lines(mission, width))
        for target in mission["targets"]:
            lines.append(_target_line(target, id_width))
            lines.extend(_reasons_of(target, why, width))
            if not why and target["status"] not in ("proved", "external") and ordinary(target):
                collapsed += 1
        lines.append(Text())
    if collapsed:
        text = (
            f"{plural(collapsed, 'open target')} only {'has' if collapsed == 1 else 'have'} "
            f"`sorry` in {'its' if collapsed == 1 else 'their'} own proof "
            "(`missions status --why` says where)"
        )
        lines.extend(Text(p, style="dim") for p in wrap_words("", text, 2, width))
    lines.extend(_legend(missions, width))
    lines.append(Text(evidence_line(data), style="dim"))
    lines.append(Text(summary_line(data), style="bold"))
    return lines


def print_status(console: Console, data: dict[str, Any], *, why: bool = False) -> None:
    """Print the whole view (:func:`status_lines`).

    On a terminal the lines are fitted to its width; otherwise they are written whole.
    ``soft_wrap`` keeps rich from folding or cropping anything itself.
    """
    width = console.width if console.is_terminal else None
    console.print(Text("\n").join(status_lines(data, why=why, width=width)), soft_wrap=True)


# ---------------------------------------------------------------- missions next, doctor


def frontier_lines(data: dict[str, Any], *, width: int | None = None) -> list[Text]:
    """``missions next`` from its JSON form: per frontier target a heading (id, kind, status,
    where to work) and, indented, its first reason.

    On a terminal a heading too wide for it puts the location on a line of its own and the
    reason wraps at spaces; piped, each stays on one line. Only spaces ever become breaks.
    """
    lines: list[Text] = []
    for item in data["frontier"]:
        heading = Text(f"{item['mission']}/{item['target']}", style="bold")
        heading.append(f" ({item['kind']}) ")
        heading.append_text(status_text(item["status"]))
        where = f"{item['file']}:{item['line']}"
        if width is None or len(heading.plain) + 2 + len(where) <= width:
            heading.append(f"  {where}")
            lines.append(heading)
        else:
            lines.extend([heading, Text(f"  {where}")])
        if item["reasons"]:
            reason = wrap_words(" " * 4, item["reasons"][0], 6, width)
            lines.extend(Text(line, style="dim") for line in reason)
    return lines


def advice_lines(advice: Iterable[str], *, width: int | None = None) -> list[Text]:
    """``missions doctor``'s advice, one arrow per item, wrapped under its first word."""
    return [Text(line) for item in advice for line in wrap_words("→ ", item, 2, width)]


# ---------------------------------------------------------------- missions show


def _prose(text: str, indent: int, width: int | None, style: str = "") -> list[Text]:
    """Paragraphs (split at blank lines) wrapped at spaces with ``indent`` on every line."""
    lines: list[Text] = []
    paragraphs = [p for p in text.strip().split("\n\n") if p.strip()]
    for index, paragraph in enumerate(paragraphs):
        if index:
            lines.append(Text())
        pad = " " * indent
        lines.extend(Text(p, style=style) for p in wrap_words(pad, paragraph, indent, width))
    return lines


def _item(label: str, text: str, indent: int, width: int | None, style: str = "") -> list[Text]:
    """``label`` then ``text`` wrapped with continuation lines under the text's start."""
    first = " " * indent + label
    return [Text(p, style=style) for p in wrap_words(first, text, indent + 2, width)]


def _pin_words(pin: dict[str, Any]) -> str:
    if pin["recorded"] is None:
        return "not pinned (run `missions pin`)"
    state = "ok" if pin["matches"] else "CHANGED since the pin"
    at = pin.get("pinned_at")
    if not at:
        return f"{state} (commit not recorded)"
    return f"{state} (pinned at {at if at == 'uncommitted' else at[:12]})"


def show_lines(data: dict[str, Any], *, width: int | None = None) -> list[Text]:
    """``missions show``: one mission from its ``report --format json`` entry.

    Prose wraps at spaces (``width`` None: never); Lean code is printed line by line exactly
    as written, indented by four spaces, and never wrapped or cut here.
    """
    lines: list[Text] = [Text(t, style="bold") for t in wrap_words("", data["title"], 0, width)]
    meta = f"{data['id']} · {data['category']} · {data['status']} · module {data['module']}"
    lines += _item("", meta, 0, width)
    lines += _item("statement pin: ", _pin_words(data["pin"]), 0, width)
    lines.append(Text())
    lines += _prose(data["summary"], 0, width)
    for placeholder in data.get("placeholders") or []:
        lines += _item(
            "draft: ",
            f"TODO left at {placeholder['file']}:{placeholder['line']}",
            0,
            width,
            "magenta",
        )
    lines += [Text(), Text("Sources", style="bold")]
    for source in data["sources"]:
        refs = " ".join(
            f"{label}:{source[key]}"
            for label, key in (("arXiv", "arxiv"), ("doi", "doi"), ("url", "url"))
            if source.get(key)
        )
        lines += _item(f"[{source['key']}] ", f"{source['citation']} {refs}".strip(), 2, width)
        for locator in source.get("locators", []):
            lines += _item("· ", locator, 6, width)
    if data["conventions"]:
        lines += [Text(), Text("Conventions", style="bold")]
        for convention in data["conventions"]:
            lines += _item("· ", convention, 2, width)
    if data.get("facts"):
        lines += [Text(), Text("Facts", style="bold")]
        for fact in data["facts"]:
            lines += _item(f"[{fact['id']}] ", fact["text"].strip(), 2, width)
    for target in data["targets"]:
        lines += [Text(), *_target_heading(target, width)]
        lines += _prose(target["informal"], 2, width)
        locator = " ".join(x for x in (target.get("source"), target.get("locator")) if x)
        if locator:
            lines += _item("source: ", locator, 2, width, "dim")
        if target["depends_on"]:
            lines += _item("depends on: ", ", ".join(target["depends_on"]), 2, width, "dim")
        provenance = target["provenance"]
        lines += _item(
            "provenance: ",
            f"statement {provenance['statement']}, proof {provenance.get('proof', 'none')}",
            2,
            width,
            "dim",
        )
        lint = target.get("lint")
        if lint:
            lines += _item(
                "lint: ",
                f"{lint['unaccepted']} unaccepted, {lint['accepted']} accepted "
                "(`missions lint` for the findings)",
                2,
                width,
                "red" if lint["unaccepted"] else "dim",
            )
        fingerprints = target.get("fingerprints")
        if fingerprints:
            lines += _item(
                "kernel fingerprint: ",
                f"value {fingerprints['value']}, closure {fingerprints['closure']}, "
                f"{plural(len(fingerprints.get('definitions') or {}), 'workspace definition')} "
                f"(Lean {fingerprints.get('lean')}, Mathlib "
                f"{(fingerprints.get('mathlib') or '?')[:12]})",
                2,
                width,
                "dim",
            )
        witness = target.get("witness")
        if isinstance(witness, dict):
            from missions.witness import describe_entry  # only `show` needs it

            lines += _item("", describe_entry(witness), 2, width, "dim")
        if target.get("lean"):
            lines.append(Text())
            lines += [Text("    " + line, style="cyan") for line in target["lean"].splitlines()]
        elif target.get("external"):
            ext = target["external"]
            where = " ".join(str(ext[k]) for k in ("repository", "commit", "path") if ext.get(k))
            lines += _item("external: ", where, 2, width)
        if target["reasons"] and target["status"] != "proved":
            lines.append(Text("  why not proved:", style="dim"))
            for reason in target["reasons"]:
                lines += _item("- ", reason, 4, width, "yellow")
    return lines


def _target_heading(target: dict[str, Any], width: int | None) -> list[Text]:
    """``goal (goal) stated · source · Title``: wrapped at spaces, never cut."""
    status = target["status"]
    head = f"{target['id']} ({target['kind']}) {status} · {target['evidence'] or '-'} · "
    pieces = wrap_words(head, target["title"], 2, width)
    first = Text(pieces[0])
    first.stylize("bold", 0, len(target["id"]))
    start = len(target["id"]) + len(target["kind"]) + 4
    first.stylize(STATUS_STYLE.get(status, ""), start, start + len(status))
    return [first, *(Text(p) for p in pieces[1:])]
