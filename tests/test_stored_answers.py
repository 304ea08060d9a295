"""A stored ``check`` answer is only ever the answer ``check --no-cache`` gives.

The stored answer is keyed by everything a whole-workspace answer may read
(:mod:`missions.inputs`): every file of the tree, git, the import path, the witness results
and modules. These tests change each of those, in random orders, and compare the stored
path with a fresh run after every change; a key that missed one would print the answer from
before it. A second test runs the gate and the dashboard under an audit hook and checks that
every file they open is one the key covers.
"""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from conftest import REPO, committed_demo, copy_repo_workspace, git, init_repo, invoke
from missions import fastpath, inputs, roots, stored
from missions.cache import DASHBOARD_STATE_PREFIX, cache_dir_for
from missions.stored import CHECK_PURPOSE
from missions.witnesses import WORKSPACE_FOLDER

README = (
    "# Demo\n\n| Mission | Title | Module |\n|---|---|---|\n"
    "| `demo` | Demo mission | `Formal.Demo` |\n"
)
SETTINGS = "policy:\n  readme_table: README.md\n"


class Editor:
    """Edits with strictly increasing, distinct modification times: two edits of the same
    size inside one tick of the file system's clock still differ in their stamps (what the
    racy-file rule, off in these tests, guards against in real use)."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.clock = time.time_ns() - 10_000_000_000

    def touched(self, path: Path) -> None:
        self.clock += 1_000_000
        os.utime(path, ns=(self.clock, self.clock))

    def write(self, rel: str, text: str) -> None:
        path = self.root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
        self.touched(path)

    def replace(self, rel: str, old: str, new: str) -> None:
        text = (self.root / rel).read_text(encoding="utf-8")
        assert old in text, (rel, old)
        self.write(rel, text.replace(old, new, 1))


PROOF = "Formal/Demo/Proofs.lean"
STEP_PROOF = "  norm_num [Step, two]\n"


def _edits(root: Path, editor: Editor) -> dict[str, Callable[[], None]]:
    results = os.path.join(cache_dir_for(str(root)), "witness-results.json")

    def witness_results() -> None:
        Path(results).parent.mkdir(parents=True, exist_ok=True)
        Path(results).write_text(json.dumps({"demo/step": {"ok": False}}), encoding="utf-8")
        editor.touched(Path(results))

    def toggle(rel: str, old: str, new: str) -> Callable[[], None]:
        def edit() -> None:
            text = (root / rel).read_text(encoding="utf-8")
            editor.replace(rel, *((old, new) if old in text else (new, old)))

        return edit

    def remove_or_restore_readme() -> None:
        path = root / "README.md"
        if path.exists():
            path.unlink()
        else:
            editor.write("README.md", README)

    def commit() -> None:
        git(root, "add", "-A")
        git(root, "commit", "-q", "--allow-empty", "-m", "a change")

    return {
        "sorry in a proof": toggle(PROOF, STEP_PROOF, "  sorry\n"),
        "a statement weakened": toggle(
            "Formal/Demo/Statements.lean", "two + two = 4", "two + two = 4 ∨ True"
        ),
        "a README row dropped": toggle("README.md", "| `demo` |", "| `dem0` |"),
        "the README gone or back": remove_or_restore_readme,
        "a recorded status": toggle("missions/demo.yaml", "status: proved", "status: stated"),
        "the toolchain": toggle("lean-toolchain", "v4.30.0", "v4.29.0"),
        "the witness module": toggle(f"{WORKSPACE_FOLDER}/demo.py", "CLAIMS", "# edited\nCLAIMS"),
        "the witness results": witness_results,
        "a commit": commit,
        "the commit message amended": lambda: git(
            root, "commit", "-q", "--amend", "--allow-empty", "-m", f"now {editor.clock}"
        ),
        "an unrelated file": lambda: editor.write("notes.txt", f"{editor.clock}\n"),
    }


def _check(root: Path, *args: str) -> tuple[int, str]:
    result = invoke("check", "--root", root, *args)
    assert result.exit_code in (0, 1), (result.stdout, result.stderr)
    return result.exit_code, result.stdout


@pytest.fixture
def workspace(demo_workspace: Callable[..., Path], monkeypatch: pytest.MonkeyPatch) -> Path:
    from conftest import link_witnesses

    monkeypatch.setattr(roots, "RACY_NS", 0)
    root = committed_demo(demo_workspace)
    link_witnesses(root)  # a module in the workspace's witness folder
    (root / "README.md").write_text(README, encoding="utf-8")
    (root / "missions.yaml").write_text(SETTINGS, encoding="utf-8")
    git(root, "add", "-A")
    git(root, "commit", "-qm", "witnesses and a README table")
    return root


def _fast_check(root: Path, capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str]:
    """The start-up fast path's answer (it must have one)."""
    capsys.readouterr()
    code = fastpath.try_check(["check", "--root", str(root), *args])
    assert code is not None
    return code, capsys.readouterr().out


@pytest.mark.parametrize("seed", range(3))
def test_the_stored_answer_is_always_the_fresh_one(
    workspace: Path, seed: int, capsys: pytest.CaptureFixture[str]
) -> None:
    root = workspace
    editor = Editor(root)
    edits = _edits(root, editor)
    order = random.Random(seed).choices(sorted(edits), k=14)
    answers = set()
    for name in ["(none)", *order]:
        if name != "(none)":
            edits[name]()
        fresh = {fmt: _check(root, "--format", fmt, "--no-cache") for fmt in ("text", "json")}
        first = _check(root, "--format", "json")  # computes and stores
        assert inputs.lookup(root, CHECK_PURPOSE) is not None, name
        for fmt in ("text", "json"):  # from the stored answer, in the CLI and at start-up
            assert _check(root, "--format", fmt) == fresh[fmt], (name, fmt)
            assert _fast_check(root, capsys, "--format", fmt) == fresh[fmt], (name, fmt)
        assert first == fresh["json"], name
        answers.add(fresh["json"])
    assert len(answers) > 2  # the edits changed the verdict: the comparison was not idle


@pytest.mark.parametrize(
    "args",
    [
        ["demo"],
        ["--no-cache"],
        ["--lean"],
        ["--junit", "x.xml"],
        ["--format", "github"],
        ["--format=github"],
        ["--checks", "d"],
        ["--comparator", "d"],
        ["--format"],
        ["--help"],
    ],
)
def test_the_fast_path_leaves_every_other_check_to_the_full_command(
    workspace: Path, args: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    _check(workspace)
    assert _fast_check(workspace, capsys)[0] == 0  # a plain check is answered ...
    assert fastpath.try_check(["check", "--root", str(workspace), *args]) is None  # ... no other


def test_a_proof_edit_flips_the_stored_verdict(workspace: Path) -> None:
    editor = Editor(workspace)
    assert _check(workspace)[0] == 0
    assert _check(workspace)[0] == 0  # stored
    editor.replace(PROOF, STEP_PROOF, "  sorry\n")
    code, out = _check(workspace)
    assert code == 1 and "sorry" in out


def test_no_answer_is_stored_while_a_file_is_racy(
    workspace: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(roots, "RACY_NS", 3600 * 10**9)  # every file counts as just changed
    _check(workspace)
    assert inputs.lookup(workspace, CHECK_PURPOSE) is None


def test_an_answer_is_not_stored_when_an_input_moved_while_it_was_computed(
    workspace: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import missions.cli

    monkeypatch.setattr(roots, "RACY_NS", -(10**18))  # only the moved key may refuse
    analysis = missions.cli.analyse_and_lint

    def edited_meanwhile(*args: object, **kwargs: object) -> object:
        found = analysis(*args, **kwargs)  # type: ignore[arg-type]
        Editor(workspace).replace(PROOF, STEP_PROOF, "  sorry\n")
        return found

    monkeypatch.setattr(missions.cli, "analyse_and_lint", edited_meanwhile)
    assert _check(workspace)[0] == 0  # the state before the edit
    monkeypatch.setattr(missions.cli, "analyse_and_lint", analysis)
    assert _check(workspace) == _check(workspace, "--no-cache")
    assert _check(workspace)[0] == 1


def test_an_option_run_neither_reads_nor_stores(
    workspace: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _check(workspace)
    assert inputs.lookup(workspace, CHECK_PURPOSE) is not None
    record = next(Path(cache_dir_for(str(workspace))).glob("answer-*.json"))
    data = json.loads(record.read_text())
    data["answer"]["headline"] = "gate: forged"
    record.write_text(json.dumps(data))
    assert "forged" in _check(workspace)[1]  # the plain run reads it (same key) ...
    for args in (["demo"], ["--no-cache"]):
        assert "forged" not in _check(workspace, *args)[1]  # ... no other run does


def test_a_damaged_record_is_computed_afresh(workspace: Path) -> None:
    fresh = _check(workspace, "--no-cache")
    _check(workspace)
    record = next(Path(cache_dir_for(str(workspace))).glob("answer-*.json"))
    for damage in ("", "{", '{"purpose": "check"}', json.dumps({"answer": []})):
        record.write_text(damage)
        assert _check(workspace) == fresh


@pytest.mark.parametrize("fmt", ["html", "badges"])
def test_a_site_is_written_again_exactly_when_it_may_differ(
    workspace: Path, tmp_path: Path, fmt: str
) -> None:
    site = tmp_path / "site"
    editor = Editor(workspace)

    def report() -> str:
        result = invoke("report", "--root", workspace, "--format", fmt, "-o", site)
        assert result.exit_code == 0, result.stderr
        return result.stderr

    def pages() -> dict[str, bytes]:
        return {str(p): p.read_bytes() for p in sorted(site.rglob("*")) if p.is_file()}

    assert report().startswith("wrote")
    written = pages()
    assert "is up to date" in report()
    assert pages() == written
    page = Path(sorted(written)[-1])
    page.write_text("damaged")  # an output no longer as written
    assert report().startswith("wrote") and pages().keys() == written.keys()
    assert page.read_text() != "damaged"
    assert "is up to date" in report()
    editor.replace(PROOF, STEP_PROOF, "  sorry\n")  # an input
    assert report().startswith("wrote")
    assert pages() != written
    assert invoke(
        "report", "--root", workspace, "--format", fmt, "-o", site, "demo"
    ).stderr.startswith(
        "wrote"
    )  # a run for chosen missions is never answered from the whole workspace's


@pytest.mark.parametrize("fmt", ["html", "badges"])
def test_the_start_up_path_says_what_the_full_command_says_of_a_site(
    workspace: Path, tmp_path: Path, fmt: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """A plain ``report --format html|badges -o DIR`` on a site that is up to date is
    answered at start-up with the full command's line; anything else, or a site that must be
    written again, takes the full command."""
    site = tmp_path / "site"
    spelled = [
        ["report", "--root", str(workspace), "--format", fmt, "-o", f"{site}/"],
        ["report", f"--root={workspace}", f"--format={fmt}", f"--output={site}"],
    ]
    assert fastpath.try_report(spelled[0]) is None  # nothing stored yet
    assert invoke(*spelled[0][:-1], site).stderr.startswith("wrote")
    full = invoke(*spelled[0][:-1], site)
    assert full.exit_code == 0 and "is up to date" in full.stderr
    for argv in spelled:
        capsys.readouterr()
        assert fastpath.try_report(argv) == 0
        assert capsys.readouterr().err == full.stderr
    others = [
        ["report", "--root", str(workspace), "--format", fmt, "-o", str(site), "demo"],
        ["report", "--root", str(workspace), "--format", fmt, "-o", str(site), "--lean"],
        ["report", "--root", str(workspace), "--format", "md", "-o", str(site)],
        ["report", "--root", str(workspace), "--format", fmt],
        ["report", "--root", str(workspace), "--format", fmt, f"-o{site}"],
        ["report", "--root", str(workspace), "--format", fmt, "-o"],
        ["check", "--root", str(workspace)],
    ]
    for argv in others:
        assert fastpath.try_report(argv) is None, argv
    Editor(workspace).replace(PROOF, STEP_PROOF, "  sorry\n")  # an input changed
    assert fastpath.try_report(spelled[0]) is None


@pytest.mark.slow
def test_the_console_entry_answers_an_unchanged_site_without_the_cli(
    workspace: Path, tmp_path: Path
) -> None:
    """The installed command (the fast path's ``main``) takes the start-up answer: the
    second run writes nothing and never imports the CLI."""
    import subprocess
    import sys
    import time

    time.sleep(2.1)  # the workspace was written just now: let no input be racy (see roots)
    entry = (
        "import sys\nfrom missions.fastpath import main\ntry:\n    main()\nfinally:\n"
        "    print('cli imported' if 'missions.cli' in sys.modules else 'cli not imported')"
    )
    argv = ["report", "--format", "html", "-o", str(tmp_path / "site"), "--root", str(workspace)]

    def run() -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [sys.executable, "-c", entry, *argv], capture_output=True, text=True, timeout=300
        )

    first, second = run(), run()
    assert first.returncode == 0 and first.stderr.startswith("wrote"), first.stderr
    assert first.stdout.strip() == "cli imported"
    assert second.returncode == 0 and "is up to date" in second.stderr, second.stderr
    assert second.stdout.strip() == "cli not imported"


def test_a_site_inside_the_workspace_is_never_up_to_date(workspace: Path) -> None:
    for _ in range(3):
        result = invoke("report", "--root", workspace, "--format", "html", "-o", workspace / "site")
        assert result.exit_code == 0 and result.stderr.startswith("wrote"), result.stderr


# ------------------------------------------------------------------- what the key covers


@pytest.mark.parametrize(
    "change",
    [
        "commit",
        "amend",
        "shallow",
        "replace-ref",
        "git-variable",
        "new-object-folder",
        "index",
        "skipped-is-not-an-input",
    ],
)
def test_the_key_follows_git(tmp_path: Path, change: str, monkeypatch: pytest.MonkeyPatch) -> None:
    root = tmp_path / "ws"
    (root / "missions").mkdir(parents=True)
    (root / "missions" / "a.yaml").write_text("id: a\n")
    init_repo(root)
    before = inputs.workspace_key(root, "t")
    head = git(root, "rev-parse", "HEAD").strip()
    if change == "commit":
        git(root, "commit", "-q", "--allow-empty", "-m", "more")
    elif change == "amend":
        git(root, "commit", "-q", "--amend", "-m", "reworded")
    elif change == "shallow":
        (root / ".git" / "shallow").write_text(head + "\n")
    elif change == "replace-ref":
        (root / ".git" / "refs" / "replace").mkdir(parents=True)
        (root / ".git" / "refs" / "replace" / head).write_text(head + "\n")
    elif change == "git-variable":
        monkeypatch.setenv("GIT_REPLACE_REF_BASE", "refs/other/")
    elif change == "new-object-folder":
        (root / ".git" / "objects" / "zz").mkdir()
    elif change == "index":
        (root / "missions" / "b.yaml").write_text("id: b\n")
        before = inputs.workspace_key(root, "t")
        git(root, "add", "missions/b.yaml")  # tracked now: `git diff` sees it
    elif change == "skipped-is-not-an-input":
        (root / ".lake" / "build").mkdir(parents=True)
        (root / ".lake" / "build" / "x.olean").write_text("x")
        (root / "venv").mkdir()
        (root / "venv" / "pyvenv.cfg").write_text("home = /usr\n")
        (root / "venv" / "lib.py").write_text("x = 1\n")
        assert inputs.workspace_key(root, "t") == before
        return
    assert inputs.workspace_key(root, "t") != before


def test_the_key_follows_every_file_of_the_tree(tmp_path: Path) -> None:
    root = tmp_path / "ws"
    (root / "a" / "b").mkdir(parents=True)
    (root / "a" / "b" / "c.txt").write_text("one")
    key = inputs.workspace_key(root, "t")
    path = root / "a" / "b" / "c.txt"
    stat = path.stat()
    path.write_text("two")  # same size
    os.utime(path, ns=(stat.st_atime_ns, stat.st_mtime_ns))  # same modification time
    assert inputs.workspace_key(root, "t") != key  # the change time moved
    key = inputs.workspace_key(root, "t")
    path.chmod(0o000)
    assert inputs.workspace_key(root, "t") != key
    key = inputs.workspace_key(root, "t")
    (root / "a" / "link").symlink_to(root / "a" / "b")  # a folder seen twice is walked once
    assert inputs.workspace_key(root, "t") != key
    assert inputs.workspace_key(root, "t") != inputs.workspace_key(root, "u")


def test_a_tree_nested_deeper_than_the_recursion_limit_is_still_keyed(tmp_path: Path) -> None:
    import traceback

    root = deepest = tmp_path / "ws"
    for _ in range(1 + 300):
        deepest.mkdir()
        deepest = deepest / "a"
    deepest = deepest.parent
    (deepest / "note.txt").write_text("one")
    # a limit a walk recursing per folder would hit, as Python's 1,000 is hit by a tree
    # 1,000 deep; a flat walk needs a few frames
    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(len(traceback.extract_stack()) + 150)
    try:
        key = inputs.workspace_key(root, "t")
        (deepest / "note.txt").write_text("two!")
        changed = inputs.workspace_key(root, "t")
    finally:
        sys.setrecursionlimit(limit)
    assert changed != key


# ------------------------------------------------------------ every open is a covered one

AUDIT = """
import json, os, sys
opened = set()
def hook(event, args):
    if event == "open" and isinstance(args[0], (str, bytes)):
        path, mode, flags = args
        if (flags & os.O_ACCMODE) == os.O_RDONLY if mode is None else "r" in mode:
            opened.add(os.path.abspath(os.fsdecode(path)))  # read, not written
    elif event == "sqlite3.connect":
        opened.add(os.path.abspath(os.fsdecode(args[0])))
sys.addaudithook(hook)
from missions.cli import main
sys.argv = ["missions", *sys.argv[2:]]
try:
    main()
except SystemExit:
    pass
with open(os.environ["AUDIT_OUT"], "w") as out:
    json.dump(sorted(opened), out)
"""

#: Caches the tool derives from content it keys them by (never an input of an answer), and
#: the stored answers themselves.
DERIVED_CACHES = (
    "catalog.",
    "lint-results.",
    "ratchet-versions.json",
    "scans-",
    "progress-allows.json",
    "walks.json",
    "dashboard-pages.json",
    "answer-",
    "check-state.",
    DASHBOARD_STATE_PREFIX,
)


@pytest.mark.slow
@pytest.mark.parametrize("command", ["check", "report"])
def test_every_file_the_gate_opens_is_covered_by_the_key(tmp_path: Path, command: str) -> None:
    root = copy_repo_workspace(tmp_path, project=True)
    init_repo(root)
    out_dir = tmp_path / "site"
    args = ["check"] if command == "check" else ["report", "--format", "html", "-o", str(out_dir)]
    record = tmp_path / "opened.json"
    env = {**os.environ, "AUDIT_OUT": str(record)}
    script = tmp_path / "audit.py"
    script.write_text(AUDIT)
    subprocess.run(
        [sys.executable, str(script), "missions", *args],
        cwd=root,
        env=env,
        check=True,
        capture_output=True,
    )
    cache = cache_dir_for(str(root))
    code = [sys.prefix, sys.base_prefix, sys.exec_prefix, str(REPO / "tools")]
    uncovered = []
    for path in json.loads(record.read_text()):
        parts = Path(path).parts
        if path.startswith(str(root) + os.sep):
            if not set(parts) & inputs.SKIPPED_FOLDERS:
                continue
        elif path.startswith(cache + os.sep):
            name = os.path.basename(path)
            if name == "witness-results.json" or name.startswith(DERIVED_CACHES):
                continue
        elif any(path.startswith(prefix + os.sep) for prefix in [str(out_dir), *code]):
            continue  # what the dashboard writes; the tool's and Python's code
        elif path == os.devnull:
            continue
        uncovered.append(path)
    assert uncovered == [], "\n".join(uncovered)


def _count_stamps(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The purposes of every stamp of the tree taken from now on."""
    taken: list[str] = []
    stamps = inputs._stamps

    def counted(top: str, purpose: str, extra: object) -> object:
        taken.append(purpose)
        return stamps(top, purpose, extra)  # type: ignore[arg-type]

    monkeypatch.setattr(inputs, "_stamps", counted)
    return taken


@pytest.mark.parametrize("edit", [True, False])
def test_a_miss_at_start_up_hands_its_stamps_to_the_full_command(
    workspace: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, edit: bool
) -> None:
    """After a change, the fast path's stamps of the tree are the full command's key taken
    before: one stamp there and one to store, not four; the stored answer is the fresh one."""
    _check(workspace)
    if edit:
        Editor(workspace).replace(PROOF, STEP_PROOF, "  sorry\n")
    else:  # a damaged answer under the right key: a miss with the same stamps
        record = next(Path(cache_dir_for(str(workspace))).glob("answer-*.json"))
        data = json.loads(record.read_text())
        data["answer"]["violations"] = "damaged"
        record.write_text(json.dumps(data))
    fresh = _check(workspace, "--no-cache")
    taken = _count_stamps(monkeypatch)
    assert fastpath.try_check(["check", "--root", str(workspace)]) is None
    assert _check(workspace) == fresh
    assert taken == [CHECK_PURPOSE, CHECK_PURPOSE]  # the fast path's, and the one `store` takes
    assert _fast_check(workspace, capsys) == fresh  # stored under the fast path's stamps
    assert stored.handed(workspace, CHECK_PURPOSE) is None  # taken once


def test_a_handed_over_recording_stores_nothing_once_the_tree_moved(
    workspace: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _check(workspace)
    editor = Editor(workspace)
    editor.replace(PROOF, STEP_PROOF, "  sorry\n")
    assert fastpath.try_check(["check", "--root", str(workspace)]) is None  # hands over
    editor.replace(PROOF, "  sorry\n", STEP_PROOF)  # after the stamps, before the gate
    answer = _check(workspace)  # takes the handed recording: the tree is not as stamped
    assert inputs.lookup(workspace, CHECK_PURPOSE) is None
    assert answer == _check(workspace, "--no-cache")
    assert _check(workspace) == answer  # stamps of its own: stored
    assert _fast_check(workspace, capsys) == answer


def test_a_handed_over_recording_serves_its_root_and_purpose_once(workspace: Path) -> None:
    recording = inputs.Recording(workspace, CHECK_PURPOSE)
    stored.hand_over(recording)
    assert stored.handed(workspace, "report-html\0elsewhere") is None
    assert stored.handed(workspace, CHECK_PURPOSE) is None  # the slot was emptied by the first ask
    stored.hand_over(recording)
    assert stored.handed(workspace / "Formal", CHECK_PURPOSE) is None
    stored.hand_over(recording)
    assert stored.handed(workspace, CHECK_PURPOSE) is recording
    assert stored.handed(workspace, CHECK_PURPOSE) is None


def test_consult_takes_the_key_a_recording_takes(workspace: Path) -> None:
    """The recording :func:`inputs.consult` derives from the stored record's stamps (which
    also cover the witness modules found last time) has the key a fresh recording of the
    known inputs takes, whether the stored answer still holds or not."""
    known = stored._known_inputs(workspace)
    _check(workspace)
    record = next(Path(cache_dir_for(str(workspace))).glob("answer-*.json"))
    assert len(json.loads(record.read_text())["extra"]) > len(known)  # witness modules too
    for edit in (False, True):
        if edit:
            Editor(workspace).replace(PROOF, STEP_PROOF, "  sorry\n")
        answer, recording = inputs.consult(workspace, CHECK_PURPOSE, known)
        assert (answer is None) == edit
        assert recording.before == inputs.Recording(workspace, CHECK_PURPOSE, known).before


def test_a_site_miss_at_start_up_hands_its_stamps_to_the_full_command(
    workspace: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    argv = ["report", "--root", str(workspace), "--format", "badges", "-o", str(tmp_path / "s")]
    assert invoke(*argv).stderr.startswith("wrote")
    Editor(workspace).replace(PROOF, STEP_PROOF, "  sorry\n")
    taken = _count_stamps(monkeypatch)
    assert fastpath.try_report(argv) is None
    assert invoke(*argv).stderr.startswith("wrote")
    assert len(taken) == 2  # the fast path's, and the one `store` takes
    assert fastpath.try_report(argv) == 0  # stored under the fast path's stamps
