"""The command line, through typer's runner and through the installed console script."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest
import typer.main
from typer.testing import CliRunner

from conftest import copy_repo_workspace, line_of
from missions.cli import app

runner = CliRunner()


def run(*args: str) -> tuple[int, str, str]:
    result = runner.invoke(app, list(args))
    return result.exit_code, result.stdout, result.stderr


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    """A copy of this repository's workspace, for what must hold on the bundled catalogue."""
    return copy_repo_workspace(tmp_path)


@pytest.fixture
def demo(demo_workspace: Callable[..., Path]) -> Path:
    """The demo fixture workspace (a proved milestone and goal, pinned and synced), for
    behaviour: it does not change when someone edits or proves a bundled mission."""
    return demo_workspace()


def test_status_json_has_the_contract_keys(demo: Path) -> None:
    code, stdout, _ = run("status", "--json", "--root", str(demo))
    assert code == 0
    data = json.loads(stdout)
    assert set(data) >= {"root", "evidence", "missions", "summary"}
    assert data["root"] == str(demo) and data["evidence"] == "source"
    assert set(data["summary"]) >= {"missions", "targets", "proved", "stated", "missing"}
    summary = {k: data["summary"][k] for k in ("missions", "targets", "proved", "stated")}
    assert summary == {"missions": 1, "targets": 2, "proved": 2, "stated": 0}
    [mission] = data["missions"]
    assert set(mission) >= {"id", "title", "category", "status", "targets"}
    assert (mission["id"], mission["status"]) == ("demo", "complete")
    for target in mission["targets"]:
        assert set(target) >= {"id", "kind", "statement", "proof", "status", "evidence", "reasons"}
    assert [
        (t["id"], t["kind"], t["statement"], t["proof"], t["status"], t["evidence"])
        for t in mission["targets"]
    ] == [
        ("step", "milestone", "Formal.Demo.Step", "Formal.Demo.step", "proved", "source"),
        ("goal", "goal", "Formal.Demo.Goal", "Formal.Demo.goal", "proved", "source"),
    ]


def test_check_passes_on_the_bundled_missions(repo: Path) -> None:
    code, stdout, _ = run("check", "--root", str(repo))
    assert code == 0, stdout
    code, stdout, _ = run("check", "--json", "--root", str(repo))
    data = json.loads(stdout)
    assert (data["ok"], data["violations"]) == (True, [])


def test_check_fails_with_violations_and_exit_1(demo: Path) -> None:
    proofs = demo / "Formal/Demo/Proofs.lean"
    text = proofs.read_text(encoding="utf-8")
    assert "  simp [Goal, h]\n" in text
    proofs.write_text(text.replace("  simp [Goal, h]\n", "  sorry\n"), encoding="utf-8")
    code, stdout, _ = run("check", "--json", "--root", str(demo))
    assert code == 1
    violations = json.loads(stdout)["violations"]
    yaml = demo / "missions/demo.yaml"
    status_lines = [
        i for i, line in enumerate(yaml.read_text("utf-8").splitlines(), 1) if "status:" in line
    ]
    assert [(v["rule"], v["mission"], v["target"], v["file"], v["line"]) for v in violations] == [
        ("status-drift", "demo", "goal", "missions/demo.yaml", status_lines[1]),
        # the recorded proof fell back to sorry: a regression of its own (issue 12)
        ("status-regression", "demo", "goal", "missions/demo.yaml", status_lines[1]),
    ]
    assert set(violations[0]) >= {"rule", "mission", "target", "file", "line", "message"}
    code, stdout, _ = run("check", "--root", str(demo))
    assert code == 1
    assert f"missions/demo.yaml:{status_lines[1]}: [status-drift]" in stdout


def test_malformed_yaml_gives_one_line_per_problem_and_exit_2(demo: Path) -> None:
    path = demo / "missions/demo.yaml"
    text = path.read_text(encoding="utf-8")
    path.write_text(text.replace("kind: goal", "kind: gaol"), encoding="utf-8")
    line = line_of(path, "kind: gaol")
    for command in ("status", "check", "validate", "show demo", "sync", "pin"):
        code, stdout, stderr = run(*command.split(), "--root", str(demo))
        assert code == 2, command
        lines = stderr.strip().splitlines()
        assert len(lines) == 1, stderr
        assert lines[0].startswith(f"{path}:{line}: ")
        assert "targets.1.kind" in lines[0]
        assert "Traceback" not in stdout + stderr
    assert path.read_text(encoding="utf-8") == text.replace("kind: goal", "kind: gaol")


def test_unknown_mission_and_missing_root(demo: Path, tmp_path: Path) -> None:
    code, _, stderr = run("show", "dmeo", "--root", str(demo))
    assert code == 2
    assert "unknown mission 'dmeo' (did you mean 'demo'?)" in stderr
    code, _, stderr = run("status", "--root", str(tmp_path / "nowhere"))
    assert code == 2
    assert "workspace root does not exist" in stderr


def test_show_reads_well(demo: Path) -> None:
    code, stdout, _ = run("show", "demo", "--root", str(demo))
    assert code == 0
    assert "A. Author. Demo paper. 2024." in stdout and "Thm. 2, p. 3" in stdout
    assert "def Goal : Prop := two * two = 4" in stdout
    assert "provenance: statement ai-adapted, proof ai-generated" in stdout
    assert "depends on: step" in stdout
    assert "statement pin: ok" in stdout


def test_report_formats(demo: Path, tmp_path: Path) -> None:
    code, stdout, _ = run("report", "--format", "md", "--root", str(demo))
    assert code == 0
    assert stdout.startswith("# Missions report")
    assert "| demo |" in stdout
    out = tmp_path / "report.json"
    code, _, _ = run("report", "--format", "json", "-o", str(out), "--root", str(demo))
    assert code == 0
    data = json.loads(out.read_text(encoding="utf-8"))
    assert data["gate"]["ok"] is True
    assert [t["id"] for t in data["missions"][0]["targets"]] == ["step", "goal"]
    assert data["missions"][0]["targets"][0]["lean"].startswith("/-- Two plus two is four")
    code, _, stderr = run("report", "--format", "pdf", "--root", str(demo))
    assert code == 2 and "unknown format" in stderr


def _fill_placeholders(root: Path, mission_id: str, module_dir: str) -> None:
    """What a person does after `missions new`: write real text wherever TODO stands."""
    yaml = root / "missions" / f"{mission_id}.yaml"
    yaml.write_text(yaml.read_text(encoding="utf-8").replace("TODO", "Filled"), encoding="utf-8")
    statements = root / "Formal" / module_dir / "Statements.lean"
    lean = statements.read_text(encoding="utf-8")
    statements.write_text(lean.replace("TODO:", "Placeholder statement:"), encoding="utf-8")


def test_new_scaffolds_a_draft_mission_check_accepts_once_filled_and_pinned(demo: Path) -> None:
    code, stdout, _ = run("new", "toy-result", "--root", str(demo))
    assert code == 0, stdout
    assert (demo / "missions/toy-result.yaml").is_file()
    assert (demo / "Formal/ToyResult/Statements.lean").is_file()
    assert "import Formal.ToyResult" in (demo / "Formal.lean").read_text(encoding="utf-8")
    code, stdout, _ = run("check", "--json", "--root", str(demo))
    assert code == 1
    assert {v["rule"] for v in json.loads(stdout)["violations"]} == {"statement-pin", "placeholder"}
    code, _, _ = run("pin", "toy-result", "--root", str(demo))
    assert code == 0
    code, stdout, _ = run("check", "--json", "--root", str(demo))
    assert code == 1
    assert {v["rule"] for v in json.loads(stdout)["violations"]} == {"placeholder"}
    _fill_placeholders(demo, "toy-result", "ToyResult")
    code, _, stderr = run("pin", "toy-result", "--reason", "wrote the goal", "--root", str(demo))
    assert code == 0, stderr
    code, stdout, _ = run("check", "--root", str(demo))
    assert code == 0, stdout
    code, stdout, _ = run("status", "--json", "toy-result", "--root", str(demo))
    [goal] = json.loads(stdout)["missions"][0]["targets"]
    assert goal["status"] == "stated"  # the scaffolded proof is `sorry`
    code, _, stderr = run("new", "toy-result", "--root", str(demo))
    assert code == 2 and "already exists" in stderr
    code, _, stderr = run("new", "Bad_Id", "--root", str(demo))
    assert code == 2 and "kebab-case" in stderr


def test_sync_then_drift_is_gone(demo: Path) -> None:
    yaml = demo / "missions/demo.yaml"
    yaml.write_text(
        yaml.read_text(encoding="utf-8").replace("status: proved", "status: stated"),
        encoding="utf-8",
    )
    code, _, _ = run("check", "--root", str(demo))
    assert code == 1
    code, stdout, _ = run("sync", "--root", str(demo))
    assert code == 0 and "updated demo: step, goal" in stdout
    code, _, _ = run("check", "--root", str(demo))
    assert code == 0
    code, stdout, _ = run("sync", "--root", str(demo))
    assert code == 0 and "statuses are in sync" in stdout


def test_doctor_without_lean_reports_absence(repo: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PATH", "/nonexistent")
    code, stdout, _ = run("doctor", "--json", "--root", str(repo))
    assert code == 0
    data = json.loads(stdout)
    assert data["ok"] is True
    assert {t["name"]: t["path"] for t in data["tools"]} == {
        "elan": None,
        "lake": None,
        "lean": None,
    }
    assert any("no Lean toolchain found" in a for a in data["advice"])
    assert any("lake-manifest.json is absent" in a for a in data["advice"])


def test_doctor_and_check_flag_a_wrong_mathlib_pin(repo: Path) -> None:
    lakefile = repo / "lakefile.lean"
    lakefile.write_text(
        lakefile.read_text(encoding="utf-8").replace(
            "c5ea00351c28e24afc9f0f84379aa41082b1188f", "master"
        ),
        encoding="utf-8",
    )
    code, stdout, _ = run("doctor", "--root", str(repo))
    assert code == 1
    code, stdout, _ = run("check", "--json", "--root", str(repo))
    assert code == 1
    assert any(v["rule"] == "toolchain-pin" for v in json.loads(stdout)["violations"])


#: The commands DESIGN.md's CLI contract requires (more may exist).
CONTRACT_COMMANDS = {
    "status",
    "show",
    "validate",
    "check",
    "pin",
    "sync",
    "report",
    "new",
    "doctor",
}


def test_help_for_every_command() -> None:
    """Every command registered on the app (not a hand-kept list) has help, takes --root and
    is listed by ``missions --help``."""
    commands = typer.main.get_command(app).commands  # type: ignore[attr-defined]
    assert set(commands) >= CONTRACT_COMMANDS
    code, top, _ = run("--help")
    assert code == 0
    for name, command in sorted(commands.items()):
        code, stdout, _ = run(name, "--help")
        assert code == 0, name
        assert "--root" in stdout, name
        assert command.help and command.help.split("\n")[0].strip()[:30] in stdout, name
        for param in command.params:
            for option in param.opts:
                if option.startswith("-"):
                    assert option in stdout, (name, option)
        assert re.search(rf"^\s*│?\s*{re.escape(name)}\b", top, re.MULTILINE), name


def _installed_missions() -> list[str]:
    script = Path(sys.executable).parent / "missions"
    if script.exists():
        return [str(script)]
    found = shutil.which("missions")
    if found:
        return [found]
    pytest.skip("the missions console script is not installed (pip install -e .)")


def test_installed_command_in_a_subprocess(repo: Path) -> None:
    env = {**os.environ, "NO_COLOR": "1"}
    done = subprocess.run(
        [*_installed_missions(), "status", "--json"],
        cwd=repo / "Formal",  # the root is found from a subdirectory
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["root"] == str(repo.resolve())
    bad = subprocess.run(
        [*_installed_missions(), "check", "--root", str(repo / "missing")],
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
        check=False,
    )
    assert bad.returncode == 2
    assert bad.stderr.count("\n") == 1 and "Traceback" not in bad.stderr
    module = subprocess.run(
        [sys.executable, "-m", "missions", "validate", "--root", str(repo)],
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
        check=False,
    )
    assert module.returncode == 0 and "YAML valid" in module.stdout


@pytest.mark.parametrize(
    "setting",
    [
        '  moreLeanArgs := #["-Ddebug.skipKernelTC=true"]',
        "  leanOptions := #[⟨`debug.skipKernelTC, true⟩]",
        "extern_lib cheat pkg := pure default",
    ],
)
def test_lakefile_settings_that_weaken_checking_fail_the_gate(repo: Path, setting: str) -> None:
    lakefile = repo / "lakefile.lean"
    lakefile.write_text(lakefile.read_text(encoding="utf-8") + setting + "\n", encoding="utf-8")
    code, stdout, _ = run("check", "--json", "--root", str(repo))
    assert code == 1
    rules = [(v["rule"], v["file"]) for v in json.loads(stdout)["violations"]]
    assert ("toolchain-pin", "lakefile.lean") in rules


def test_messages_have_no_none_and_right_plurals(make_workspace: Callable[..., Path]) -> None:
    from test_pins import FILES

    root = make_workspace(FILES, {"demo": "Formal.Demo"})
    path = root / "missions/demo.yaml"
    path.write_text(
        path.read_text(encoding="utf-8").replace("    status: stated\n    evidence: source\n", ""),
        encoding="utf-8",
    )
    code, stdout, _ = run("validate", "--root", str(root))
    assert code == 0 and stdout.strip() == "1 mission, 1 target: YAML valid"
    code, stdout, _ = run("check", "--root", str(root))
    assert code == 1
    assert "None" not in stdout
    assert "YAML says no status recorded, computed stated (source evidence)" in stdout
    assert stdout.strip().splitlines()[-1].startswith("gate: 2 violations — 1 mission, 0 of 1 ")


def test_piped_messages_of_writers_are_never_broken(repo: Path) -> None:
    module = "Formal." + "Long" * 20
    code, stdout, _ = run("new", "long-one", "--module", module, "--root", str(repo))
    assert code == 0
    created = [line for line in stdout.splitlines() if line.startswith("created ")]
    assert len(created) == 5 and any(len(line) > 80 for line in created)
    assert all(line.split()[1].startswith(("missions/", "Formal/")) for line in created)
    code, stdout, _ = run("pin", "long-one", "--root", str(repo))
    assert code == 0
    lines = stdout.strip().splitlines()
    assert len(lines) == 1 and re.fullmatch(
        r"pinned long-one: sha256:[0-9a-f]{64} at uncommitted files", lines[0]
    )


@pytest.mark.parametrize(("argv", "collecting"), [(["status"], False), (["witness"], True)])
def test_the_cycle_collector_is_off_only_while_an_analysis_command_runs(
    demo: Path, monkeypatch: pytest.MonkeyPatch, argv: list[str], collecting: bool
) -> None:
    """Analysing allocates no garbage cycles, so the collector only costs time; a command
    that runs user code (witnesses) keeps it, and every command leaves it as it found it."""
    import gc

    import missions.cli as cli
    import missions.load

    seen: list[bool] = []
    load = cli.load_catalog

    def spy(*args: object, **kwargs: object) -> object:
        seen.append(gc.isenabled())
        return load(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(cli, "load_catalog", spy)
    monkeypatch.setattr(missions.load, "load_catalog", spy)
    assert gc.isenabled()
    result = CliRunner().invoke(app, [*argv, "--root", str(demo)])
    assert result.exit_code in (0, 1), result.output
    assert seen and set(seen) == {collecting}
    assert gc.isenabled()


def test_the_command_itself_does_not_turn_the_collector_back_on(
    demo: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The ``missions`` process leaves right after its command: turned back on, the collector
    would first walk everything the run still holds."""
    import gc

    import missions.cli as cli

    monkeypatch.setattr(cli, "IS_THE_COMMAND", True)
    try:
        result = CliRunner().invoke(app, ["status", "--root", str(demo)])
        assert result.exit_code == 0, result.output
        assert not gc.isenabled()
    finally:
        gc.enable()
