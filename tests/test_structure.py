"""What the scanner is certain of about a file's structure, and what it does where it is not.

Lean keeps one scope per name component (``namespace A.B`` opens ``A`` then ``B``; ``end B``
closes one, ``end A.B`` two), reads a keyword after ``.`` as a field name, and lets a command
it does not know (``with_weak_namespace``) move the namespace of the next one. Where the
scanner's model and Lean's could differ it records why, and ``status`` refuses to trust the
names it gives declarations in that file.
"""

from __future__ import annotations

import pytest

from missions.lean.scan import scan_source


def names(text: str) -> list[str]:
    return [d.name for d in scan_source(text).decls if not d.name.startswith("<")]


def uncertain(text: str) -> list[str]:
    return [message for _, message in scan_source(text).structure]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # one scope per component: `end B` closes `B` only
        ("namespace A.B\nend B\ndef x := 1\nend A\n", ["A.x"]),
        # `end A.B` closes two scopes, however they were opened
        ("namespace A\nnamespace B\nend A.B\ndef x := 1\n", ["x"]),
        ("namespace A.B\nend A.B\ndef x := 1\n", ["x"]),
        # a named section opens no namespace, one scope per component as well
        ("namespace A\nsection S.T\ndef x := 1\nend S.T\nend A\n", ["A.x"]),
        ("namespace A\nsection\ndef x := 1\nend\ndef y := 2\nend A\n", ["A.x", "A.y"]),
        ("namespace A\nmutual\ndef x := 1\nend\ndef y := 2\nend A\n", ["A.x", "A.y"]),
        ("namespace A\nnoncomputable section\ndef x := 1\nend\nend A\n", ["A.x"]),
    ],
)
def test_scopes_are_kept_per_name_component(text: str, expected: list[str]) -> None:
    assert names(text) == expected
    assert uncertain(text) == []


@pytest.mark.parametrize(
    ("text", "why"),
    [
        ("namespace A\nend B\n", "`end B` closes scopes opened as A"),
        ("namespace A.B\nend A\n", "`end A` closes scopes opened as B"),
        ("namespace A\nend\n", "`end no name` closes scopes opened as A"),
        ("section S\nend\n", "`end no name` closes scopes opened as S"),
        ("section\nend S\n", "`end S` closes scopes opened as no name"),
        ("namespace A\nend A.B\n", "`end` closes more scopes than are open"),
        ("end\n", "`end` closes more scopes than are open"),
        ("namespace A in\ndef x := 1\n", "`namespace` followed by `in`"),
        ("namespace\ndef x := 1\n", "`namespace` without a name"),
        ("with_weak_namespace A\ndef x := 1\n", "unknown command `with_weak_namespace`"),
        ("frobnicate\ndef x := 1\n", "unknown command `frobnicate`"),
        # `«A.B»` is one component to Lean, and `A.B.x` names another constant
        ("namespace «A.B»\ndef x := 1\n", "`«A.B»` has a name component with a dot"),
    ],
)
def test_what_the_scanner_cannot_be_sure_of(text: str, why: str) -> None:
    assert uncertain(text) == [why]


def test_an_end_that_closes_too_much_keeps_the_root() -> None:
    """Lean keeps its root scope whatever ``end`` says: later names are read at the root."""
    assert names("namespace A\nend A.B.C\ndef x := 1\n") == ["x"]


@pytest.mark.parametrize(
    "field", ["(s).end", "s.1.end", "(s).section", "(s).namespace", "(s).theorem", "s |>.end"]
)
def test_a_keyword_after_a_dot_is_a_field_not_a_command(field: str) -> None:
    text = (
        f"namespace A\ntheorem t : True := by\n  have := {field}\n  sorry\n"
        "theorem u : True := trivial\nend A\n"
    )
    scan = scan_source(text)
    assert [d.name for d in scan.decls] == ["A.t", "A.u"]
    [t, _] = scan.decls
    assert t.sorries == (4,)
    assert scan.structure == []


def test_a_keyword_after_a_spaced_dot_still_starts_a_command() -> None:
    """`. end` is not field notation (Lean requires no space on either side of the dot)."""
    scan = scan_source("namespace A\ndef x := 1\n. end A\ndef y := 2\n")
    assert [d.name for d in scan.decls][-1] == "y"


def test_attributes_inside_a_declaration_are_seen() -> None:
    """A ``where`` helper's ``@[simp]`` hands the declaration's text to automation, and a
    forbidden attribute there is a finding like anywhere else."""
    scan = scan_source(
        "theorem t : True := trivial\nwhere\n  @[simp] h : 1 = 1 := rfl\n\n"
        "def f : Nat := 1\nwhere\n  @[implemented_by g] h : Nat := 2\n\n"
        "theorem plain : True := trivial\nwhere\n  @[inline] h : Nat := 2\n"
    )
    by_name = {d.name: d for d in scan.decls}
    assert by_name["t"].implicit
    assert not by_name["plain"].implicit
    assert [f.code for f in scan.findings] == ["implemented_by"]


def test_irreducible_def_generates_its_equation_names() -> None:
    [decl] = scan_source("irreducible_def w : Nat := 0\n").decls
    assert "w_def" in decl.generated
    [decl] = scan_source("irreducible_def w (lemma := w_eq) : Nat := 0\n").decls
    assert {"w_def", "w_eq"} <= set(decl.generated)


def test_an_in_prefix_before_a_scope_command_is_uncertain() -> None:
    """``cmd in namespace X`` is ``section cmd namespace X end`` to Lean: an `end` that does
    not match, so Lean rejects it and the names after it are not the scanner's."""
    assert uncertain("set_option pp.all true in\nnamespace X\nend X\n") == [
        "`… in` before `namespace`"
    ]
    assert uncertain("open Foo in\ntheorem t : True := trivial\nnamespace X\nend X\n") == []


def test_a_constructor_name_in_column_zero_is_no_unknown_command() -> None:
    """Mathlib writes ``class C … where`` then ``mk' ::`` in column 0: no command starts
    with ``name ::``, so it is the structure's constructor, not an unknown command."""
    text = "class C (α : Type) : Prop where\nmk' ::\n  field : Nonempty α\n"
    assert uncertain(text) == []
    assert uncertain("class D : Prop where\nmk'\n  field : True\n") == ["unknown command `mk'`"]


@pytest.mark.parametrize("word", ["opaque", "theorem", "instance", "section"])
def test_a_keyword_after_a_bar_is_a_constructor_or_pattern_not_a_command(word: str) -> None:
    """Mathlib's ``inductive Key … | opaque | const …``: after ``|`` no command starts."""
    text = f"inductive Key where\n  | star\n  | {word}\n  | const (n : Nat)\n\ndef t := 1\n"
    scan = scan_source(text)
    assert scan.error is None and uncertain(text) == []
    assert [d.name for d in scan.decls] == ["Key", "t"]
