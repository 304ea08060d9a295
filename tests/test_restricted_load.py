"""Commands about a few missions read only what those missions depend on, and answer exactly
what reading everything would: the import closure of a module, the chosen missions' YAML, and
the committed objects of the files a pin names."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest

from conftest import copy_repo_workspace, git, init_repo, invoke
from missions import gitinfo
from missions.catalog import CATALOG_CACHE_VERSION, CATALOG_FILE, load_catalog
from missions.errors import InputError
from missions.lean import workspace as ws
from missions.pins import pin_state


def _hazards(root: Path) -> Path:
    """The bundled workspace plus every way a module can be faulty or unresolvable: a module
    two libraries provide, a dot in a folder name, a missing import, an import cycle, bytes
    that are not UTF-8 and an ``#exit``, each imported by a statements module."""
    whole = ws.load_workspace(root, use_cache=False)
    statements = sorted(n for n in whole.modules if n.endswith(".Statements"))
    assert len(statements) >= 5, statements
    defs = next(i for i, _ in whole.modules[statements[0]].scan.imports if i in whole.modules)
    lakefile = root / "lakefile.lean"
    lakefile.write_text(
        lakefile.read_text(encoding="utf-8")
        + f'\nlean_lib Extra where\n  srcDir := "extra"\n  roots := #[`{defs}]\n',
        encoding="utf-8",
    )
    twin = root / "extra" / Path(*defs.split(".")).with_suffix(".lean")
    twin.parent.mkdir(parents=True)
    shutil.copy(whole.modules[defs].path, twin)
    extra = {
        "Formal/Odd.Dir/Helpers.lean": "def helper : Nat := 1\n",
        "Formal/Cycle/A.lean": "import Formal.Cycle.B\ndef a : Nat := 1\n",
        "Formal/Cycle/B.lean": "import Formal.Cycle.A\ndef b : Nat := 2\n",
        "Formal/Stop.lean": "def before : Nat := 1\n#exit\ndef after : Nat := sorry\n",
    }
    for rel, text in extra.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text, encoding="utf-8")
    (root / "Formal/Latin1.lean").write_bytes(b"def caf\xe9 : Nat := 1\n")
    imports = ["Formal.Odd.Dir.Helpers", "Formal.Missing.Module", "Formal.Cycle.A"]
    imports += ["Formal.Stop", "Formal.Latin1"]
    for name, imported in zip(statements[1:], imports, strict=False):
        path = whole.modules[name].path
        path.write_text(f"import {imported}\n" + path.read_text(encoding="utf-8"), "utf-8")
    return root


def _facts(workspace: ws.Workspace, start: str) -> dict[str, object]:
    closure = workspace.closure(start)
    return {
        "closure": closure,
        "unresolved": workspace.unresolved_in_closure(start),
        "scans": {n: workspace.modules[n].scan.to_json() for n in closure},
        "shas": {n: workspace.modules[n].sha for n in closure},
        "paths": {n: str(workspace.modules[n].path) for n in closure},
    }


@pytest.mark.parametrize("warm", [False, True])
def test_an_import_closure_loads_as_the_whole_workspace_has_it(tmp_path: Path, warm: bool) -> None:
    root = _hazards(copy_repo_workspace(tmp_path))
    whole = ws.load_workspace(root, use_cache=warm)
    faulty = [n for n in whole.modules if whole.unresolved_in_closure(n)]
    assert len(faulty) >= 5, "the hazards did not make closures unresolvable"
    for name in sorted(whole.modules):
        restricted = ws.load_import_closure(root, [name], use_cache=warm)
        assert sorted(restricted.modules) == whole.closure(name), name
        assert _facts(restricted, name) == _facts(whole, name), name
    missing = ws.load_import_closure(root, ["Formal.Nowhere"], use_cache=warm)
    assert missing.modules == {}
    assert missing.unresolved_in_closure("Formal.Nowhere") == whole.unresolved_in_closure(
        "Formal.Nowhere"
    )


def test_pins_from_a_closure_equal_pins_from_everything_after_any_edit(tmp_path: Path) -> None:
    """Append a definition to each file in turn: every mission's pin, computed from its own
    closure, moves exactly when (and to what) the whole workspace's pin moves."""
    root = copy_repo_workspace(tmp_path)
    catalog = load_catalog(root)
    whole = ws.load_workspace(root)
    files = sorted({m.path for m in whole.modules.values()})
    for path in files[:: max(1, len(files) // 12)]:
        path.write_text(path.read_text(encoding="utf-8") + "\ndef edited : Nat := 0\n", "utf-8")
        whole = ws.load_workspace(root)
        for mission_file in catalog.files:
            mission = mission_file.mission
            restricted = ws.load_import_closure(root, [mission.lean.statements_module])
            assert pin_state(restricted, mission) == pin_state(whole, mission), (path, mission.id)


def test_a_closure_load_reads_only_its_files(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    root = copy_repo_workspace(tmp_path)
    whole = ws.load_workspace(root)
    start = next(n for n in sorted(whole.modules) if n.endswith(".Statements"))
    decoded: list[str] = []
    original = ws.ScanStore.known

    def counting(self: ws.ScanStore, sha: str) -> object:
        decoded.append(sha)
        return original(self, sha)

    monkeypatch.setattr(ws.ScanStore, "known", counting)
    ws.load_import_closure(root, [start])
    assert sorted(decoded) == sorted(whole.modules[n].sha for n in whole.closure(start))
    assert len(decoded) < len(whole.modules)


# ----------------------------------------------------------------------- the chosen YAML
def _two_missions(make_workspace: Callable[..., Path]) -> Path:
    files = {
        f"Formal/{name}/{part}.lean": text.format(name=name)
        for name in ("Alpha", "Beta")
        for part, text in {
            "Defs": "import Mathlib\nnamespace Formal.{name}\ndef two : ℕ := 2\n"
            "end Formal.{name}\n",
            "Statements": "import Formal.{name}.Defs\nnamespace Formal.{name}\n"
            "def Goal : Prop := two + two = 4\nend Formal.{name}\n",
            "Proofs": "import Formal.{name}.Statements\nnamespace Formal.{name}\n"
            "theorem goal : Goal := by\n  unfold Goal two\n  rfl\nend Formal.{name}\n",
        }.items()
    }
    return make_workspace(files, {"alpha": "Formal.Alpha", "beta": "Formal.Beta"})


def test_pin_of_one_mission_reads_neither_the_others_yaml_nor_their_lean(
    make_workspace: Callable[..., Path],
) -> None:
    root = _two_missions(make_workspace)
    assert invoke("status", "--root", root).exit_code == 0  # fills the caches
    beta = root / "missions/beta.yaml"
    beta.write_text(beta.read_text(encoding="utf-8") + "unknown_key: 1\n", encoding="utf-8")
    result = invoke("pin", "alpha", "--json", "--root", root)
    assert result.exit_code == 0, result.output
    [pinned] = json.loads(result.stdout)["pinned"]
    whole = ws.load_workspace(root)
    alpha = load_catalog(root, only=["alpha"]).get("alpha").mission
    assert pinned["digest"] == pin_state(whole, alpha).digest
    # the broken mission is still reported by every command that reads it
    assert invoke("pin", "beta", "--root", root).exit_code == 2
    assert invoke("check", "--root", root).exit_code == 2


def test_an_unknown_mission_is_named_with_a_suggestion(
    make_workspace: Callable[..., Path],
) -> None:
    root = _two_missions(make_workspace)
    with pytest.raises(InputError) as raised:
        load_catalog(root, only=["alpah", "beta"])
    [problem] = raised.value.problems
    assert problem.message == "unknown mission 'alpah' (did you mean 'alpha'?)"
    result = invoke("pin", "alpah", "--root", root)
    assert result.exit_code == 2
    assert "unknown mission 'alpah' (did you mean 'alpha'?)" in result.output


def test_a_restricted_load_reads_the_chosen_file_as_it_is_now(
    make_workspace: Callable[..., Path],
) -> None:
    """The chosen files are parsed, not served from the catalogue's cache (reading that is
    slower than parsing a few files), and the cache is left as it was for the full loads."""
    root = _two_missions(make_workspace)
    load_catalog(root)
    [store] = Path(os.environ["MISSIONS_CACHE_DIR"]).rglob(CATALOG_FILE)
    before = store.read_bytes()
    alpha = root / "missions/alpha.yaml"
    alpha.write_text(alpha.read_text(encoding="utf-8").replace("Test mission", "A mission"))
    [chosen] = load_catalog(root, only=["alpha"]).files
    assert chosen.mission.title == "A mission alpha"
    assert store.read_bytes() == before
    assert load_catalog(root).get("alpha").mission.title == "A mission alpha"


# ---------------------------------------------------------------- committed objects
@pytest.mark.parametrize("object_format", ["sha1", "sha256"])
def test_changed_since_compares_each_file_with_its_committed_object(
    tmp_path: Path, object_format: str
) -> None:
    root = tmp_path / "repo"
    root.mkdir()
    if object_format == "sha256":
        probe = subprocess.run(
            ["git", "init", "-q", "--object-format=sha256", str(tmp_path / "probe")],
            capture_output=True,
        )
        if probe.returncode != 0:
            pytest.skip("this git cannot make SHA-256 repositories")
        git(root, "init", "-q", "--object-format=sha256")
    names = ["same.lean", "edited.lean", "gone.lean", "dir.lean", "spaced name.lean"]
    for name in names:
        (root / name).write_text(f"-- {name}\n", encoding="utf-8")
    if object_format == "sha1":
        init_repo(root, "first")
    else:
        git(root, "add", "-A")
        git(root, "commit", "-q", "-m", "first")
    head = git(root, "rev-parse", "HEAD")
    (root / "edited.lean").write_text("-- edited\n", encoding="utf-8")
    (root / "gone.lean").unlink()
    (root / "dir.lean").unlink()
    (root / "dir.lean").mkdir()
    (root / "new.lean").write_text("-- new\n", encoding="utf-8")
    paths = [root / n for n in [*names, "new.lean"]] + [tmp_path / "outside.lean"]
    changed = gitinfo.changed_since(root, head, paths)
    assert changed == [p for p in paths if p.name not in ("same.lean", "spaced name.lean")]
    assert gitinfo.changed_since(root, "0" * len(head), paths) is None
    assert gitinfo.changed_since(tmp_path / "outside", head, paths) is None


def test_the_catalogue_cache_rewrites_only_what_changed(
    make_workspace: Callable[..., Path],
) -> None:
    """Nothing changed: the cache is not written. One file changed: its line is new and every
    other line is kept byte for byte (not decoded and encoded again); the next load is
    answered from the cache with the change in it."""
    from missions.cache import read_records

    root = _two_missions(make_workspace)
    load_catalog(root)
    [store] = Path(os.environ["MISSIONS_CACHE_DIR"]).rglob(CATALOG_FILE)
    before = store.stat().st_mtime_ns, store.read_bytes()
    load_catalog(root)
    assert (store.stat().st_mtime_ns, store.read_bytes()) == before
    old = {p: line for p, (_, line) in read_records(store, CATALOG_CACHE_VERSION).items()}
    alpha = root / "missions/alpha.yaml"
    alpha.write_text(alpha.read_text(encoding="utf-8").replace("Test mission", "A mission"))
    stamp = alpha.stat()
    os.utime(alpha, ns=(stamp.st_atime_ns, stamp.st_mtime_ns - 5_000_000_000))  # not racy
    assert load_catalog(root).get("alpha").mission.title == "A mission alpha"
    new = {p: line for p, (_, line) in read_records(store, CATALOG_CACHE_VERSION).items()}
    assert old.keys() == new.keys() and len(new) == 2
    assert [p for p in new if new[p] != old[p]] == [("mission", str(alpha))]
    assert load_catalog(root).get("alpha").mission.title == "A mission alpha"
