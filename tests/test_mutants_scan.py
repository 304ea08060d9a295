"""Scanner behaviour that mutation testing found unguarded (``benchmarks/mutation.py``).

Each test fixes what :func:`missions.lean.scan.scan_source` reports for a small piece of
Lean (declarations and their lines, findings, extensions, unknown commands) or the verdict a
proof gets because of it, where a one-point change of the scanner went unnoticed by the rest
of the suite. Where a test asserts a scan, a contrasting input shows the same assertion
failing, so the test cannot pass vacuously.
"""

from __future__ import annotations

import dataclasses
import hashlib
from collections.abc import Callable
from dataclasses import MISSING
from pathlib import Path

import pytest

from conftest import as_lists
from missions.lean.lexer import DOC, MODDOC, Token, lex
from missions.lean.scan import KIND_NAMES, Decl, FileScan, scan_source, token_digest
from missions.lean.vocabulary import DECL_KEYWORDS, SCOPE_COMMANDS, SOFT_COMMANDS
from mutant_support import case_files, outcome

Build = Callable[..., Path]


def names(scan: FileScan) -> list[str]:
    return [d.name for d in scan.decls]


def decl(scan: FileScan, name: str):  # type: ignore[no-untyped-def]
    found = [d for d in scan.decls if d.name == name]
    assert len(found) == 1, names(scan)
    return found[0]


# ---------------------------------------------------------------- interpolated strings


def test_a_hole_spanning_lines_is_inside_the_command() -> None:
    """A word at column 0 inside ``s!"…{ … }"`` continues the term; outside a string the same
    word could start an unknown command, and is reported as one."""
    inside = scan_source('def greet : String := s!"hi {\nname}"\n')
    assert inside.unknown == []
    assert [(d.name, d.line, d.end_line) for d in inside.decls] == [("greet", 1, 2)]
    outside = scan_source("def greet : String := hi\nname\n")
    assert outside.unknown == [(2, "name")]


def test_a_hole_inside_brackets_closes_to_the_bracket_depth() -> None:
    scan = scan_source('def greet : String := (s!"a{x}b" ++\nname)\n')
    assert scan.unknown == []
    assert [(d.name, d.end_line) for d in scan.decls] == [("greet", 2)]


def test_a_string_with_several_holes_ends_at_depth_zero() -> None:
    """After ``s!"a{x}b{y}c"`` the next declaration starts a command of its own."""
    scan = scan_source('def f : String := s!"a{x}b{y}c"\ntheorem foo : True := trivial\n')
    assert [(d.name, d.line) for d in scan.decls] == [("f", 1), ("foo", 2)]
    assert "trivial" not in decl(scan, "f").mentions


def test_a_plain_string_with_a_brace_opens_no_hole() -> None:
    scan = scan_source('def f : String := "{"\ntheorem foo : True := trivial\n')
    assert [(d.name, d.line) for d in scan.decls] == [("f", 1), ("foo", 2)]


# ---------------------------------------------------------------- alias


def test_alias_declares_each_new_name_at_its_line() -> None:
    scan = scan_source("theorem t : True := trivial\n\n@[simp] alias foo := t\n")
    assert names(scan) == ["t", "foo"]
    foo = decl(scan, "foo")
    assert as_lists((foo.kind, foo.line, foo.mentions, foo.attrs)) == as_lists(
        ("alias", 3, ["t"], ["simp"])
    )
    # like every declaration, an alias starts at its doc comment, not at its `:=`
    documented = scan_source("theorem t : True := trivial\n/-- d -/\n@[simp]\nalias foo\n  := t\n")
    assert [(d.name, d.line) for d in documented.decls] == [("t", 1), ("foo", 2)]
    pair = scan_source("namespace N\nalias ⟨mp, mpr⟩ := iff_thm\nend N\n")
    assert names(pair) == ["N.mp", "N.mpr"]
    assert all(d.mentions == ("iff_thm",) for d in pair.decls)


@pytest.mark.parametrize(
    "text",
    [
        "alias foo",
        "alias",
        "export",
        "open",
        "open Foo renaming a →",
        "import",
        "attribute",
        "@[simp",
        "instance (",
        "instance",
        "class",
        "def f.",
        "theorem f.{u",
        "namespace",
    ],
)
def test_a_file_ending_inside_a_command_is_scanned(text: str) -> None:
    """Broken input never crashes the scanner (it becomes a scan Lean itself would reject)."""
    scan = scan_source(f"theorem t : True := trivial\n{text}")
    assert names(scan)[0] == "t"
    scan_source(text)  # the same text alone: the broken command is the file's first


@pytest.mark.parametrize("text", ["attribute [-simp", "attribute [-", "@[-"])
def test_an_unfinished_erasure_declares_nothing(text: str) -> None:
    assert scan_source(text).decls == []


def test_alias_without_a_name_still_reaches_its_target() -> None:
    scan = scan_source("namespace N\nalias := t\nend N\n")
    assert as_lists([(d.name, d.kind, d.mentions) for d in scan.decls]) == as_lists(
        [("N._alias", "alias", ["t"])]
    )


def test_an_erased_attribute_does_not_make_an_alias_implicit() -> None:
    assert decl(scan_source("@[-simp] alias foo := t\n"), "foo").implicit is False


@pytest.mark.parametrize(
    ("attrs", "implicit"),
    [("@[simp] ", True), ("", False), ("@[reducible] ", False), ("@[simp, inline] ", True)],
)
def test_an_alias_is_usable_by_automation_exactly_when_an_attribute_makes_it(
    make_workspace: Build, attrs: str, implicit: bool
) -> None:
    """``@[simp] alias`` hands its target to ``simp`` without the proof naming it; a plain or
    inert-attributed alias does not."""
    found = outcome(
        make_workspace,
        case_files(
            proofs=(
                "theorem bad : two = 2 := sorry\n\n"
                f"{attrs}alias bad' := bad\n\n"
                "theorem goal : Goal := by simp [Goal]\n"
            ),
        ),
    )
    assert decl(scan_source(f"{attrs}alias bad' := bad\n"), "bad'").implicit is implicit
    if implicit:
        assert found.status == "stated"
        assert found.says("sorry in Formal.Case.bad at Formal/Case/Proofs.lean:5")
    else:
        assert found.status == "proved", found.reasons


# ---------------------------------------------------------------- notation atoms


@pytest.mark.parametrize(("atom", "changes"), [("X", True), ("Y", False)])
def test_a_notation_whose_atom_is_the_statement_name_is_a_reason(
    make_workspace: Build, atom: str, changes: bool
) -> None:
    """``notation "X"`` in the proof's reach may change what the statement ``X`` means."""
    files = case_files(
        statements="def X : Prop := two = 2\n",
        proofs=(
            'def before : String := "X"\n\n'
            f'notation "{atom}" => True\n\n'
            'def after : String := "X"\n\n'
            "theorem goal : X := rfl\n"
        ),
    )
    found = outcome(make_workspace, files, statement="X")
    # only the notation's own atoms count, not strings elsewhere in the file
    reason = "`notation` at Formal/Case/Proofs.lean:7 may change what `X` means"
    assert found.says(reason) is changes, found.reasons
    assert found.status == ("stated" if changes else "proved"), found.reasons
    scan = scan_source(f'notation "{atom}" => True\n')
    assert [(e.line, e.command, e.code, e.atoms) for e in scan.extensions] == [
        (1, "notation", False, [atom])
    ]
    assert decl(scan, "<notation@1>").implicit is True


# ---------------------------------------------------------------- what a structure generates


def test_a_structure_generates_its_fields_constructors_and_parent_projections() -> None:
    """``Foo.mk``, ``x.val``, ``x.toT`` mention the structure only through these names."""
    scan = scan_source(
        "def helper : Nat := 1\n"
        "structure S (n : Nat) extends T, Foo.Bar where\n"
        "  val : Nat\n"
        "  mk2 :: (w : Nat)\n"
    )
    generated = set(decl(scan, "S").generated)
    assert {"mk", "rec", "casesOn", "val", "mk2", "w", "toT", "toBar"} <= generated
    # nothing from before the name, no projection for binders or fields, no dotted names
    assert not {"helper", "toNat", "ton", "toval", "tow", "Foo.Bar", "structure"} & generated
    assert decl(scan, "helper").generated == ()


# ---------------------------------------------------------------- dotted declaration names


def test_a_dotted_name_resolves_in_every_enclosing_namespace() -> None:
    scan = scan_source(
        "namespace N\nnamespace M\ntheorem A.c : True := trivial\nend M\nend N\n"
        "theorem B.d : True := trivial\n"
    )
    inner = decl(scan, "N.M.A.c")
    assert as_lists((inner.namespace, inner.opens)) == as_lists(("N.M.A", ["N.M", "N"]))
    outer = decl(scan, "B.d")
    assert (outer.namespace, outer.opens) == ("B", ())


# ---------------------------------------------------------------- notations and aliases


def test_a_notation_is_a_declaration_spanning_its_lines() -> None:
    text = (
        'notation "X" =>\n  (1 : Nat).succ\n'
        'notation "Y" => by native_decide\n'
        'notation "Z" => by exact?\n'
        'notation "W" => sorry\n'
        'notation "V" =>\n  True\n'
    )
    scan = scan_source(text)
    spans = [(d.name, d.kind, d.line, d.end_line, text[d.start : d.end]) for d in scan.decls]
    assert spans == [
        ("<notation@1>", "notation", 1, 2, 'notation "X" =>\n  (1 : Nat).succ'),
        ("<notation@3>", "notation", 3, 3, 'notation "Y" => by native_decide'),
        ("<notation@4>", "notation", 4, 4, 'notation "Z" => by exact?'),
        ("<notation@5>", "notation", 5, 5, 'notation "W" => sorry'),
        ("<notation@6>", "notation", 6, 7, 'notation "V" =>\n  True'),
    ]
    x, y, z, w, _ = scan.decls
    assert x.dot_mentions == ("succ",)
    assert (y.natives, z.searches, w.sorries) == ((3,), (4,), (5,))
    assert [(e.line, e.sorries) for e in scan.extensions] == [
        (1, []),
        (3, []),
        (4, []),
        (5, [5]),
        (6, []),
    ]
    assert [e.code for e in scan.extensions] == [False] * 5


def test_an_alias_as_proof_under_a_variable_is_not_certain(make_workspace: Build) -> None:
    """A ``variable`` in scope may change the type of an alias, as of any declaration."""
    scan = scan_source("section\nvariable (n : Nat)\nalias goal := other\nend\n")
    assert decl(scan, "goal").variables is True
    assert decl(scan_source("alias goal := other\n"), "goal").variables is False
    found = outcome(
        make_workspace,
        case_files(
            proofs=(
                "theorem real : Goal := rfl\n\nsection\nvariable (n : ℕ)\nalias goal := real\nend\n"
            )
        ),
    )
    assert found.status == "stated"
    assert found.says("a `variable` is in scope of Formal.Case.goal")


# ---------------------------------------------------------------- findings and attributes


def test_findings_name_the_line_of_their_command() -> None:
    scan = scan_source(
        "theorem a : True := trivial\n\naxiom ax : False\n\n"
        "@[implemented_by foo]\ndef g : Nat := 1\nunsafe def h : Nat := 1\n"
    )
    assert [(f.line, f.code) for f in scan.findings] == [
        (3, "axiom"),
        (5, "implemented_by"),
        (7, "unsafe"),
    ]


def test_attributes_with_nested_brackets_belong_to_the_next_declaration() -> None:
    scan = scan_source(
        "theorem a : True := trivial\n\n"
        "@[simp, aesop safe (rule_sets := [x])]\ntheorem b : True := trivial\n"
    )
    b = decl(scan, "b")
    assert as_lists((b.line, b.attrs, b.implicit)) == as_lists((3, ["simp", "aesop"], True))
    assert decl(scan, "a").attrs == ()


def test_only_the_aesop_tactic_builder_runs_workspace_code() -> None:
    """``@[aesop … tactic]`` runs the declaration as a tactic: custom elaboration the source
    scan cannot follow; other aesop rules only hand a lemma to the search."""
    runs = scan_source("@[aesop safe tactic]\ndef t : Nat := 1\n")
    assert [(e.line, e.command, e.code) for e in runs.extensions] == [(1, "@[aesop]", True)]
    assert scan_source("@[aesop safe apply]\ntheorem u : True := trivial\n").extensions == []


# ---------------------------------------------------------------- `… in` and hash commands


def test_open_in_applies_to_the_next_command_only() -> None:
    scan = scan_source(
        "open Foo in\ntheorem a : True := trivial\ntheorem b : True := trivial\n"
        "open Bar\ntheorem c : True := trivial\ntheorem d : True := trivial\n"
        "open Baz in\nset_option pp.all true in\ntheorem e : True := trivial\n"
        "open Qux in\nsuppress_compilation in\ntheorem f : True := trivial\n"
    )
    opens = {d.name: d.opens for d in scan.decls}
    assert "Foo" in opens["a"] and "Foo" not in opens["b"]
    assert "Bar" in opens["c"] and "Bar" in opens["d"]
    assert "Baz" in opens["e"]  # carried through `set_option … in`
    assert "Qux" in opens["f"]  # and through an inert command's `in`


def test_an_open_after_an_in_prefix_is_read_as_file_wide() -> None:
    """Lean scopes the ``open`` that follows ``set_option … in`` to that one command; the scan
    may read it wider, never narrower than the commands after it (an over-approximation)."""
    scan = scan_source(
        "set_option autoImplicit false in\nopen Foo\n"
        "theorem a : True := trivial\ntheorem b : True := trivial\n"
    )
    opens = {d.name: d.opens for d in scan.decls}
    assert "Foo" in opens["a"] and "Foo" in opens["b"]


def test_unknown_hash_commands_are_recorded_at_their_line() -> None:
    scan = scan_source("theorem a : True := trivial\n#foo_cmd x\n#check Nat\n#exit\n")
    assert scan.unknown == [(2, "#foo_cmd")]  # `#check` is inert, `#exit` ends the file
    assert scan.exit_line == 4
    # inside an interpolation hole `#exit` does not end the file, and is no unknown command
    hole = scan_source('def f : String := s!"{ #exit }"\n')
    assert (hole.unknown, hole.exit_line) == ([], None)


def test_an_unknown_hash_command_in_the_closure_is_a_reason(make_workspace: Build) -> None:
    found = outcome(make_workspace, case_files(proofs="#foo_cmd\n\ntheorem goal : Goal := rfl\n"))
    assert found.status == "stated"
    assert found.says(
        "`#foo_cmd` at Formal/Case/Proofs.lean:5 is a command the scanner does not know"
    )


# ---------------------------------------------------------------- attribute commands


def test_attribute_commands_that_only_erase_or_are_inert_declare_nothing() -> None:
    scan = scan_source(
        "attribute [-simp] foo\nattribute [reducible] bar\nattribute [simp] baz\n"
        "attribute [implemented_by q] r\n"
    )
    assert as_lists(
        [(d.name, d.kind, d.line, d.attrs, d.implicit) for d in scan.decls]
    ) == as_lists(
        [
            ("<attribute@3>", "attribute", 3, ["simp"], True),
            ("<attribute@4>", "attribute", 4, ["implemented_by"], True),
        ]
    )
    assert [(f.line, f.code) for f in scan.findings] == [(4, "implemented_by")]


def test_symbols_inside_an_attribute_are_not_erasures() -> None:
    scan = scan_source("@[aesop unsafe 50% apply]\ntheorem a : True := trivial\n")
    assert decl(scan, "a").attrs == ("aesop",)


@pytest.mark.parametrize(
    ("command", "opened", "in_file"),
    [
        ("open scoped Foo", ["Foo"], ["Foo"]),
        ("open private Foo in", ["Foo"], ["Foo"]),
        ("open Foo hiding bar", ["Foo", "bar"], ["Foo", "bar"]),
        ("open Foo renaming x → y", ["Foo", "x", "y"], ["Foo"]),
    ],
)
def test_open_markers_are_not_namespaces(
    command: str, opened: list[str], in_file: list[str]
) -> None:
    """``scoped``, ``private``, ``hiding`` and ``renaming`` say how to open, not what: neither
    in the scope of the next declaration nor in the file-wide list."""
    scan = scan_source(f"{command}\ntheorem a : True := trivial\n")
    assert as_lists(decl(scan, "a").opens) == as_lists(opened)
    assert scan.opens == in_file


def test_open_inside_a_namespace_may_mean_each_enclosing_reading() -> None:
    """``open X`` in ``namespace A.B`` may open ``X``, ``A.B.X`` or ``A.X``; ``_root_.Y`` only
    ``Y``."""
    scan = scan_source(
        "namespace A.B\nopen X\nopen _root_.Y Z\ntheorem t : True := trivial\nend A.B\n"
    )
    expected = ["X", "A.B.X", "A.X", "Y", "Z", "A.B.Z", "A.Z"]
    assert as_lists(decl(scan, "A.B.t").opens) == as_lists(expected)
    assert scan.opens == expected


def test_a_word_that_admits_counts_wherever_it_stands() -> None:
    """``stop`` is ``repeat sorry``: ``try stop``, ``first | stop``, ``{ stop }`` and a name
    ``stop`` all count (a name is the price of never missing the tactic)."""
    scan = scan_source(
        "theorem a : True := by\n  stop\n  trivial\n"
        "theorem b : True := by stop\n"
        "def stop := 1\n"
        "theorem c : True := by\n  simp\n  try stop\n"
        "theorem d : True := by first | stop | trivial\n"
        "theorem e : True := by { stop }\n"
    )
    assert scan.sorry_lines == [2, 4, 5, 8, 9, 10]
    assert scan.admits == [
        (2, "stop"),
        (4, "stop"),
        (5, "stop"),
        (8, "stop"),
        (9, "stop"),
        (10, "stop"),
    ]
    assert scan_source("stop x ;").sorry_lines == [1]
    assert scan_source("theorem p : True := by plausible").admits == [(1, "plausible")]
    assert scan_source("theorem p : True := by sorry").admits == []  # sorry says so itself


def test_an_erased_name_is_not_an_argument_of_the_next_attribute() -> None:
    assert scan_source("attribute [-tactic, aesop safe apply] foo\n").extensions == []


def test_every_open_in_a_file_is_recorded_with_its_renamings() -> None:
    """The file-wide list bounds name resolution: explicit names, renamings, and an
    ``open … in`` inside a proof all count."""
    explicit = scan_source("open Foo (bar baz)\ntheorem a : True := trivial\n")
    assert explicit.opens == ["Foo", "bar", "baz"]
    renamed = scan_source("open Foo renaming a → b, c → d\ntheorem t : True := trivial\n")
    assert (renamed.opens, renamed.renames) == (["Foo"], {"b": ["a"], "d": ["c"]})
    tactic = scan_source("theorem t : True := by\n  open Foo (bar) in\n  trivial\n")
    assert tactic.opens == ["Foo", "bar"]
    ascii_arrow = scan_source("open Foo renaming a -> b\ntheorem t : True := trivial\n")
    assert ascii_arrow.renames == {"b": ["a"]}
    # an arrow renames only after `renaming`, and only to a name
    assert scan_source("open Foo x → y\n").renames == {}
    assert scan_source("open Foo renaming a → 1\n").renames == {}


@pytest.mark.parametrize(
    ("text", "attrs"),
    [
        ("attribute [simp, -foo] bar\n", ["simp", "-foo"]),
        ("attribute [local simp] foo\n", ["simp"]),
        ("@[scoped simp] theorem a : True := trivial\n", ["simp"]),
    ],
)
def test_attribute_names_skip_scope_markers_and_keep_erasures(text: str, attrs: list[str]) -> None:
    (found,) = scan_source(text).decls
    assert as_lists(found.attrs) == as_lists(attrs)


def test_native_counts_wherever_it_stands_and_so_does_an_unreadable_configuration() -> None:
    scan = scan_source(
        "theorem t (native : ℕ) : True := trivial\ntheorem u : True := by decide +native\n"
        "theorem v : True := by decide (config := {native := true})\n"
        "def x : Bool := native\n"
        "theorem w : True := by decide (config := cfg)\n"
        "theorem y : True := by decide (config := ⟨false, true⟩)\n"
        "theorem z : True := by decide (config := { base with kernel := true })\n"
        "theorem ok : True := by decide (config := { kernel := true })\n"
        "def config := 1\n"
    )
    assert [(f.line, f.code) for f in scan.findings] == [
        (1, "native"),
        (2, "native"),
        (3, "native"),
        (4, "native"),
        (5, "native"),
        (6, "native"),
        (7, "native"),
    ]
    assert as_lists([d.natives for d in scan.decls]) == [[1], [2], [3], [4], [5], [6], [7], [], []]


@pytest.mark.parametrize(
    ("text", "codes"),
    [
        ("theorem t : True := by exact native", ["native"]),
        ("theorem t : True := by decide (config :=", ["native"]),
        ("def x := {native :=", ["native"]),
        ("+ native", ["native"]),
        ("theorem t : True := trivial\nset_option debug.skipKernelTC", ["debug"]),
        ("theorem t : True := trivial\nset_option", []),
        ("theorem t : True := trivial\nopen private", ["open-private"]),
    ],
)
def test_flags_at_the_end_of_a_file(text: str, codes: list[str]) -> None:
    """A file may end right after (or at) the word that matters."""
    assert [f.code for f in scan_source(text).findings] == codes


def test_a_renaming_ends_at_in() -> None:
    scan = scan_source("theorem t : True := by\n  open Foo renaming a → b in\n  exact trivial\n")
    assert (scan.opens, scan.renames) == (["Foo"], {"b": ["a"]})


def test_a_doc_comment_starts_the_declaration_it_documents() -> None:
    scan = scan_source(
        "theorem a : True := by\n  trivial\n/-- doc -/\ntheorem b : True := trivial\n"
    )
    assert [(d.name, d.line, d.end_line) for d in scan.decls] == [("a", 1, 2), ("b", 3, 4)]
    # a doc comment that documents nothing inside a term is a break Lean rejects: the
    # declaration ends before it, and what follows counts both ways (here: nothing)
    dangling = scan_source("theorem t : True := trivial\n/-- dangling -/\n")
    assert [(d.name, d.line, d.end_line) for d in dangling.decls] == [("t", 1, 1)]
    hidden = scan_source("theorem t : True := trivial\n/-- dangling -/ sorry\n")
    # `t`'s tail, and its own
    assert as_lists([d.sorries for d in hidden.decls]) == [[2], [2]]


@pytest.mark.parametrize(
    ("text", "found"),
    [
        ("deriving instance Repr for S\n", [("<deriving@1>", "deriving")]),
        ("class inductive Foo : Prop\n  | mk : Foo\n", [("Foo", "class inductive")]),
        ("class abbrev Bar := Foo\n", [("Bar", "class abbrev")]),
        ("public meta def f : Nat := 1\n", [("f", "def")]),
        ("open private secret in\ntheorem t : True := trivial\n", [("t", "theorem")]),
    ],
)
def test_a_keyword_after_its_prefix_continues_the_command(
    text: str, found: list[tuple[str, str]]
) -> None:
    """``deriving instance``, ``class inductive``, ``public meta``, ``open private``: the
    second keyword is part of the first one's command, not a command of its own."""
    assert [(d.name, d.kind) for d in scan_source(text).decls] == found


def test_a_scan_survives_the_cache_round_trip_with_its_error() -> None:
    """Scans are cached as JSON; a file Lean cannot lex must stay faulty when read back."""
    scan = scan_source('theorem a : True := trivial\ndef b := "open\n')
    assert scan.error == (2, "unterminated string literal")
    again = FileScan.from_json(scan.to_json())
    assert again == scan
    assert again.error == (2, "unterminated string literal")
    clean = scan_source("theorem a : True := trivial\n")
    assert FileScan.from_json(clean.to_json()).error is None


def test_open_private_is_a_finding_and_export_private_is_not() -> None:
    scan = scan_source("open private secret in\ntheorem t : True := trivial\nexport private Foo\n")
    assert [(f.line, f.code) for f in scan.findings] == [(1, "open-private")]


def test_an_import_after_the_header_and_open_private_are_reported_as_such() -> None:
    scan = scan_source(
        "import Mathlib\ntheorem t : True := trivial\nimport Foo\n"
        "open private secret in\ntheorem u : True := trivial\n"
    )
    assert [(f.line, f.code, f.message) for f in scan.findings] == [
        (3, "import", "`import` after the header: Lean rejects this file"),
        (4, "open-private", "`open private` reaches private declarations"),
    ]
    assert scan.imports == [("Mathlib", 1), ("Foo", 3)]  # still followed, to be safe


@pytest.mark.parametrize(
    ("text", "decls"),
    [
        (  # a `deriving` clause ends its structure; only `deriving instance` is a command
            "structure S where\n  x : Nat\nderiving Repr\n\ntheorem t : True := trivial\n",
            [("structure", "S", 1, 3), ("theorem", "t", 5, 5)],
        ),
        (
            "deriving instance Repr for S\n\ntheorem t : True := trivial\n",
            [("deriving", "<deriving@1>", 1, 1), ("theorem", "t", 3, 3)],
        ),
        (
            "class inductive C : Prop\n  | mk\n\ntheorem t : True := trivial\n",
            [("class inductive", "C", 1, 2), ("theorem", "t", 4, 4)],
        ),
        ("class abbrev D := Inhabited Nat\n", [("class abbrev", "D", 1, 1)]),
        (  # after another command, `deriving instance`, `inductive`, `abbrev` start one
            "def x := 1\nderiving instance Repr for S\ninductive T where\n  | a\nabbrev y := 2\n",
            [
                ("def", "x", 1, 1),
                ("deriving", "<deriving@2>", 2, 2),
                ("inductive", "T", 3, 4),
                ("abbrev", "y", 5, 5),
            ],
        ),
        ("open private foo in\ntheorem t : True := trivial\n", [("theorem", "t", 2, 2)]),
        ("open scoped Foo\ntheorem t : True := trivial\n", [("theorem", "t", 2, 2)]),
        (
            "public meta def f := 1\ntheorem t : True := trivial\n",
            [("def", "f", 1, 1), ("theorem", "t", 2, 2)],
        ),
        (
            "instance (priority := low) foo : Inhabited Nat := ⟨0⟩\n",
            [("instance", "foo", 1, 1)],
        ),
        ("instance : Inhabited Nat := ⟨0⟩\n", [("instance", "_instance_1", 1, 1)]),
        ("attribute [instance] foo\n", [("attribute", "<attribute@1>", 1, 1)]),
        (  # universe parameters are not part of the name
            "def foo.{u} (α : Sort u) : Sort u := α\ntheorem t : True := trivial\n",
            [("def", "foo", 1, 1), ("theorem", "t", 2, 2)],
        ),
        ("structure S where\n  protected x : Nat\n  y : Nat\n", [("structure", "S", 1, 3)]),
        ("example : True := trivial\n", [("example", "_example_1", 1, 1)]),
        (  # a command word inside a proof at column 0 ends it; indented, it does not
            "theorem a : True := by\n  exact trivial\nopen Foo\ntheorem b : True := trivial\n",
            [("theorem", "a", 1, 2), ("theorem", "b", 4, 4)],
        ),
    ],
)
def test_commands_split_where_lean_starts_them(
    text: str, decls: list[tuple[str, str, int, int]]
) -> None:
    scan = scan_source(text)
    assert [(d.kind, d.name, d.line, d.end_line) for d in scan.decls] == decls
    assert scan.unknown == []


def test_open_private_opens_for_the_next_command() -> None:
    [t] = scan_source("open private foo in\ntheorem t : True := trivial\n").decls
    assert as_lists((t.name, t.opens)) == as_lists(("t", ["foo"]))


def test_universe_parameters_are_not_binders() -> None:
    [goal] = scan_source("theorem goal.{u} : Goal := rfl\n").decls
    assert (goal.name, goal.type_name, goal.has_binders) == ("goal", "Goal", False)
    [cut] = scan_source("theorem cut.{").decls  # nor is a list the file cuts short
    assert (cut.name, cut.has_binders) == ("cut", False)


def test_content_follows_the_tokens_of_a_declaration() -> None:
    """What the lints read: any token, not the layout, comments or doc comments."""

    def contents(text: str) -> list[str]:
        return [d.content for d in scan_source(text).decls]

    base = "/-- doc -/\ndef A : Prop := ∀ n : ℕ, n ≤ n ^ 2\n\ntheorem b : A := sorry\n"
    [a, b] = contents(base)
    assert a != b and len(a) == 16
    assert contents(base.replace("/-- doc -/", "/-- other -/")) == [a, b]
    assert contents(base.replace("n ^ 2", "n  ^  2 -- layout")) == [a, b]
    assert contents("-- moved\n" + base) == [a, b]
    changed = contents(base.replace("n ^ 2", "n ^ 3"))
    assert changed[0] != a and changed[1] == b
    assert contents(base.replace("sorry", "trivial"))[1] != b
    [pseudo] = contents("attribute [simp] foo\n")
    assert pseudo != contents("attribute [simp] bar\n")[0]


DECLARATIONS = (
    "namespace N\n\n"
    "/-- doc -/\n@[simp, -instance] protected theorem foo.{u} {α : Sort u} (x : α) : Goal := by\n"
    "  exact (.inl (h.bar.baz (List.map f xs) x))\n\n"
    "class inductive C : Prop\n  | mk\n\n"
    "instance : Inhabited Nat := ⟨0⟩\n\n"
    "end N\n"
)


def test_everything_a_declaration_records() -> None:
    """Every field the resolver, the reach, the lint and the reports read, for a theorem
    with docs, attributes, a modifier, universe and ordinary binders and field notation, a
    class inductive (its generated names over-approximate) and an anonymous instance; the
    fields not listed keep their defaults."""
    scan = scan_source(DECLARATIONS)
    defaults = {f.name: f.default for f in dataclasses.fields(Decl) if f.default is not MISSING}
    seen = [
        {k: v for k, v in dataclasses.asdict(d).items() if k not in ("start", "end", "content")}
        for d in scan.decls
    ]
    changed = [{k: v for k, v in d.items() if k not in defaults or v != defaults[k]} for d in seen]
    assert as_lists(changed) == as_lists(
        [
            {
                "name": "N.foo",
                "kind": "theorem",
                "line": 3,
                "end_line": 5,
                "namespace": "N",
                "opens": [],
                "modifiers": ["protected"],
                "attrs": ["simp", "-instance"],
                "mentions": [
                    "Goal",
                    "List.map",
                    "Sort",
                    "by",
                    "exact",
                    "f",
                    "h.bar.baz",
                    "inl",
                    "instance",
                    "protected",
                    "simp",
                    "theorem",
                    "u",
                    "x",
                    "xs",
                    "α",
                ],
                "dot_mentions": ["inl"],
                "has_binders": True,
                "type_name": "Goal",
                "type_tokens": 1,
                "implicit": True,
            },
            {
                "name": "N.C",
                "kind": "class inductive",
                "line": 7,
                "end_line": 8,
                "namespace": "N",
                "opens": [],
                "mentions": ["Prop", "class", "inductive", "mk"],
                "generated": [
                    "Prop",
                    "casesOn",
                    "ext",
                    "ext_iff",
                    "mk",
                    "noConfusion",
                    "rec",
                    "recOn",
                ],
                "type_name": "Prop",
                "type_tokens": 1,
            },
            {
                "name": "N._instance_10",
                "kind": "instance",
                "line": 10,
                "end_line": 10,
                "namespace": "N",
                "opens": [],
                "mentions": ["Inhabited", "Nat", "instance"],
                "type_tokens": 2,
                "implicit": True,
            },
        ]
    )
    assert [DECLARATIONS[d.start : d.end] for d in scan.decls] == [
        "/-- doc -/\n@[simp, -instance] protected theorem foo.{u} {α : Sort u} (x : α) : Goal "
        ":= by\n  exact (.inl (h.bar.baz (List.map f xs) x))",
        "class inductive C : Prop\n  | mk",
        "instance : Inhabited Nat := ⟨0⟩",
    ]


@pytest.mark.parametrize(
    ("text", "generated", "implicit"),
    [
        (  # a class abbreviation makes a structure: its constructor and eliminators
            "class abbrev D := Inhabited Nat\n",
            ["Inhabited", "Nat", "casesOn", "ext", "ext_iff", "mk", "noConfusion", "rec", "recOn"],
            False,
        ),
        ("@[-simp] theorem x : True := trivial\n", [], False),  # erasing adds no rule
        ("@[inline] def y := 1\n", [], False),  # an inert attribute
        ("@[simp] theorem z : True := trivial\n", [], True),
    ],
)
def test_what_a_declaration_generates_and_whether_automation_uses_it(
    text: str, generated: list[str], implicit: bool
) -> None:
    [decl] = scan_source(text).decls
    assert as_lists((decl.generated, decl.implicit)) == as_lists((generated, implicit))


@pytest.mark.parametrize(
    ("text", "signature"),
    [
        ("theorem t : Goal := rfl", (False, "Goal", 1)),
        ("theorem t (x : Nat) : Goal := rfl", (True, "Goal", 1)),
        ("theorem t : (Goal) := rfl", (False, None, 3)),
        ("theorem t (h : f (x : Nat)) : Goal := rfl", (True, "Goal", 1)),  # nested colons
        ("theorem t (h : a ∣ b) : Goal := rfl", (True, "Goal", 1)),  # `∣` divides, not `|`
        ("def S : Type where\n  x : Nat", (False, "Type", 1)),  # `where` ends the type
        ("inductive T : Type\n  | a", (False, "Type", 1)),  # so does a constructor's `|`
        ("theorem t : ∀ x : Nat, x = x := fun _ => rfl", (False, None, 8)),  # the first colon
        ("theorem t : Goal", (False, "Goal", 1)),  # no body
        ("def x := 1", (False, None, 0)),  # no type
        ("def f x := x", (True, None, 0)),  # binders and no type
        ("abbrev A : Prop := (B : Prop)", (False, "Prop", 1)),  # a colon in the body
    ],
)
def test_binders_and_the_type_of_a_declaration(
    text: str, signature: tuple[bool, str | None, int]
) -> None:
    decl = scan_source(text).decls[0]
    assert (decl.has_binders, decl.type_name, decl.type_tokens) == signature


RICH_FILE = (
    "import Mathlib\n\n/-- TODO: the statement -/\ndef a := (1)\n"
    'open Foo renaming x → y\nexport Bar (z)\nnotation "N" => a\nfrobnicate\n'
    "private def b := 2\n/-- doc -/\n@[simp] protected theorem c : True := (trivial)\n"
    "import Late.Mod\n#exit\ntheorem d : True := sorry\n"
)


def test_a_whole_file_scan_and_its_cache_round_trip() -> None:
    """Every part of a file's scan, and the same scan read back from its cached JSON."""
    scan = scan_source(RICH_FILE)
    assert as_lists(
        [(d.kind, d.name, d.line, d.end_line, d.modifiers) for d in scan.decls]
    ) == as_lists(
        [
            ("def", "a", 3, 4, []),
            ("notation", "<notation@7>", 7, 7, []),
            ("unknown command", "<unknown command@8>", 8, 8, []),
            ("def", "b", 9, 9, ["private"]),  # a modifier after a command starts the next one
            ("theorem", "c", 10, 11, ["protected"]),  # so do docs and attributes
        ]
    )
    assert scan.imports == [("Mathlib", 1), ("Late.Mod", 12)]  # a late import is still one
    assert scan.placeholders == [(3, "/-- TODO: the statement -/")]
    assert (scan.unknown, scan.exports, scan.exit_line) == ([(8, "frobnicate")], ["Bar"], 13)
    assert "x" in scan.renames["y"]
    assert [f.code for f in scan.findings] == ["import"]
    assert [e.command for e in scan.extensions] == ["notation"]
    assert FileScan.from_json(scan.to_json()) == scan


@pytest.mark.parametrize(
    ("text", "dots"),
    [
        ("theorem t : True := h |>.elim\n", ["elim"]),  # `|>.f` is field notation
        ("theorem t : True := (h).elim\n", ["elim"]),  # so is `.f` right after a term
        ("theorem t : True := h |>. elim\n", []),  # not when a space comes between
        ("theorem t : True := f . g\n", []),
    ],
)
def test_field_notation_after_a_term(text: str, dots: list[str]) -> None:
    [decl] = scan_source(text).decls
    assert as_lists(decl.dot_mentions) == as_lists(dots)


def test_a_root_name_leaves_every_namespace() -> None:
    [decl] = scan_source("namespace N\ndef _root_.foo := 1\nend N\n").decls
    assert decl.name == "foo"


def test_erasing_a_forbidden_attribute_is_still_reported() -> None:
    """``attribute [-csimp] f`` names a compiler-trusting attribute: the scan reports it
    whether it is added or erased (it cannot tell which one Lean had before)."""
    found = scan_source("attribute [-csimp] foo\n").findings
    assert [(f.line, f.code) for f in found] == [(1, "csimp")]


@pytest.mark.parametrize(
    ("text", "decls"),
    [
        ("def x := 1\npublic meta def f := 1\n", [("x", 1, []), ("f", 2, ["public", "meta"])]),
        # the first command has nothing before it, whatever the file ends with
        ("instance : Inhabited Nat := ⟨0⟩\nderiving", [("_instance_1", 1, [])]),
    ],
)
def test_modifiers_stay_with_their_declaration(
    text: str, decls: list[tuple[str, int, list[str]]]
) -> None:
    assert as_lists([(d.name, d.line, d.modifiers) for d in scan_source(text).decls]) == as_lists(
        decls
    )


@pytest.mark.parametrize(
    ("text", "imports", "findings"),
    [
        (
            "module\n\npublic import A.B\nmeta import C\npublic meta import D\nimport all E\n\n"
            "def x := 1\n",
            [("A.B", 3), ("C", 4), ("D", 5), ("E", 6)],
            [],
        ),
        ("prelude\nimport Init.Core\n", [("Init.Core", 2)], [(1, "prelude")]),
        ("module\nprelude\nimport X\n", [("X", 3)], [(2, "prelude")]),
        ("import A", [("A", 1)], []),  # the header is the whole file
    ],
)
def test_the_module_header(
    text: str, imports: list[tuple[str, int]], findings: list[tuple[int, str]]
) -> None:
    scan = scan_source(text)
    assert scan.imports == imports
    assert [(f.line, f.code) for f in scan.findings] == findings


def test_text_after_an_uncertain_boundary_counts_for_the_declaration_before() -> None:
    """Words at column 0 may be unknown commands or the end of the term above: both readings
    count, the second as the declaration's tail, through every uncertain boundary in a row."""
    scan = scan_source("theorem a : True := x\nfoo\nbar\ntheorem b : True := y\n")
    assert as_lists([(d.name, d.tail_mentions) for d in scan.decls]) == as_lists(
        [
            ("a", ["bar", "foo"]),
            ("<unknown command@2>", []),
            ("<unknown command@3>", []),
            ("b", []),
        ]
    )
    assert scan.unknown == [(2, "foo"), (3, "bar")]
    last = scan_source("theorem a : True := x\nfoo\nbar\n")  # ending the file uncertainly
    first = last.decls[0]
    assert (first.name, first.tail_mentions) == ("a", ("bar", "foo"))


def test_the_token_digest_is_stable_and_ignores_what_lean_ignores() -> None:
    """Statement pins recorded in users' YAML are these digests: the same tokens, laid out
    the same way (every token's column: Lean reads whitespace in places no list keeps up
    with), must give the same digest until the pin format changes, whatever the comments,
    docs and blank lines; ``#exit`` must count."""
    digest = scan_source("/-- doc -/\ntheorem t : True := trivial -- c\n").digest
    assert digest == "dbc63716bca86a2681af022ac3e67c0d4b6e9b72c4bd6343b649f4ac1afb0c81"
    assert scan_source("\n-- c\n\ntheorem t : True := trivial /- c -/\n").digest == digest
    moved = [
        "theorem t : True :=\n  trivial\n",  # a token that starts a line, and its column
        " theorem t : True := trivial\n",
        "theorem t : True :=trivial\n",  # adjacency: Lean's `noWs` reads it
        "theorem t :  True := trivial\n",  # spacing inside a line moves a column
    ]
    assert digest not in {scan_source(text).digest for text in moved}
    exits = [scan_source(f"theorem {n} : True := trivial\n#exit\n").digest for n in "tu"]
    assert digest not in exits and exits[0] != exits[1]


def _reference_digest(tokens: list[Token], exit_cut: bool, text: str) -> str:
    """The pin digest as its format defines it, written plainly (the scanner's is tuned)."""
    kept = [t for t in tokens if t[0] not in (DOC, MODDOC)]
    parts = []
    previous_end = 0
    for index, (kind, value, offset) in enumerate(kept):
        breaks = "\n" in text[previous_end:offset]
        column = offset - (text.rfind("\n", 0, offset) + 1)
        parts.append(f"{KIND_NAMES[kind]}\x1f{value}\x1f{'n' if breaks or not index else ''}")
        parts[-1] += f"{column}\x1e"
        previous_end = offset + len(value)
    return hashlib.sha256(("".join(parts) + ("#exit" if exit_cut else "")).encode()).hexdigest()


def test_the_token_digest_is_its_plain_definition() -> None:
    sources = [
        path.read_text(encoding="utf-8")
        for path in sorted(Path(__file__).parent.parent.glob("Formal/**/*.lean"))
    ]
    sources += [
        "/-- doc -/ theorem t : True := trivial",  # the first kept token after a doc
        "  /-! m -/\n\n  def a := 1\n/-- d -/\ndef b :=\n    a",
        "theorem t : True := by\n  trivial\n#exit\nafter",
        "",
    ]
    for text in sources:
        source = lex(text)
        for cut in (False, True):
            assert token_digest(source.tokens, cut, text) == _reference_digest(
                source.tokens, cut, text
            )


@pytest.mark.parametrize(
    "after",
    [
        "@[simp] theorem b : True := trivial\n",
        "/-- doc -/\ntheorem b : True := trivial\n",
        "theorem b : True := trivial\n",
    ],
)
def test_attributes_docs_and_keywords_end_a_command_for_certain(after: str) -> None:
    [a, *_] = scan_source("def a := 1\n" + after).decls
    assert as_lists((a.name, a.end_line, a.tail_mentions)) == as_lists(("a", 1, []))


def test_a_hash_command_ends_a_body_only_perhaps() -> None:
    """After a term the scan does not rule out that a ``#`` word still belongs to it, so what
    follows counts for the declaration too (the sound reading)."""
    [a] = scan_source("def a := 1\n#check b\n").decls
    assert as_lists((a.end_line, a.tail_mentions)) == as_lists((1, ["b"]))


SCOPES = (
    "namespace A.B\nsection S\nopen C in\ntheorem t : True := x\ntheorem u : True := x\n"
    "end S\nexport D (y)\nmutual\ntheorem m1 : True := m2\ntheorem m2 : True := m1\nend\n"
    "include h\ntheorem v : True := x\nend A.B\ntheorem r : True := z\n"
    "unset_option pp.all in\ntheorem w : True := z\n"
)


def test_scopes_namespaces_opens_and_variables() -> None:
    """Names are qualified by the namespaces around them; `open … in` reaches one command;
    an export reaches the rest of its namespace (a `mutual` block's `end` closes only the
    block); `include` puts variables in scope; leaving the namespace leaves it all."""
    scan = scan_source(SCOPES)
    exported = ["D", "A.B.D", "A.D"]
    assert as_lists([(d.name, d.namespace, d.opens, d.variables) for d in scan.decls]) == as_lists(
        [
            ("A.B.t", "A.B", ["C", "A.B.C", "A.C"], False),
            ("A.B.u", "A.B", [], False),
            ("A.B.m1", "A.B", exported, False),
            ("A.B.m2", "A.B", exported, False),
            ("A.B.v", "A.B", exported, True),
            ("r", "", [], False),
            ("w", "", [], False),
        ]
    )
    assert scan.exports == exported


def test_an_end_with_nothing_to_close_keeps_the_file_scope() -> None:
    [t] = scan_source("end\nopen Foo\ntheorem t : True := x\n").decls
    assert as_lists((t.name, t.namespace, t.opens)) == as_lists(("t", "", ["Foo"]))


@pytest.mark.parametrize(
    ("text", "placeholders"),
    [
        # the whole line that holds the TODO, also on a later line of a doc comment
        ("def a := 1\n/-- Intro.\n  TODO: fill -/\ndef b := 2\n", [(3, "TODO: fill -/")]),
        ("def a := 1\n/-- TODO x -/", [(2, "/-- TODO x -/")]),  # at the very end of the file
    ],
)
def test_a_placeholder_is_quoted_as_its_whole_line(
    text: str, placeholders: list[tuple[int, str]]
) -> None:
    assert scan_source(text).placeholders == placeholders


@pytest.mark.parametrize(
    ("text", "finding"),
    [
        (
            "set_option weak.debug.skipKernelTC true\n",
            (1, "debug", "`set_option weak.debug.skipKernelTC` weakens checking"),
        ),
        ("prelude\n", (1, "prelude", "`prelude` replaces Lean's core library")),
        (
            "unsafe def f : Nat := 1\n",
            (1, "unsafe", "`unsafe` declarations bypass the kernel's checks"),
        ),
    ],
)
def test_findings_say_what_and_where(text: str, finding: tuple[int, str, str]) -> None:
    scan = scan_source(text)
    assert [(f.line, f.code, f.message) for f in scan.findings] == [finding]


@pytest.mark.parametrize(
    "text",
    [
        "",
        "module",
        "prelude",
        "import A",
        "module\npublic import A",
        "import A\npublic",
        "import A\nmeta",
    ],
)
def test_a_file_that_is_only_a_header_scans_cleanly(text: str) -> None:
    scan = scan_source(text)
    assert scan.error is None and scan.decls == [] and scan.unknown == []


def test_the_token_digest_of_a_file_cut_by_exit_is_stable() -> None:
    digest = scan_source("theorem t : True := trivial\n#exit\n").digest
    assert digest == "5517fc38c90f357f1f7cd26e81e057a80434117d04cc4528935e56cdfe50814d"


@pytest.mark.parametrize("prefix", ["", "@[simp] ", "/-- doc -/\n", "private "])
def test_a_hash_word_inside_a_proof_keeps_what_follows_in_the_proof(prefix: str) -> None:
    """``#check`` is also a tactic: after it the proof may go on, so a later sorry is the
    declaration's, whatever docs, attributes or modifiers come before the keyword."""
    [a] = scan_source(f"{prefix}theorem a : True := by\n  #check x\n  sorry\n").decls
    sorry_line = prefix.count("\n") + 3
    assert as_lists((a.name, a.sorries, a.tail_mentions)) == as_lists(
        ("a", [sorry_line], ["sorry", "x"])
    )


def test_a_hash_command_after_a_documented_alias_starts_for_certain() -> None:
    """An alias holds no term that a ``#`` word could continue (contrast the proof above)."""
    [b] = scan_source("/-- doc -/\nalias b := a\n#check c\n").decls
    assert as_lists((b.name, b.mentions, b.tail_mentions)) == as_lists(("b", ["a"], []))


def test_an_option_at_column_0_inside_a_proof_may_still_be_the_proof() -> None:
    """``set_option … in`` is also a tactic; at column 0 after ``by`` it may start a command
    or go on with the proof, so the sorry after it counts for the theorem."""
    text = "theorem a : True := by\n  skip\nset_option maxHeartbeats 0 in\n  exact sorry\n"
    [a] = scan_source(text).decls
    assert as_lists((a.name, a.sorries)) == as_lists(("a", [4]))


@pytest.mark.parametrize("rest", ["instance Repr for Foo\n", "instance"])
def test_deriving_instance_starts_a_command_for_certain(rest: str) -> None:
    scan = scan_source(f"def a := 1\nderiving {rest}")
    assert as_lists([(d.name, d.tail_mentions) for d in scan.decls]) == as_lists(
        [("a", []), ("<deriving@2>", [])]
    )


def test_a_stray_closing_bracket_does_not_swallow_the_rest_of_the_file() -> None:
    assert names(scan_source("def a := 1 )\ntheorem b : True := trivial\n")) == ["a", "b"]


def test_a_hash_word_inside_brackets_is_part_of_the_term() -> None:
    """A quoted command inside a definition does not end it."""
    line = "def c : MacroM Syntax := `(#check 1)"
    [c] = scan_source(line + "\ntheorem t : True := trivial\n").decls[:1]
    assert (c.name, c.end) == ("c", len(line))


def test_an_example_is_anonymous_even_with_a_plain_binder() -> None:
    assert names(scan_source("example x : True := trivial\n")) == ["_example_1"]


def test_a_namespace_without_a_name_adds_nothing() -> None:
    scan = scan_source("namespace A\nnamespace\ntheorem t : True := x\n")
    assert names(scan) == ["A.t"]


def test_a_syntax_extension_owns_its_sorries_and_an_attribute_is_named_as_written() -> None:
    """A sorry inside a macro is the macro's (not "outside any declaration"); a code-running
    attribute is reported under the name the file gives it."""
    [macro] = scan_source('macro "m" : term => `(sorry)\n').extensions
    assert (macro.command, macro.atoms, macro.sorries) == ("macro", ["m"], [1])
    [attr] = scan_source("@[Xrun] def f := 1\n").extensions
    assert (attr.line, attr.command, attr.code) == (1, "@[Xrun]", True)


def test_universe_and_omit_are_scope_commands() -> None:
    """They are not unknown commands, and ``omit … in`` passes an ``open … in`` on."""
    scan = scan_source("universe u\nopen Foo in\nomit h in\ntheorem t : True := x\n")
    assert scan.unknown == []
    [t] = scan.decls
    assert as_lists((t.name, t.opens)) == as_lists(("t", ["Foo"]))


#: words that start a command wherever they stand (``open``/``set_option`` inside a body may
#: be the term-level ``open … in``, which their own rule reads)
_STARTING_WORDS = sorted((DECL_KEYWORDS | SCOPE_COMMANDS) - SOFT_COMMANDS)


@pytest.mark.parametrize("word", _STARTING_WORDS)
def test_a_command_glued_to_the_token_before_it_makes_the_structure_uncertain(word: str) -> None:
    """``2.def Goal …`` is the literal ``2.`` and a command to Lean, one token to a reader:
    wherever a command starts with no space before it, the file's names are uncertain."""
    spaced = scan_source(f"def a : Float := 2.\n{word} X : Prop := True\n")
    commented = scan_source(f"def a : Float := 2./- c -/{word} X : Prop := True\n")
    glued = scan_source(f"def a : Float := 2.{word} X : Prop := True\n")
    for scan in (spaced, commented):  # a comment separates tokens as a space does
        assert not any("no space" in message for _, message in scan.structure)
    assert any(f"`{word}` starts a command" in message for _, message in glued.structure)


@pytest.mark.parametrize("word", _STARTING_WORDS)
def test_a_name_literal_spelling_a_command_makes_the_structure_uncertain(word: str) -> None:
    """`` `namespace Hard `` is one name to Lean and a command to a reader."""
    scan = scan_source(f"def t : Lean.Name × Nat := Prod.mk `{word} 0\n")
    assert any(f"`{word} reads like a command" in message for _, message in scan.structure)
    assert scan_source("def t : Lean.Name := `Formal\n").structure == []


@pytest.mark.parametrize("keyword", sorted(DECL_KEYWORDS))
def test_a_declaration_keyword_without_a_name_is_a_fault_unless_lean_allows_it(
    keyword: str,
) -> None:
    """``theorem #guard_msgs foo …`` does not parse: read as an anonymous theorem it would
    hide ``foo`` (a proof citing it would look like it cites Mathlib). Only ``example`` and
    ``instance`` may be anonymous."""
    scan = scan_source(f"{keyword} : True := trivial\n")
    if keyword in ("example", "instance"):
        assert scan.error is None
    else:
        assert scan.error == (1, f"`{keyword}` without a name: Lean rejects the declaration")
    assert scan_source(f"{keyword} x : True := trivial\n").error is None
