"""Refutation targets: a printed claim shown false, with its counterexample found numerically,
its negation stated in Lean, and its erratum on the dashboard."""

from __future__ import annotations

import html
import json
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from typer.testing import CliRunner

from missions.cli import app
from missions.witnesses import WORKSPACE_FOLDER
from missions.yamlio import dump_document, load_document

runner = CliRunner()

PRINTED = "n - 1 < n for every natural number n"
LOCATOR = "Thm. 9, p. 4"
STATEMENT = f'''/-- The claim printed as "{PRINTED}" (Demo paper, {LOCATOR}) is false: at `n = 0`,
`n - 1 = 0` on ℕ. -/
def PrintedClaimFails : Prop := ¬ ∀ n : ℕ, n - 1 < n'''
PROOF = "theorem printed_claim_fails : PrintedClaimFails := fun h => absurd (h 0) (by decide)"

#: The witness: the printed claim checked where it fails; made true (n = 1), no counterexample.
WITNESS = '''"""Errata witness: the printed claim n - 1 < n at its counterexample."""

from __future__ import annotations

from collections.abc import Iterator

from missions.witness import Check, Claim, Context, NonVacuity


def counterexample(ctx: Context, n: int = 0) -> Iterator[Check]:
    monus = max(n - 1, 0)  # subtraction on ℕ
    yield Check(f"n - 1 >= n at n = {n} (the printed n - 1 < n fails)", monus, ">=", n)


CLAIMS = [
    Claim(
        "printed-n-sub",
        "not (forall n, n - 1 < n)",
        counterexample,
        {"the printed claim where it is true (n = 1)": {"n": 1}},
        NonVacuity(reason="a closed statement: the counterexample is n = 0"),
    )
]
'''


def _run(*args: str) -> tuple[int, str, str]:
    result = runner.invoke(app, list(args))
    return result.exit_code, result.stdout, result.stderr


def _erratum() -> dict[str, Any]:
    return {
        "id": "printed-n-sub",
        "kind": "refutation",
        "title": "n - 1 < n fails at n = 0",
        "informal": "At n = 0 the truncated difference n - 1 is 0, and 0 < 0 is false.",
        "printed": PRINTED,
        "source": "demo2024",
        "locator": LOCATOR,
        "statement": "Formal.Demo.PrintedClaimFails",
        "proof": "Formal.Demo.printed_claim_fails",
        "witness": "missions.witnesses.demo_errata",
        "provenance": {"statement": "ai-generated", "proof": "ai-generated"},
    }


def _with_erratum(demo_workspace: Callable[..., Path], **changes: Any) -> Path:
    demo = demo_workspace(extra={"Statements": STATEMENT, "Proofs": PROOF}, settled=False)
    folder = demo / WORKSPACE_FOLDER
    folder.mkdir(exist_ok=True)
    (folder / "demo_errata.py").write_text(WITNESS, encoding="utf-8")
    path = demo / "missions/demo.yaml"
    doc = load_document(path)
    erratum = {**_erratum(), **changes}
    doc["targets"].append({k: v for k, v in erratum.items() if v is not None})
    path.write_text(dump_document(doc), encoding="utf-8")
    return demo


def test_a_refutation_says_what_was_printed_where_and_carries_a_witness(
    demo_workspace: Callable[..., Path],
) -> None:
    for missing in ("printed", "locator", "witness", "source"):
        demo = _with_erratum(demo_workspace, **{missing: None})
        code, _, stderr = _run("validate", "--root", str(demo))
        assert code == 2 and f"needs '{missing}'" in stderr, (missing, stderr)
        demo.rename(demo.with_name(f"ws-{missing}"))
    demo = _with_erratum(demo_workspace)
    code, _, stderr = _run("validate", "--root", str(demo))
    assert code == 0, stderr
    path = demo / "missions/demo.yaml"
    doc = load_document(path)
    doc["targets"][1]["depends_on"] = ["step", "printed-n-sub"]
    path.write_text(dump_document(doc), encoding="utf-8")
    code, _, stderr = _run("validate", "--root", str(demo))
    assert code == 2 and "erratum: no target depends on it" in stderr


def test_the_witness_finds_the_counterexample_and_none_once_the_claim_is_true(
    demo_workspace: Callable[..., Path],
) -> None:
    demo = _with_erratum(demo_workspace)
    code, stdout, stderr = _run("witness", "demo", "--json", "--root", str(demo))
    data = json.loads(stdout)
    [result] = [r for r in data["results"] if r["target"] == "printed-n-sub"]
    assert result["ok"] is True, (stdout, stderr)
    # the printed claim replaced by a true one (its premise n ≥ 1 added): nothing is found
    module = demo / WORKSPACE_FOLDER / "demo_errata.py"
    module.write_text(WITNESS.replace("n: int = 0", "n: int = 1"), encoding="utf-8")
    sys.modules.pop("missions.witnesses.demo_errata", None)  # a new process would read it anew
    code, stdout, _ = _run("witness", "demo", "--json", "--root", str(demo))
    [result] = [r for r in json.loads(stdout)["results"] if r["target"] == "printed-n-sub"]
    assert result["ok"] is False and code == 1


def test_errata_are_proved_like_any_target_and_listed_per_source(
    demo_workspace: Callable[..., Path], tmp_path: Path
) -> None:
    demo = _with_erratum(demo_workspace)
    code, _, stderr = _run("pin", "--root", str(demo))
    assert code == 0, stderr
    code, stdout, _ = _run("status", "--json", "--root", str(demo))
    [mission] = json.loads(stdout)["missions"]
    erratum = next(t for t in mission["targets"] if t["id"] == "printed-n-sub")
    assert (erratum["kind"], erratum["status"], erratum["evidence"]) == (
        "refutation",
        "proved",
        "source",
    )
    out = tmp_path / "site"
    code, _, stderr = _run("report", "--format", "html", "-o", str(out), "--root", str(demo))
    assert code == 0, stderr
    page = (out / "errata.html").read_text(encoding="utf-8")
    assert "A. Author. Demo paper. 2024." in page
    assert html.escape(PRINTED) in page and LOCATOR in page and "PrintedClaimFails" in page
    assert 'href="demo.html#target-printed-n-sub"' in page
    assert "1 printed claim" in (out / "index.html").read_text(encoding="utf-8")
    mission_page = (out / "demo.html").read_text(encoding="utf-8")
    assert "Printed claim</dt><dd>" + html.escape(PRINTED) in mission_page
    blueprint = tmp_path / "bp"
    code, _, _ = _run("export", "--format", "blueprint", "-o", str(blueprint), "--root", str(demo))
    tex = (blueprint / "demo.tex").read_text(encoding="utf-8")
    assert "\\begin{proposition}[{n - 1 < n fails at n = 0}]" in tex
    assert f"Printed: {PRINTED}. Shown false:" in tex


def test_the_comparator_export_includes_a_proved_refutation(
    demo_workspace: Callable[..., Path], tmp_path: Path
) -> None:
    demo = _with_erratum(demo_workspace)
    for command in ("pin", "sync"):
        code, _, stderr = _run(command, "--root", str(demo))
        assert code == 0, stderr
    out = demo / "comparator"
    code, _, stderr = _run("export", "--format", "comparator", "-o", str(out), "--root", str(demo))
    assert code == 0, stderr
    manifest = json.loads((out / "manifest.json").read_text(encoding="utf-8"))
    assert "Formal.Demo.printed_claim_fails" in json.dumps(manifest)
    challenges = "".join(p.read_text("utf-8") for p in out.rglob("*.lean"))
    assert "PrintedClaimFails" in challenges


def test_the_registry_record_lists_the_errata(
    demo_workspace: Callable[..., Path], tmp_path: Path
) -> None:
    demo = _with_erratum(demo_workspace)
    (demo / "missions.yaml").write_text("formalization:\n  authors: [Ada]\n", encoding="utf-8")
    out = tmp_path / "records"
    code, _, stderr = _run(
        "export", "--format", "formalization", "-o", str(out), "--root", str(demo)
    )
    assert code == 0, stderr
    record = load_document(out / "demo" / "formalization.yaml")
    [erratum] = record["status"]["errata"]
    assert (erratum["printed"], erratum["location"]) == (PRINTED, LOCATOR)
    assert erratum["declaration"] == "Formal.Demo.PrintedClaimFails"
