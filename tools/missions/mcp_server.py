"""``missions mcp``: the workspace's answers for agents, over the Model Context Protocol.

An agent asking "is this proved?" needs the evidence tier and what the answer was computed
from, not a bare yes: a stale build once made another server answer "axioms: []" for a proof
that did not check. So every answer here carries a *receipt*: the commit it describes (or
``uncommitted`` when a file the answer depends on differs from HEAD), each mission's
recorded statement pin and the digest of its statement closure now, the toolchain, and the
evidence tier. Every tool is read-only: it analyses the sources as ``status`` does and writes
nothing into the workspace (caches live outside it). Built on the official ``mcp`` SDK (the
``mcp`` extra); its absence is one clear line, never a traceback.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from missions import gitinfo, versions
from missions.errors import InputError
from missions.frontier import frontier, frontier_json
from missions.gate import run_gate
from missions.lint import lint_missions
from missions.load import analyse
from missions.report import gate_json, report_json, status_json
from missions.roots import read_config_text
from missions.status import Analysis, development_modules
from missions.toolchain import mathlib_revision
from missions.witness import load_results, stale_reason

#: The tools, each a read-only question about the workspace.
TOOLS = ("status", "show", "next", "check", "lint", "witness", "explain")
EVIDENCE = "source"


def receipt(analysis: Analysis) -> dict[str, Any]:
    """What an answer was computed from, for exactly the missions it covers."""
    root = analysis.root
    files = [m.file.path for m in analysis.missions]
    for mission in analysis.missions:
        files += [
            analysis.workspace.modules[n].path for n in development_modules(analysis, mission)
        ]
    head = gitinfo.head_commit(root)
    changed = gitinfo.changed_since(root, "HEAD", files) if head else None
    try:
        toolchain = read_config_text(root / "lean-toolchain").strip()
    except (OSError, UnicodeDecodeError):
        toolchain = None
    return {
        "commit": head if head and changed == [] else "uncommitted",
        "head": head,
        "changed": sorted(str(p.relative_to(root)) for p in changed or []),
        "evidence": EVIDENCE,
        "toolchain": toolchain,
        "mathlib": mathlib_revision(root),
        "missions": {
            m.id: {"pin": m.pin.recorded, "closure": m.pin.digest, "pin_matches": m.pin.matches}
            for m in analysis.missions
        },
    }


class Answers:
    """The tools' answers for one workspace, each computed fresh from its files."""

    def __init__(self, root: Path) -> None:
        self.root = root

    def _analysis(self, mission: str | None) -> Analysis:
        versions.forget()  # git history may have moved since the last answer
        return analyse(self.root, [mission] if mission else None)

    def status(self, mission: str | None = None) -> dict[str, Any]:
        analysis = self._analysis(mission)
        data = status_json(analysis, evidence=EVIDENCE, witnesses=load_results(str(self.root)))
        return {"answer": data, "receipt": receipt(analysis)}

    def show(self, mission: str) -> dict[str, Any]:
        analysis = self._analysis(mission)
        gate = run_gate(analysis)
        data = report_json(analysis, gate, load_results(str(self.root)))["missions"][0]
        return {"answer": data, "receipt": receipt(analysis)}

    def next(self, mission: str | None = None) -> dict[str, Any]:
        analysis = self._analysis(mission)
        return {
            "answer": frontier_json(analysis, frontier(analysis)),
            "receipt": receipt(analysis),
        }

    def check(self, mission: str | None = None) -> dict[str, Any]:
        analysis = self._analysis(mission)
        return {"answer": gate_json(run_gate(analysis)), "receipt": receipt(analysis)}

    def lint(self, mission: str | None = None) -> dict[str, Any]:
        analysis = self._analysis(mission)
        result = lint_missions(
            self.root,
            analysis.workspace,
            [m.file.mission for m in analysis.missions],
            catalog=analysis.catalog,
        )
        answer = {
            "ok": not result.failing,
            "findings": [f.to_json() for f in result.findings],
            "counts": result.counts(),
        }
        return {"answer": answer, "receipt": receipt(analysis)}

    def witness(self, mission: str | None = None) -> dict[str, Any]:
        """The last saved witness results (``missions witness`` runs them; this only reads)."""
        analysis = self._analysis(mission)
        saved = load_results(str(self.root))
        answer = []
        for status in analysis.missions:
            info = status.file.mission
            for target in info.targets:
                if target.witness is None:
                    continue
                answer.append(
                    {
                        "mission": info.id,
                        "target": target.id,
                        "witness": target.witness,
                        "result": saved.get(f"{info.id}/{target.id}"),
                        "stale": stale_reason(info),
                    }
                )
        return {"answer": {"witnesses": answer}, "receipt": receipt(analysis)}

    def explain(self, mission: str, target: str) -> dict[str, Any]:
        """Why a target is (not) proved: its status, every reason, where its declarations are."""
        analysis = self._analysis(mission)
        [found] = analysis.missions
        status = next((t for t in found.targets if t.target.id == target), None)
        if status is None:
            known = ", ".join(t.target.id for t in found.targets)
            raise InputError.single(found.file.path, 1, f"no target {target!r} (targets: {known})")

        def where(decl: Any) -> dict[str, Any] | None:
            if decl is None:
                return None
            module, declaration = decl
            return {
                "name": declaration.name,
                "file": str(module.path.relative_to(self.root)),
                "line": declaration.line,
            }

        answer = {
            "mission": mission,
            "target": target,
            "status": status.status,
            "evidence": status.evidence,
            "reasons": status.reasons,
            "statement": where(status.statement_decl),
            "proof": where(status.proof_decl),
            "yaml": {
                "file": str(found.file.path.relative_to(self.root)),
                "line": found.file.target_line(target),
            },
        }
        return {"answer": answer, "receipt": receipt(analysis)}


def build_server(root: Path) -> Any:
    """The MCP server of ``root``'s workspace (imports the SDK: call only when serving)."""
    from mcp.server.mcpserver import MCPServer
    from mcp.server.mcpserver.exceptions import ToolError

    from missions import __version__

    answers = Answers(root)
    server = MCPServer(
        "missions",
        version=__version__,
        instructions="Read-only answers about a Lean formalization workspace; every answer "
        "carries a receipt (commit or 'uncommitted', pins, closure digests, toolchain, "
        "evidence tier). 'proved' here is source evidence, never kernel.",
        log_level="WARNING",
    )

    def answer(method: Any, *args: Any) -> dict[str, Any]:
        try:
            result: dict[str, Any] = method(*args)
        except InputError as exc:  # bad input (an unknown mission, a broken file): say where
            raise ToolError("; ".join(str(p) for p in exc.problems)) from None
        return result

    @server.tool()
    def status(mission: str | None = None) -> dict[str, Any]:
        """Every target's status and evidence (one mission, or all), with a receipt."""
        return answer(answers.status, mission)

    @server.tool()
    def show(mission: str) -> dict[str, Any]:
        """One mission in full: summary, sources, targets with informal and Lean statements."""
        return answer(answers.show, mission)

    @server.tool(name="next")
    def next_(mission: str | None = None) -> dict[str, Any]:
        """The frontier: open targets whose dependencies are all proved (or external)."""
        return answer(answers.next, mission)

    @server.tool()
    def check(mission: str | None = None) -> dict[str, Any]:
        """The gate's violations and warnings (source evidence)."""
        return answer(answers.check, mission)

    @server.tool()
    def lint(mission: str | None = None) -> dict[str, Any]:
        """Lint findings of the statement closures, accepted ones with their reasons."""
        return answer(answers.lint, mission)

    @server.tool()
    def witness(mission: str | None = None) -> dict[str, Any]:
        """The last saved witness results per target and whether they are stale."""
        return answer(answers.witness, mission)

    @server.tool()
    def explain(mission: str, target: str) -> dict[str, Any]:
        """Why a target is or is not proved, with the file and line of each declaration."""
        return answer(answers.explain, mission, target)

    return server


def serve(root: Path) -> None:
    """Answer MCP requests on stdin/stdout until the client closes them."""
    build_server(root).run("stdio")
