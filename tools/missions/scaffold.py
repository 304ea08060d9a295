"""``missions new``: a mission skeleton for people to fill in.

The placeholder goal is ``False`` on purpose: nobody can "prove" a mission before its real
statement is written, and the first ``missions pin`` after filling it in records it. Every
text to write is marked ``TODO``; the gate fails (rule ``placeholder``) until none is left.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from ruamel.yaml.comments import CommentedMap, CommentedSeq
from ruamel.yaml.scalarstring import DoubleQuotedScalarString, FoldedScalarString

from missions.catalog import ID_PATTERN
from missions.errors import InputError
from missions.lean.vocabulary import PLACEHOLDER
from missions.policy import ROW, module_exists
from missions.roots import library_roots, module_file
from missions.settings import PolicySettings
from missions.witnesses import add_workspace
from missions.yamlio import atomic_write_text, dump_document


@dataclass
class Scaffold:
    mission_id: str
    module: str
    files: dict[Path, str]
    #: the witness module linked from the goal (None: the project does not ask for one, or
    #: the witnesses package is not part of this workspace, see :func:`witness_location`)
    witness: str | None = None
    #: a line to add to the project's missions table: (file, row)
    readme_row: tuple[Path, str] | None = None


#: Longest mission id accepted: ids become file names and, camel-cased, Lean module names.
MAX_ID_LENGTH = 64
#: Longest component of a Lean module name (it becomes a directory or file name).
MAX_MODULE_PART = 100

#: The marker of text ``missions new`` leaves for people to fill in; ``missions check`` fails
#: (rule ``placeholder``) while any is left in the mission YAML or its statement docstrings.


def default_module(mission_id: str) -> str:
    return "Formal." + "".join(part.capitalize() for part in mission_id.split("-"))


def _check_id(root: Path, mission_id: str) -> None:
    where = root / "missions"
    if not mission_id:
        raise InputError.single(where, 1, "the mission id is empty")
    if len(mission_id) > MAX_ID_LENGTH:
        raise InputError.single(
            where,
            1,
            f"mission id is {len(mission_id)} characters long; use at most {MAX_ID_LENGTH}",
        )
    if not ID_PATTERN.match(mission_id):
        raise InputError.single(
            where,
            1,
            f"mission id {mission_id!r} must be kebab-case: lower-case letters and digits in "
            "words joined by single hyphens (e.g. 'lp-ft')",
        )


def _check_module(root: Path, module: str) -> None:
    parts = module.split(".")
    if parts[0] != "Formal" or len(parts) < 2 or not all(p.isidentifier() for p in parts):
        raise InputError.single(
            root / "missions", 1, f"module {module!r} must be a Lean name under Formal."
        )
    longest = max(parts, key=len)
    if len(longest) > MAX_MODULE_PART:
        raise InputError.single(
            root / "missions",
            1,
            f"module component {longest[:20]}... is {len(longest)} characters long; "
            f"use at most {MAX_MODULE_PART}",
        )


def _check_title(root: Path, title: str) -> None:
    if not title.strip():
        raise InputError.single(root / "missions", 1, "the title is blank")
    if any(ord(c) < 32 or ord(c) == 127 for c in title):
        raise InputError.single(
            root / "missions", 1, "the title must be one line without control characters"
        )


WITNESS_PACKAGE = "missions.witnesses"


def witness_location(root: Path) -> Path:
    """Where a new witness module goes: the bundled folder when it belongs to this workspace
    (an editable install of the tool from it), else the workspace's ``witnesses/`` folder.
    ``new`` never writes into an installed package."""
    import importlib.util

    from missions.witnesses import WORKSPACE_FOLDER

    spec = importlib.util.find_spec(WITNESS_PACKAGE)
    for folder in list(spec.submodule_search_locations or []) if spec is not None else []:
        if Path(folder).resolve().is_relative_to(root.resolve()):
            return Path(folder)
    return root / WORKSPACE_FOLDER


def plan(
    root: Path,
    mission_id: str,
    module: str | None,
    title: str | None,
    policy: PolicySettings | None = None,
) -> Scaffold:
    """Everything ``new`` writes, checked before anything is: what the project's policy asks
    of a mission (a witness, a README row) is scaffolded too, so the recipe ends green."""
    policy = policy or PolicySettings()
    _check_id(root, mission_id)
    module = module or default_module(mission_id)
    _check_module(root, module)
    title = mission_id.replace("-", " ").capitalize() if title is None else title
    _check_title(root, title)
    namespace = module
    yaml_path = root / "missions" / f"{mission_id}.yaml"
    root_file = Path(module_file(str(root), module, library_roots(root)))
    base = root_file.with_suffix("")
    lean_title = _lean_comment_text(title)
    witness: str | None = None
    files: dict[Path, str] = {}
    if policy.witnesses == "required":
        add_workspace(root)  # this workspace's witness modules, no other's
        name = mission_id.replace("-", "_")
        witness = f"{WITNESS_PACKAGE}.{name}"
        if module_exists(witness):
            raise InputError.single(
                root / "missions",
                1,
                f"a witness module {witness} exists already; choose another id",
            )
        files[witness_location(root) / f"{name}.py"] = _witness(mission_id)
    files = {
        yaml_path: mission_yaml(mission_id, title, module, namespace, witness),
        base / "Defs.lean": _defs(namespace, lean_title),
        base / "Statements.lean": _statements(namespace, module, lean_title),
        base / "Proofs.lean": _proofs(namespace, module, lean_title),
        root_file: _root_module(module, lean_title),
        **files,
    }
    clashes = [p for p in files if p.exists()]
    if clashes:
        raise InputError.single(clashes[0], 1, "already exists; choose another id or --module")
    readme_row = None
    if policy.readme_table is not None:
        row = f"| `{mission_id}` | {title.replace('|', '/')} | `{module}` |"
        if _add_row(root / policy.readme_table, row) is not None:  # it has a table
            readme_row = (root / policy.readme_table, row)
    return Scaffold(mission_id, module, files, witness, readme_row)


def next_steps(scaffold: Scaffold, policy: PolicySettings) -> list[str]:
    """What is left to do, in order, for the gate (and so CI) to pass."""
    mission = scaffold.mission_id
    steps = [
        f"replace every {PLACEHOLDER} in missions/{mission}.yaml and the Lean files",
        "write Defs.lean, then Statements.lean (docstrings cite source locators), then Proofs.lean",
        f"commit the Lean files, then `missions pin {mission}`",
    ]
    if scaffold.witness is not None:
        steps.append(
            f"write the witness claims in {scaffold.witness} (one per target), then "
            f"`missions witness --stamp {mission}`"
        )
    if policy.readme_table is not None and scaffold.readme_row is None:
        row = f"| `{mission}` | … | `{scaffold.module}` |"
        steps.append(f"add a missions table to {policy.readme_table} with the row {row}")
    steps += [f"`missions sync {mission}`", "`missions check`: the gate says what is left"]
    return ["next:"] + [f"  {n}. {s}" for n, s in enumerate(steps, 1)]


def _add_row(path: Path, row: str) -> str | None:
    """``path``'s text with ``row`` after the last row of its missions table (None: the file
    has no such table, so nothing is added)."""
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return None
    lines = text.splitlines(keepends=True)
    rows = [i for i, line in enumerate(lines) if ROW.match(line.rstrip("\n"))]
    if not rows:
        return None
    lines.insert(rows[-1] + 1, row + "\n")
    return "".join(lines)


def write(root: Path, scaffold: Scaffold) -> list[Path]:
    """Create every file, then register the module in ``Formal.lean``; undo on failure.

    Call it holding the workspace write lock (``Formal.lean`` is read, changed and written).
    """
    written: list[Path] = []
    changed: dict[Path, str] = {}  # existing files edited, with their text before
    current_path: Path = root
    try:
        for path, text in scaffold.files.items():
            current_path = path
            path.parent.mkdir(parents=True, exist_ok=True)
            atomic_write_text(path, text)
            written.append(path)
        index = current_path = root / "Formal.lean"
        line = f"import {scaffold.module}\n"
        current = index.read_text(encoding="utf-8") if index.exists() else ""
        if line not in current.splitlines(keepends=True):
            if current and not current.endswith("\n"):
                current += "\n"
            atomic_write_text(index, current + line)
            if index.exists() and current:
                changed[index] = current
            else:
                written.append(index)
        if scaffold.readme_row is not None:
            readme, row = scaffold.readme_row
            current_path = readme
            before = readme.read_text(encoding="utf-8") if readme.exists() else None
            after = _add_row(readme, row)
            if before is not None and after is not None:
                atomic_write_text(readme, after)
                changed[readme] = before
    except BaseException as exc:
        for path in written:
            path.unlink(missing_ok=True)
        for path, before in changed.items():
            atomic_write_text(path, before)
        if isinstance(exc, OSError):
            raise InputError.single(
                current_path, 1, f"cannot write: {exc.strerror or exc}"
            ) from None
        raise
    return written


def mission_yaml(
    mission_id: str, title: str, module: str, namespace: str, witness: str | None = None
) -> str:
    """The scaffold's mission YAML, built as data and dumped by ruamel (any title is safe)."""
    todo = PLACEHOLDER
    source = CommentedMap()
    source["key"] = "source"
    source["citation"] = f"{todo}: authors, title, venue, year"
    source["locators"] = _flow([f"{todo}: section, theorem, PDF page, equation"])
    provenance = CommentedMap()
    provenance["statement"] = "literature-sourced"
    provenance["proof"] = "none"
    provenance.fa.set_flow_style()
    goal = CommentedMap()
    goal["id"] = "goal"
    goal["kind"] = "goal"
    goal["title"] = f"{todo}: the main theorem"
    goal["informal"] = FoldedScalarString(f"{todo}: the claim in words and formulas.\n")
    goal["source"] = "source"
    goal["locator"] = todo
    goal["statement"] = f"{namespace}.Goal"
    goal["proof"] = f"{namespace}.goal"
    goal["depends_on"] = _flow([])
    goal["provenance"] = provenance
    if witness is not None:
        goal["witness"] = witness
    goal["status"] = "stated"
    goal["evidence"] = "source"
    lean = CommentedMap()
    lean["module"] = module
    doc = CommentedMap()
    doc["id"] = mission_id
    doc["title"] = DoubleQuotedScalarString(title)  # quoted: no YAML 1.1 reader sees a bool
    doc["category"] = "research-paper"
    doc["summary"] = FoldedScalarString(
        f"{todo}: what the result says and why it matters, in your own words.\n"
    )
    doc["sources"] = CommentedSeq([source])
    doc["lean"] = lean
    doc["conventions"] = CommentedSeq([f"{todo}: scope and modelling choices the source fixes"])
    doc["targets"] = CommentedSeq([goal])
    return dump_document(doc)


def _flow(items: list[str]) -> CommentedSeq:
    seq = CommentedSeq(items)
    seq.fa.set_flow_style()
    return seq


def _lean_comment_text(text: str) -> str:
    """``text`` safe inside a Lean block comment (which nests, so neither marker may occur)."""
    return text.replace("/-", "/ -").replace("-/", "- /")


def _defs(namespace: str, title: str) -> str:
    return f"""import Mathlib

/-!
# {title}: the model

Definitions only, sorry-free. Nothing the mission asks to prove is assumed here.
-/

namespace {namespace}

end {namespace}
"""


def _statements(namespace: str, module: str, title: str) -> str:
    return f"""import {module}.Defs

/-!
# {title}: statements

One Prop-valued definition per target. This file and what it imports form the statement
closure that `missions pin` hashes.
-/

namespace {namespace}

/-- TODO: the mission's goal, citing its source locator (paper, section, PDF page,
equation). The placeholder `False` cannot be proved on purpose: replace it with the
statement, then run `missions pin`. -/
def Goal : Prop := False

end {namespace}
"""


def _proofs(namespace: str, module: str, title: str) -> str:
    return f"""import {module}.Statements

/-!
# {title}: proofs

One theorem per target, whose type is exactly the statement constant.
-/

namespace {namespace}

theorem goal : Goal := by
  sorry

end {namespace}
"""


def _witness(mission_id: str) -> str:
    return f'''"""Witness for ``{mission_id}``.

{PLACEHOLDER}: what is checked numerically, and on which instances.

Transcribe each target's Lean statement into a claim (see the other modules of
``missions.witnesses``): checks on instances, deliberately wrong variants, a non-vacuity
instance with every hypothesis of the statement, and its named constants.
``missions witness --stamp {mission_id}`` refuses to stamp until each claim holds, is
non-vacuous and catches its wrong variants; until then ``missions check`` fails
(``witness-stale``).
"""

from __future__ import annotations

from collections.abc import Iterator

from missions.witness import Check, Claim, Context


def checks(ctx: Context) -> Iterator[Check]:
    # {PLACEHOLDER}: the statement on instances. This placeholder check fails on purpose.
    yield Check("placeholder: nothing is checked yet", 1, "<=", 0)


CLAIMS = [Claim("goal", "{PLACEHOLDER}: the claim checked, in words", checks)]
'''


def _root_module(module: str, title: str) -> str:
    return f"""import {module}.Defs
import {module}.Statements
import {module}.Proofs

/-! # {title} -/
"""
