"""What the scanner knows about Lean's vocabulary: keywords, attributes, tactics, options.

These tables decide how a word is read (a command, a modifier, a tactic that searches the
environment, an attribute that runs code). They only ever add caution: a word missing from
a table is read as unknown, and unknown means over-approximated (an unknown command makes
the whole import closure reachable; an unknown attribute is treated as a metaprogram).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

#: The generated table (``python -m missions.lean.vocabgen``): every word and symbol token the
#: pinned sources declare, with each word's class, and the dangerous constants.
TABLE: dict[str, Any] = json.loads(
    Path(__file__).with_name("vocabulary.json").read_text(encoding="utf-8")
)


DECL_KEYWORDS = frozenset(
    {
        "theorem",
        "lemma",
        "def",
        "abbrev",
        "instance",
        "structure",
        "class",
        "inductive",
        "coinductive",
        "axiom",
        "opaque",
        "example",
        "irreducible_def",
    }
)
#: Declarations whose body generates names (fields, constructors, projections).
GENERATING_KEYWORDS = frozenset({"structure", "class", "inductive", "coinductive"})
MODIFIERS = frozenset(
    {
        "private",
        "protected",
        "public",
        "meta",
        "noncomputable",
        "unsafe",
        "partial",
        "nonrec",
        "local",
        "scoped",
    }
)
NOTATION_COMMANDS = frozenset(
    {"notation", "notation3", "infix", "infixl", "infixr", "prefix", "postfix"}
)
#: Commands that extend the parser or elaborator with code the scanner cannot follow.
CODE_EXTENSION_COMMANDS = frozenset(
    {
        "macro",
        "macro_rules",
        "syntax",
        "elab",
        "elab_rules",
        "declare_syntax_cat",
        "simproc",
        "simproc_decl",
        "dsimproc",
        "dsimproc_decl",
        "binder_predicate",
        "declare_simp_like_tactic",
        "register_simp_attr",
        "register_label_attr",
        "register_option",
        "register_builtin_option",
        "declare_config_elab",
        "declare_command_config_elab",
        "syntax_cat",
    }
)
#: Commands that run arbitrary code against the environment.
ENV_COMMANDS = frozenset({"run_cmd", "run_elab", "run_meta", "initialize", "builtin_initialize"})
#: Commands that make declarations usable by automation without naming them in a proof.
AUTOMATION_COMMANDS = frozenset(
    {
        "attribute",
        "add_aesop_rules",
        "erase_aesop_rules",
        "declare_aesop_rule_sets",
        "grind_pattern",
        "init_grind_norm",
        "unif_hint",
        "initialize_simps_projections",
        "mk_iff_of_inductive_prop",
        "gen_injective_theorems%",
    }
)
#: Commands that change scopes and name resolution (tracked precisely).
SCOPE_COMMANDS = frozenset(
    {
        "namespace",
        "section",
        "end",
        "mutual",
        "universe",
        "variable",
        "include",
        "omit",
        "open",
        "export",
        "set_option",
        "unset_option",
    }
)
#: Commands known to affect nothing a proof can use.
INERT_COMMANDS = frozenset(
    {
        "add_decl_doc",
        "library_note",
        "assert_not_exists",
        "assert_not_imported",
        "suppress_compilation",
        "unseal",
        "seal",
        "compile_inductive",
        "compile_def",
        "proof_wanted",
        "recall",
        "count_heartbeats",
        "deriving",
        "alias",
        "import",
        "assert_no_sorry",
        "docs_to_verso",
        "extend_docs",
        "recommended_spelling",
        "library_note2",
        "unsuppress_compilation",
        "guard_min_heartbeats",
        "register_error_explanation",
        "deprecated_module",
        "tactic_extension",
        "register_tactic_tag",
    }
)
#: Keywords that may also appear inside terms and tactic blocks (``open Foo in``,
#: ``set_option x y in``): inside a declaration they start a command only at column 0, and
#: even then only uncertainly.
SOFT_COMMANDS = frozenset({"open", "set_option"})
#: Words the pinned sources declare as commands only (never as a tactic, term or other
#: syntax): Lean starts a new command at any of them.
COMMAND_ONLY_WORDS = frozenset(
    word.rstrip("%")  # `compile_inductive%` lexes as the word and a `%`
    for word, entry in TABLE["words"].items()
    if entry["categories"] == ["command"] and not word.startswith("#") and word[0].isalpha()
)

COMMAND_KEYWORDS = (
    COMMAND_ONLY_WORDS
    | DECL_KEYWORDS
    | MODIFIERS
    | NOTATION_COMMANDS
    | CODE_EXTENSION_COMMANDS
    | ENV_COMMANDS
    | AUTOMATION_COMMANDS
    | SCOPE_COMMANDS
    | INERT_COMMANDS
)
#: Words that may legitimately start a line at column 0 inside a declaration.
CONTINUATION_WORDS = frozenset(
    {
        "where",
        "deriving",
        "termination_by",
        "decreasing_by",
        "extends",
        "with",
        "fun",
        "by",
        "calc",
        "have",
        "show",
        "from",
        "at",
        "then",
        "else",
        "do",
        "let",
        "match",
        "if",
        "in",
        "using",
        "for",
    }
)
#: Hash commands that only print or check: they change nothing a proof can use.
INERT_HASH_COMMANDS = frozenset(
    {
        "#check",
        "#check_failure",
        "#print",
        "#reduce",
        "#synth",
        "#guard_msgs",
        "#help",
        "#lint",
        "#list_linters",
        "#where",
        "#version",
        "#find",
        "#simp",
        "#norm_num",
        "#conv",
        "#whnf",
        "#adaptation_note",
        "#align",
        "#align_import",
        "#noalign",
        "#explode",
        "#min_imports",
        "#find_home",
        "#instances",
        "#check_tactic",
        "#check_simp",
        "#guard_expr",
        "#guard",
        "#count_heartbeats",
        "#time",
        "#show_unused",
        "#long_names",
        "#kernel_reduce",
    }
)
ENV_HASH_COMMANDS = frozenset({"#eval", "#eval!", "#exec", "#run_cmd", "#exit!"})


def words_of(cls: str) -> frozenset[str]:
    """The words of the table in one class (``admits``, ``native``, ``search``, ``code``)."""
    return frozenset(word for word, entry in TABLE["words"].items() if entry["class"] == cls)


def constants_of(cls: str) -> frozenset[str]:
    """The dangerous constants of one class, by full name and by every shorter suffix a
    proof may write them with (``Lean.ofReduceBool`` as ``ofReduceBool`` after ``open Lean``),
    and with ``_root_.``."""
    found: set[str] = set()
    for name, kind in TABLE["constants"].items():
        if kind == cls:
            parts = name.split(".")
            found.update(".".join(parts[k:]) for k in range(len(parts)))
            found.add(f"_root_.{name}")
    return frozenset(found)


#: Words and constants that may close a goal without a proof (``sorry``, ``plausible``).
SORRY_IDENTS = words_of("admits") | constants_of("admits")
#: Words and constants that make a proof trust compiled code (``native_decide``, ``native``).
NATIVE_IDENTS = words_of("native") | constants_of("native")
#: Tactics that search the whole environment for a lemma: what they find is not in the text.
SEARCH_TACTICS = words_of("search")
#: Words that run a metaprogram written in the source.
INLINE_CODE = words_of("code")
#: Symbol tokens Lean reads whole where this lexer would otherwise split them in a way that
#: changes what is a comment, a string or a character (``//`` before ``-``, ``⊕'``).
LEXICAL_TOKENS = frozenset(
    token
    for token in TABLE["tokens"]
    if not (token[0].isalnum() or token[0] in "_«")
    and any(c in token for c in "'\"-/#«")
    and not token.startswith(("--", "/-"))
)
#: Heads after which a message is an interpolated string, perhaps after some arguments.
INTERPOLATING_WORDS = frozenset(TABLE["interpolation_heads"])
#: Attributes that only affect reduction, compilation hints, printing or documentation.
INERT_ATTRIBUTES = frozenset(
    {
        "reducible",
        "irreducible",
        "semireducible",
        "instance_reducible",
        "implicit_reducible",
        "inline",
        "noinline",
        "always_inline",
        "macro_inline",
        "specialize",
        "nospecialize",
        "deprecated",
        "inherit_doc",
        "pp_nodot",
        "pp_dot",
        "pp_with_univ",
        "pp_using_anonymous_constructor",
        "nolint",
        "match_pattern",
        "elab_as_elim",
        "elab_without_expected_type",
        "expose",
        "export",
        "stacks",
        "kerodon",
        "simps_projections",
        "method_specs",
        "no_expose",
        "suggest_for",
        "never_extract",
        "simp_lemma_doc",
    }
)
#: Attributes that hand a declaration to automation (simp sets, instances, rule sets, name
#: generators). They run no code of the workspace's: the declaration becomes usable without
#: being named, so it is reachable from every proof that imports it.
AUTOMATION_ATTRIBUTES = frozenset(
    {
        "simp",
        "norm_cast",
        "push_cast",
        "move_cast",
        "ext",
        "instance",
        "default_instance",
        "class",
        "coe",
        "aesop",
        "gcongr",
        "mono",
        "continuity",
        "measurability",
        "fun_prop",
        "bound",
        "refl",
        "symm",
        "trans",
        "congr",
        "induction_eliminator",
        "cases_eliminator",
        "nontriviality",
        "field_simps",
        "mfld_simps",
        "integral_simps",
        "parity_simps",
        "zify_simps",
        "qify_simps",
        "rify_simps",
        "push_neg",
        "functor_norm",
        "monad_norm",
        "enat_to_nat_coe",
        "pnat_to_nat_coe",
        "ghost_simps",
        "sym_simps",
        "seval",
        "grind",
        "grind_norm",
        "wf_preprocess",
        "to_additive",
        "to_dual",
        "simps",
        "reassoc",
        "elementwise",
        "higher_order",
        "mk_iff",
        "notation_class",
        "computed_field",
        "unbox",
        "positivity_rules",
        "csimp_rules",
    }
)
#: Attributes that make compiled code disagree with the kernel, or run code at import time.
FORBIDDEN_ATTRIBUTES = {
    "implemented_by": "`implemented_by` replaces compiled code behind the kernel's back",
    "extern": "`extern` binds a declaration to foreign code",
    "csimp": "`csimp` replaces compiled implementations",
    "init": "`@[init]` runs code whenever the module is imported",
    "builtin_init": "`@[builtin_init]` runs code whenever the module is imported",
}
#: Options that switch off kernel checking or replace proofs by ``sorry``, by prefix.
UNSAFE_OPTION_PREFIXES = ("debug.", "bootstrap.")

OPEN_BRACKETS = {"(": ")", "[": "]", "{": "}", "⟨": "⟩", "⦃": "⦄", "@[": "]", "%[": "]"}
CLOSE_BRACKETS = frozenset({")", "]", "}", "⟩", "⦄"})

#: Field projections, constructors and recursors every structure or inductive generates.
GENERATED_SUFFIXES = ("mk", "rec", "recOn", "casesOn", "noConfusion", "ext", "ext_iff")

#: The marker ``missions new`` leaves wherever a person must write text (a mission holding
#: it in its YAML values or its statements' docstrings is a draft).
PLACEHOLDER = "TODO"
