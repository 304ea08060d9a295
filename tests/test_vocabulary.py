"""The generated vocabulary: the table is what its generator wrote, every entry of it is
honoured by the scanner, and the generator reads syntax as the rules in its docstring say.

Each test derives its cases from the table itself (never from a list typed here), so a word
the generator adds is tested the day it appears. That the table is the generator's output,
unedited, is the digest test's job: a hand edit that deletes or reclassifies an entry breaks
the digest, and one that also recomputes the digest must still agree with the review.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from missions.lean import vocabulary
from missions.lean.lexer import (
    IDENT,
    LEXICAL_TOKENS,
    STRING,
    lex,
)
from missions.lean.scan import scan_source
from missions.lean.vocabgen import (
    CLASSES,
    MARKERS,
    STANDARD_AXIOMS,
    Source,
    build,
    module_lists,
    table_digest,
)

TABLE = vocabulary.TABLE
REVIEW = json.loads(
    (Path(vocabulary.__file__).with_name("vocabulary-review.json")).read_text(encoding="utf-8")
)
DANGEROUS = sorted((w, e["class"]) for w, e in TABLE["words"].items() if e["class"] != "inert")


# ------------------------------------------------------------------- the table as written
def test_the_table_is_the_generators_output_unedited() -> None:
    assert TABLE["digest"] == table_digest(TABLE)


def test_every_review_decision_is_in_the_table_and_nothing_else_claims_one() -> None:
    for word, decision in REVIEW["words"].items():
        entry = TABLE["words"][word]
        assert (entry["class"], entry.get("review")) == (decision["class"], decision["reason"])
    reviewed = {w for w, e in TABLE["words"].items() if "review" in e}
    assert reviewed == set(REVIEW["words"])
    for name in REVIEW["axioms"]:
        assert name in TABLE["axioms"]
    for name, cls in REVIEW["constants"].items():
        assert TABLE["constants"][name] == cls


def test_every_generated_class_rests_on_its_evidence() -> None:
    """A class the generator gave (not the review) names the markers or the expansion that
    justify it, and an inert word names none."""
    for word, entry in TABLE["words"].items():
        if "review" in entry:
            continue
        assert entry["class"] in CLASSES
        evidence = " ".join(entry["evidence"])
        if entry["class"] == "inert":
            assert not evidence, word
            continue
        own = [m for m in MARKERS.get(entry["class"], ()) if f" {m}" in f" {evidence}"]
        assert own or "expands to" in evidence or "not read completely" in evidence, word


def test_the_sources_name_their_pinned_and_read_revisions() -> None:
    pins = json.loads(Path("lake-manifest.json").read_text(encoding="utf-8"))["packages"]
    pinned = {p["name"]: p["rev"] for p in pins}
    recorded = {s["package"]: s for s in TABLE["sources"]}
    assert set(pinned) <= set(recorded)  # every pinned package was read
    for name, rev in pinned.items():
        assert recorded[name]["pinned"] == rev
    assert recorded["core"]["pinned"] == "v4.30.0"


def test_every_non_standard_axiom_is_a_dangerous_constant() -> None:
    for name in TABLE["axioms"]:
        if name not in STANDARD_AXIOMS:
            assert name in TABLE["constants"], name


# -------------------------------------------------------------- the scanner honours it
@pytest.mark.parametrize(("word", "cls"), DANGEROUS)
def test_each_dangerous_word_is_read_as_its_class_anywhere_in_a_body(word: str, cls: str) -> None:
    """The word as a tactic, as an argument and as a name: each reading counts."""
    for body in (f"by\n  {word}", f"by\n  first | {word} | trivial", f"id ({word})"):
        text = f"theorem t : True := {body}\n"
        scan = scan_source(text)
        [decl] = [d for d in scan.decls if d.name == "t"]
        findings = {f.code for f in scan.findings}
        if cls == "admits":
            assert decl.sorries, (word, body)
            if word != "sorry":
                assert (2 if "\n" in body else 1, word) in scan.admits
        elif cls == "native":
            assert decl.natives and "native" in findings, (word, body)
        elif cls == "search":
            assert decl.searches, (word, body)
        else:
            assert "env" in findings, (word, body)


@pytest.mark.parametrize(
    "name", sorted(n for n, c in TABLE["constants"].items()), ids=lambda n: n.replace(".", "_")
)
def test_each_dangerous_constant_is_flagged_by_any_suffix_of_its_name(name: str) -> None:
    cls = TABLE["constants"][name]
    parts = name.split(".")
    for k in range(len(parts)):
        written = ".".join(parts[k:])
        [decl] = scan_source(f"theorem t : True := {written} _\n").decls
        assert decl.sorries if cls == "admits" else decl.natives, written


@pytest.mark.parametrize(("word", "cls"), [(w, c) for w, c in DANGEROUS if w[0].isalpha()])
def test_an_escaped_word_is_flagged_too(word: str, cls: str) -> None:
    """`«stop»` is an identifier to Lean, not the tactic; counting it anyway costs nothing."""
    [decl] = scan_source(f"theorem t : True := by\n  «{word}»\n").decls
    assert decl.sorries or decl.natives or decl.searches or cls == "code"


@pytest.mark.parametrize("token", LEXICAL_TOKENS)
def test_each_lexical_token_is_read_whole_whatever_follows(token: str) -> None:
    """Lean's tokenizer takes the longest token of its table: ``//`` before ``-`` opens no
    comment, ``⊕'`` before a letter and a quote opens no character literal. Where the
    token's package is not imported Lean reads the pieces, so a follower that makes the
    pieces read a comment, string or character is a fault; any other is read whole."""
    assert [v for _, v, _ in lex(f"x {token} y").tokens][:3] == ["x", token, "y"]
    for after in ("-x'", "'a' b", "/- c -/ d", '"s" e'):
        source = lex(f"x {token}{after}")
        if source.error is None:
            assert source.tokens[1][1] == token, (token, after, source.tokens[:4])
        else:
            assert "here is one token" in str(source.error), (token, after, source.error)


@pytest.mark.parametrize("head", sorted(vocabulary.INTERPOLATING_WORDS))
def test_each_interpolating_head_makes_the_holes_code(head: str) -> None:
    opener = f"{head}[x]" if head.endswith(("[", "trace")) else head
    source = lex(f'def m := {opener} "value {{(sorry : Nat)}} here"\n')
    assert source.error is None
    idents = [v for k, v, _ in source.tokens if k == IDENT]
    strings = [v for k, v, _ in source.tokens if k == STRING]
    assert "sorry" in idents, (head, source.tokens)
    assert all("sorry" not in s for s in strings)


def test_what_the_scanner_treats_as_a_command_comes_from_the_table() -> None:
    """A word the sources declare only as a command starts one wherever it stands (a
    modifier such as ``scoped`` only before a command it modifies)."""
    for word in vocabulary.COMMAND_ONLY_WORDS - vocabulary.MODIFIERS - {"deriving"}:
        assert word in vocabulary.COMMAND_KEYWORDS
        scan = scan_source(f"theorem t : True := trivial {word} x\ntheorem u : True := trivial\n")
        assert "t" in [d.name for d in scan.decls]
        [t] = [d for d in scan.decls if d.name == "t"]
        assert t.end_line == 1 and f"{word}" not in t.mentions, word


# ------------------------------------------------------------------ the generator's rules
def _build(files: dict[str, str], review: dict[str, object] | None = None) -> dict[str, object]:
    source = Source("pkg", "dir:fixture", "r1", files, folders=["Pkg"])
    return build([source], review or {"words": {}}, {"pkg": "r1"})


def test_the_generator_classifies_by_what_the_implementation_names() -> None:
    table = _build(
        {
            "Pkg/A.lean": (
                'syntax (name := quiet) "quiet" : tactic\n'
                "elab_rules : tactic\n"
                "  | `(tactic| quiet) => closeAll\n"
                "def closeAll : TacticM Unit := do\n  admitGoal (← getMainGoal)\n"
                'macro "hush" : tactic => `(tactic| quiet)\n'
                'macro "fine" : tactic => `(tactic| skip)\n'
                'syntax (name := look) "look" : tactic\n'
                "@[tactic look] def evalLook : Tactic := fun _ => librarySearch\n"
                'elab "fast" : tactic => do\n  let e := mkConst ``Lean.ofReduceBool\n'
                'syntax:1 tactic " then_sorry " tactic : tactic\n'
                'syntax "msg! " interpolatedStr(term) : term\n'
                'notation:65 a " //′ " b => a + b\n'
                "axiom Pkg.magic : False\n"
            ),
        }
    )
    words = table["words"]
    assert isinstance(words, dict)
    assert words["quiet"]["class"] == "admits"  # through the function its rule calls
    assert words["hush"]["class"] == "admits"  # what it expands to
    assert words["fine"]["class"] == "inert"
    assert words["look"]["class"] == "search"  # through the kind its elaborator registers
    assert words["fast"]["class"] == "inert"  # a name literal is data, not a call
    assert "then_sorry" not in words  # a trailing syntax: its atom starts nothing
    assert "then_sorry" in table["tokens"] and "//′" in table["tokens"]
    assert "msg!" in table["interpolation_heads"]
    assert table["constants"] == {"Pkg.magic": "admits"}


def test_a_review_decision_replaces_the_generated_class_and_stops_its_spread() -> None:
    files = {
        "Pkg/A.lean": (
            'macro "each" : tactic => `(tactic| admitGoal)\n'
            'syntax "each" : tactic\n'
            'macro "outer" : tactic => `(tactic| each)\n'
        )
    }
    assert _build(files)["words"]["outer"]["class"] == "admits"  # type: ignore[index]
    decision = {"class": "inert", "reason": "admits only after an error"}
    reviewed = _build(files, {"words": {"each": decision}})
    assert reviewed["words"]["each"]["class"] == "inert"  # type: ignore[index]
    assert reviewed["words"]["outer"]["class"] == "inert"  # type: ignore[index]


def test_a_file_that_does_not_lex_makes_its_words_unsafe() -> None:
    table = _build({"Pkg/A.lean": 'syntax "odd" : tactic\ndef s := "never closed\n'})
    assert table["words"]["odd"]["class"] == "admits"  # type: ignore[index]
    [source] = table["sources"]  # type: ignore[misc]
    assert source["not_read_completely"] == ["Pkg/A.lean"]


def test_scoped_notation_and_new_letters_are_read() -> None:
    """``scoped[NS] notation`` declares tokens too (``⁻¹ᵁ``, ``𝓝``), and the generator reads
    the file that declares a token the table does not know yet (``ꙮ``) without a fault."""
    table = _build(
        {
            "Pkg/A.lean": (
                'scoped[Pkg] notation3:90 f:91 " ⁻¹ᵁ " U:90 => f U\n'
                'scoped[Pkg] infixl:100 " ×ₖ " => Prod.mk\n'
                'notation "ꙮ" => Pkg.fourierChar\n'
                "theorem t : ꙮ = ꙮ := rfl\n"
                'macro "odd!" x:interpolatedStr(term) : term => `(toString $x)\n'
                'def m := odd! "a{x}" ++ g "b{"\n'
            ),
        }
    )
    tokens = table["tokens"]
    assert isinstance(tokens, list)
    assert {"⁻¹ᵁ", "×ₖ", "ꙮ"} <= set(tokens)
    [source] = table["sources"]  # type: ignore[misc]
    assert source["not_read_completely"] == []


def test_module_lists_cover_exactly_the_packages_read_at_their_pins() -> None:
    pinned = Source("pkg", "git:x", "r1", {"Pkg.lean": "", "Pkg/A/B.lean": ""})
    pinned.module_paths = ["Pkg.lean", "Pkg/A/B.lean", "Pkg/A/README.md"]
    newer = Source("other", "git:y", "r9", {"Other/C.lean": ""})
    newer.module_paths = ["Other/C.lean"]
    lists = module_lists([pinned, newer], {"pkg": "r1", "other": "r2"})
    assert lists["roots"] == {
        "Pkg": {"package": "pkg", "revision": "r1", "modules": ["Pkg", "Pkg.A.B"]}
    }
