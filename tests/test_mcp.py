"""``missions mcp``: a real MCP client session over stdio, every tool called, every receipt
checked against the workspace it describes."""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from conftest import committed_demo, git
from missions.mcp_server import TOOLS

mcp = pytest.importorskip("mcp", reason="the mcp extra is not installed (pip install -e '.[mcp]')")
anyio = pytest.importorskip("anyio")

from mcp import ClientSession, StdioServerParameters  # noqa: E402
from mcp.client.stdio import stdio_client  # noqa: E402


async def _session(root: Path, calls: list[tuple[str, dict[str, Any]]]) -> dict[str, Any]:
    """Start the server as a user would, initialize, list the tools, make the calls."""
    params = StdioServerParameters(
        command=sys.executable, args=["-m", "missions", "mcp", "--root", str(root)]
    )
    found: dict[str, Any] = {"calls": []}
    async with stdio_client(params) as (read, write), ClientSession(read, write) as session:
        found["init"] = await session.initialize()
        found["tools"] = (await session.list_tools()).tools
        for name, arguments in calls:
            result = await session.call_tool(name, arguments)
            text = "".join(c.text for c in result.content if getattr(c, "text", None))
            found["calls"].append((result.is_error, text))
    return found


def run_session(root: Path, calls: list[tuple[str, dict[str, Any]]]) -> dict[str, Any]:
    return anyio.run(_session, root, calls)


def _expected_receipt(root: Path, uncommitted: bool) -> dict[str, Any]:
    status = json.loads(
        subprocess.run(
            [sys.executable, "-m", "missions", "status", "--json", "--root", str(root)],
            capture_output=True,
            check=True,
            text=True,
        ).stdout
    )
    head = git(root, "rev-parse", "HEAD")
    return {
        "commit": "uncommitted" if uncommitted else head,
        "head": head,
        "evidence": "source",
        "toolchain": (root / "lean-toolchain").read_text("utf-8").strip(),
        "missions": {
            m["id"]: {
                "pin": m["pin"]["recorded"],
                "closure": m["pin"]["current"],
                "pin_matches": m["pin"]["matches"],
            }
            for m in status["missions"]
        },
    }


def test_every_tool_answers_with_a_receipt_of_the_workspace(
    demo_workspace: Callable[..., Path],
) -> None:
    demo = committed_demo(demo_workspace)
    calls: list[tuple[str, dict[str, Any]]] = [
        ("status", {}),
        ("status", {"mission": "demo"}),
        ("show", {"mission": "demo"}),
        ("next", {}),
        ("check", {}),
        ("lint", {}),
        ("witness", {}),
        ("explain", {"mission": "demo", "target": "goal"}),
    ]
    found = run_session(demo, calls)
    assert found["init"].server_info.name == "missions"
    assert sorted(t.name for t in found["tools"]) == sorted(TOOLS)
    assert all(t.description for t in found["tools"])
    expected = _expected_receipt(demo, uncommitted=False)
    answers = {}
    for (name, arguments), (is_error, text) in zip(calls, found["calls"], strict=True):
        assert not is_error, (name, text)
        data = json.loads(text)
        receipt = data["receipt"]
        assert {k: receipt[k] for k in expected} == expected, name
        assert receipt["changed"] == []
        answers[(name, json.dumps(arguments))] = data["answer"]
    status = answers[("status", "{}")]
    assert status["evidence"] == "source"
    [mission] = status["missions"]
    goal = next(t for t in mission["targets"] if t["id"] == "goal")
    explained = answers[("explain", json.dumps({"mission": "demo", "target": "goal"}))]
    assert (explained["status"], explained["evidence"]) == (goal["status"], goal["evidence"])
    assert explained["proof"]["file"] == "Formal/Demo/Proofs.lean"
    proofs = (demo / "Formal/Demo/Proofs.lean").read_text("utf-8").splitlines()
    assert goal["proof"].rsplit(".", 1)[-1] in proofs[explained["proof"]["line"] - 1]
    assert answers[("check", "{}")]["ok"] is True
    assert answers[("show", json.dumps({"mission": "demo"}))]["id"] == "demo"


def test_a_receipt_says_uncommitted_and_the_tier_never_changes(
    demo_workspace: Callable[..., Path],
) -> None:
    demo = committed_demo(demo_workspace)
    proofs = demo / "Formal/Demo/Proofs.lean"
    text = proofs.read_text(encoding="utf-8")
    proofs.write_text(text.replace("  simp [Goal, h]\n", "  sorry\n"), encoding="utf-8")
    found = run_session(demo, [("explain", {"mission": "demo", "target": "goal"})])
    [(is_error, text)] = found["calls"]
    assert not is_error, text
    data = json.loads(text)
    expected = _expected_receipt(demo, uncommitted=True)
    assert {k: data["receipt"][k] for k in expected} == expected
    assert data["receipt"]["changed"] == ["Formal/Demo/Proofs.lean"]
    assert data["answer"]["status"] != "proved"
    assert any("sorry" in reason for reason in data["answer"]["reasons"])


def test_bad_arguments_get_a_clean_error(demo_workspace: Callable[..., Path]) -> None:
    demo = committed_demo(demo_workspace)
    found = run_session(
        demo,
        [
            ("status", {"mission": "dmeo"}),
            ("explain", {"mission": "demo", "target": "nope"}),
            ("show", {}),
        ],
    )
    (e1, t1), (e2, t2), (e3, t3) = found["calls"]
    assert e1 and "unknown mission" in t1 and "demo" in t1 and "Traceback" not in t1
    assert e2 and "no target 'nope'" in t2 and "goal" in t2
    assert e3 and "mission" in t3  # the argument is required
