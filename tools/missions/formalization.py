"""Registry records: one ``formalization.yaml`` (v0.4) per mission, computed from evidence.

Registries (Palomar, lean-eval) read a ``formalization.yaml`` next to a formalization; typed
by hand, such records drift from the code (the registry's own site fixed schema drift twice).
Here every count comes from the analysis ``status`` runs: sorries from the scans of the
mission's modules, proved results and their evidence tier from its targets, literature
dependencies from its external targets, divergences from its declared conventions, the
statement-to-declaration alignment from its YAML. What no source can show (licence, how the
work was produced, its review) comes from ``missions.yaml`` (``formalization:``); left out,
the record says it was not recorded (``NOASSERTION``, ``other`` with a note, ``unchecked``),
and authors default to the authors of the mission's files in git. A source a target cites
``formalizes``; the others are ``background``.

Format: mathlib-initiative/formalization.yaml, ``schema/v0.4.schema.json``. Its constraints
(required fields, non-empty strings and lists, the small vocabularies) are restated as
:class:`Record`, and every record is checked against it before anything is written.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from missions import gitinfo
from missions.settings import FormalizationSettings
from missions.status import Analysis, MissionStatus, TargetStatus, development_modules
from missions.yamlio import atomic_write_text

FORMAT_VERSION = "0.4"
SCHEMA_URL = (
    "https://raw.githubusercontent.com/mathlib-initiative/formalization.yaml/main/schema/"
    "v0.4.schema.json"
)
RECORD_FILE = "formalization.yaml"


# ------------------------------------------------------------------ the v0.4 format
class _Open(BaseModel):
    """The format is permissive: extra keys are allowed everywhere."""

    model_config = ConfigDict(extra="allow")


NonEmpty = Annotated[str, Field(min_length=1)]


class Project(_Open):
    name: NonEmpty
    authors: list[NonEmpty] = Field(min_length=1)
    responsible_maintainers: list[str] = []
    license: NonEmpty


class Source(_Open):
    title: NonEmpty
    id: str | None = None
    type: str | None = None
    location: str | None = None
    relationship: Literal[
        "", "formalizes", "adapts", "independently-proves", "background", "other"
    ] = ""
    note: str | None = None


class Method(_Open):
    method: Literal["manual", "copilot", "agent", "autonomous", "other"]
    models: list[str] = []


class Automation(_Open):
    methods: list[Method] = Field(min_length=1)
    notes: str | None = None


class LiteratureDependency(_Open):
    statement: str | None = None
    source: str | None = None


class MainResult(_Open):
    declaration: str | None = None
    file: str | None = None
    sorry_count: int | None = Field(default=None, ge=0)
    axioms: list[str] | None = None
    literature_dependencies: list[LiteratureDependency] = []


class Status(_Open):
    scope: str | None = None
    sorry_count: int | None = Field(default=None, ge=0)
    sorry_in_definitions: int | None = Field(default=None, ge=0)
    axioms: list[str] | None = None
    main_results: list[MainResult] = []


class Fidelity(_Open):
    divergences: str | None = None


class Review(_Open):
    status: NonEmpty
    reviewers: list[str] = []
    notes: str | None = None


class Record(_Open):
    """formalization.yaml v0.4: ``project``, ``sources``, ``automation`` and ``review`` are
    required, and a blank template is invalid."""

    version: str | None = None
    project: Project
    sources: list[Source] = Field(min_length=1)
    automation: Automation
    status: Status | None = None
    fidelity: Fidelity | None = None
    review: Review


# ------------------------------------------------------------------ computing a record
def sorry_counts(analysis: Analysis, modules: Sequence[str]) -> tuple[int, int]:
    """(every ``sorry`` and other goal-closing placeholder, those inside definitions)."""
    total = in_definitions = 0
    for name in modules:
        scan = analysis.workspace.modules[name].scan
        total += len(scan.sorry_lines)
        in_definitions += sum(
            len(decl.sorries) for decl in scan.decls if decl.kind not in _PROOF_KINDS
        )
    return total, in_definitions


_PROOF_KINDS = frozenset({"theorem", "lemma", "example", "instance"})


def git_authors(root: Path, paths: Sequence[Path]) -> list[str]:
    """Authors of commits touching ``paths``, first contributor first (none outside git)."""
    out = gitinfo.run_git(root, "log", "--reverse", "--format=%aN", "--", *map(str, paths))
    names = (out or b"").decode("utf-8", "replace").splitlines()
    return list(dict.fromkeys(n.strip() for n in names if n.strip()))


def _counts(targets: Sequence[TargetStatus]) -> dict[str, int]:
    counts = {"targets": len(targets), "proved": 0, "stated": 0, "missing": 0, "external": 0}
    for status in targets:
        counts[status.status] += 1
    return counts


def _evidence(targets: Sequence[TargetStatus]) -> dict[str, int]:
    tiers: dict[str, int] = {}
    for status in targets:
        if status.status == "proved":
            tier = status.evidence or "source"
            tiers[tier] = tiers.get(tier, 0) + 1
    return tiers


def _rel(analysis: Analysis, path: Path) -> str:
    try:
        return path.resolve().relative_to(analysis.root.resolve()).as_posix()
    except ValueError:
        return str(path)


def _main_result(analysis: Analysis, status: TargetStatus) -> dict[str, Any]:
    target = status.target
    found = status.proof_decl or status.statement_decl
    result: dict[str, Any] = {"target": target.id, "title": target.title}
    result["declaration"] = target.proof or target.statement
    if found is not None:
        result["file"] = _rel(analysis, found[0].path)
    result["status"] = status.status
    if status.status == "proved":
        result["evidence"] = status.evidence or "source"
        result["sorry_count"] = 0  # proved: nothing it reaches holds a sorry
    elif status.proof_decl is not None:
        result["sorry_count"] = len(status.proof_decl[1].sorries)
    return result


def record(
    analysis: Analysis,
    mission: MissionStatus,
    settings: FormalizationSettings,
    authors: Sequence[str],
) -> dict[str, Any]:
    """The mission's formalization.yaml as data (checked against :class:`Record`)."""
    info = mission.file.mission
    modules = development_modules(analysis, mission)
    sorries, in_definitions = sorry_counts(analysis, modules)
    counts = _counts(mission.targets)
    external = [s for s in mission.targets if s.target.external is not None]
    cited = {t.source for t in info.targets}
    sources = []
    for source in info.sources:
        relationship = "formalizes" if source.key in cited else "background"
        entry: dict[str, Any] = {"title": source.citation, "relationship": relationship}
        if source.doi:
            entry["id"] = f"doi:{source.doi}"
        elif source.arxiv:
            entry["id"] = f"arXiv:{source.arxiv}"
        elif source.url:
            entry["id"] = source.url
        if source.locators:
            entry["location"] = "; ".join(source.locators)
        sources.append(entry)
    provenance: dict[str, int] = {}
    for target in info.targets:
        for part, origin in (
            ("statement", target.provenance.statement),
            ("proof", target.provenance.proof),
        ):
            key = f"{part} {origin}"
            provenance[key] = provenance.get(key, 0) + 1
    recorded = [
        m.model_dump(exclude_none=True, exclude_defaults=True) | {"method": m.method}
        for m in settings.automation
    ]
    automation: dict[str, Any] = {"methods": recorded or [{"method": "other"}]}
    notes = "provenance of the targets (from the mission YAML): " + ", ".join(
        f"{count} {key}" for key, count in sorted(provenance.items())
    )
    if not recorded:
        notes = (
            "how the work was produced is not recorded (missions.yaml, formalization.automation); "
            + notes
        )
    automation["notes"] = notes
    goals = [s for s in mission.targets if s.target.kind == "goal"] or list(mission.targets)
    main_results = []
    for status in goals:
        result = _main_result(analysis, status)
        if external:
            result["literature_dependencies"] = [
                {
                    "statement": s.target.title,
                    "source": s.target.external.repository if s.target.external else "",
                }
                for s in external
            ]
        main_results.append(result)
    data: dict[str, Any] = {
        "version": FORMAT_VERSION,
        "project": {
            "name": info.title,
            "authors": list(authors),
            **(
                {"responsible_maintainers": list(settings.maintainers)}
                if settings.maintainers
                else {}
            ),
            "license": settings.license,
        },
        "sources": sources,
        "automation": automation,
        "status": {
            "scope": " ".join(info.summary.split()),
            "sorry_count": sorries,
            "sorry_in_definitions": in_definitions,
            "main_results": main_results,
            # beyond the format (extra keys are allowed): the counts `status` gives
            "targets": counts,
            "evidence": _evidence(mission.targets),
            "modules": modules,
        },
        "review": {"status": settings.review},
        "alignment": [
            {
                "target": s.target.id,
                "kind": s.target.kind,
                "informal": " ".join(s.target.informal.split()),
                **({"source": s.target.source} if s.target.source else {}),
                **({"locator": s.target.locator} if s.target.locator else {}),
                **({"statement": s.target.statement} if s.target.statement else {}),
                **({"proof": s.target.proof} if s.target.proof else {}),
                "status": s.status,
                **({"evidence": s.evidence or "source"} if s.status == "proved" else {}),
            }
            for s in mission.targets
        ],
    }
    errata = [s for s in mission.targets if s.target.kind == "refutation"]
    if errata:  # printed claims of the sources shown false (refutation targets)
        data["status"]["errata"] = [
            {
                "printed": s.target.printed,
                "source": s.target.source,
                "location": s.target.locator,
                "declaration": s.target.statement,
                "status": s.status,
            }
            for s in errata
        ]
    if settings.reviewers:
        data["review"]["reviewers"] = list(settings.reviewers)
    if info.conventions:
        data["fidelity"] = {"divergences": "\n".join(" ".join(c.split()) for c in info.conventions)}
    return data


def check_record(data: dict[str, Any]) -> list[str]:
    """Where ``data`` breaks the v0.4 format, one message per fault (none: it is valid)."""
    try:
        Record.model_validate(data)
    except ValidationError as exc:
        return [
            f"{'.'.join(str(p) for p in error['loc']) or 'record'}: {error['msg']}"
            for error in exc.errors()
        ]
    return []


def to_yaml(data: dict[str, Any]) -> str:
    """The record as YAML, with the schema line editors validate it by."""
    import io

    from ruamel.yaml import YAML

    yaml = YAML(typ="safe", pure=True)
    yaml.default_flow_style = False
    yaml.allow_unicode = True
    yaml.width = 4096
    yaml.sort_base_mapping_type_on_output = False  # type: ignore[assignment]  # keep the order
    stream = io.StringIO()
    yaml.dump(data, stream)
    return f"# yaml-language-server: $schema={SCHEMA_URL}\n" + stream.getvalue()


def write_records(analysis: Analysis, settings: FormalizationSettings, out_dir: Path) -> list[Path]:
    """``out_dir/ID/formalization.yaml`` per mission. Every record is checked first, so a
    record that breaks the format is never written (a ValueError names the fault)."""
    records = []
    for mission in analysis.missions:
        authors = list(settings.authors)
        if not authors:
            paths = [mission.file.path]
            paths += [
                analysis.workspace.modules[n].path for n in development_modules(analysis, mission)
            ]
            authors = git_authors(analysis.root, paths)
        data = record(analysis, mission, settings, authors)
        faults = check_record(data)
        if faults:
            raise ValueError(f"{mission.id}: {'; '.join(faults)}")
        records.append((mission.id, data))
    written = []
    for mission_id, data in records:
        path = out_dir / mission_id / RECORD_FILE
        path.parent.mkdir(parents=True, exist_ok=True)
        atomic_write_text(path, to_yaml(data))
        written.append(path)
    return written
