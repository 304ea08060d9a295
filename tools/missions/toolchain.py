"""The pinned Lean toolchain and Mathlib revision, and what is installed here.

Every mission is stated against one Lean release and one Mathlib commit. ``check`` refuses a
workspace whose ``lean-toolchain``, ``lakefile.lean`` or ``lake-manifest.json`` has drifted
from them; ``doctor`` also looks for elan, lake and lean and says what to run next.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from pathlib import Path

from missions.lean.lakefile import PINNED_MATHLIB, REQUIRE, unsafe_settings
from missions.roots import read_config_text

PINNED_TOOLCHAIN = "leanprover/lean4:v4.30.0"
PINNED_LEAN_VERSION = "4.30.0"
MATHLIB_GIT = "https://github.com/leanprover-community/mathlib4.git"
#: The packages Mathlib itself pins at ``PINNED_MATHLIB`` (its own ``lake-manifest.json``),
#: which Lake inherits into ours: name -> (url, revision). Sources in docs/sources.md.
INHERITED_PACKAGES: dict[str, tuple[str, str]] = {
    "plausible": (
        "https://github.com/leanprover-community/plausible",
        "a456461b368b71d2accd95234832cd9c174b5437",
    ),
    "LeanSearchClient": (
        "https://github.com/leanprover-community/LeanSearchClient",
        "c5d5b8fe6e5158def25cd28eb94e4141ad97c843",
    ),
    "importGraph": (
        "https://github.com/leanprover-community/import-graph",
        "515cf9d0c00ece5e661f6de4326a53dedc1e8ea1",
    ),
    "proofwidgets": (
        "https://github.com/leanprover-community/ProofWidgets4",
        "a84b3e2475d5c5ab979567b1ad8aea21b764bcf8",
    ),
    "aesop": (
        "https://github.com/leanprover-community/aesop",
        "558915ae105bfd8074e22d597613d1961822adc2",
    ),
    "Qq": (
        "https://github.com/leanprover-community/quote4",
        "a6e6c34c4ef182f83b219a3a5a385f51f44bdc4c",
    ),
    "batteries": (
        "https://github.com/leanprover-community/batteries",
        "32dc18cde3684679f3c003de608743b57498c56f",
    ),
    "Cli": ("https://github.com/leanprover/lean4-cli", "6b907cf12b2e445ccb7c24bc208ef04a1f39e84c"),
}

_LAKE_LEAN = re.compile(r"Lean version (\d+\.\d+\.\d+(?:-[0-9A-Za-z.]+)?)")
_VERSION = re.compile(r"(\d+\.\d+\.\d+(?:-[0-9A-Za-z.]+)?)")


@dataclass
class PinCheck:
    """One comparison of a pinned value with what a file says."""

    file: str
    line: int
    ok: bool
    message: str


def _line_of(text: str, index: int) -> int:
    return text.count("\n", 0, index) + 1


def check_toolchain_file(root: Path) -> PinCheck:
    path = root / "lean-toolchain"
    try:
        value = read_config_text(path).strip()
    except (OSError, UnicodeDecodeError):
        return PinCheck("lean-toolchain", 1, False, f"missing; it must say {PINNED_TOOLCHAIN}")
    if value != PINNED_TOOLCHAIN:
        return PinCheck("lean-toolchain", 1, False, f"says {value!r}, pinned is {PINNED_TOOLCHAIN}")
    return PinCheck("lean-toolchain", 1, True, PINNED_TOOLCHAIN)


def check_lakefile(root: Path) -> list[PinCheck]:
    path = root / "lakefile.lean"
    try:
        text = read_config_text(path)
    except FileNotFoundError:
        return [PinCheck("lakefile.lean", 1, False, "missing")]
    except (OSError, UnicodeDecodeError) as exc:
        reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else "not UTF-8"
        return [PinCheck("lakefile.lean", 1, False, f"cannot be read ({reason})")]
    checks: list[PinCheck] = []
    found = False
    for match in REQUIRE.finditer(text):
        line = _line_of(text, match.start())
        name, rev = match.group("name"), match.group("rev")
        if name != "mathlib":
            checks.append(
                PinCheck(
                    "lakefile.lean", line, False, f"requires {name!r}; only mathlib is allowed"
                )
            )
            continue
        found = True
        if rev != PINNED_MATHLIB:
            checks.append(
                PinCheck(
                    "lakefile.lean", line, False, f"mathlib at {rev!r}, pinned is {PINNED_MATHLIB}"
                )
            )
        else:
            checks.append(PinCheck("lakefile.lean", line, True, f"mathlib @ {PINNED_MATHLIB[:12]}"))
    if not found:
        checks.append(PinCheck("lakefile.lean", 1, False, "does not require mathlib from git"))
    reported = {(c.file, c.line) for c in checks if not c.ok}
    for setting in unsafe_settings(root):
        if (setting.file, setting.line) not in reported:  # one finding per line is enough
            checks.append(PinCheck(setting.file, setting.line, False, setting.message))
    return checks


def lakefile_mathlib(root: Path) -> tuple[str, str | None] | None:
    """(url, revision) of the ``require mathlib from git`` in ``lakefile.lean``, if any."""
    try:
        text = read_config_text(root / "lakefile.lean")
    except (OSError, UnicodeDecodeError):
        return None
    for match in REQUIRE.finditer(text):
        if match.group("name") == "mathlib":
            return match.group("url"), match.group("rev")
    return None


def check_manifest(root: Path) -> list[PinCheck]:
    """``lake-manifest.json`` against the lakefile and the pins; ``[]`` when it is absent.

    The manifest is Lake's lock file: whatever it records is what Lake checks out, so every
    entry must be the pinned one. Mathlib must be the lakefile's revision (and the pinned
    one); every other package must be one Mathlib itself pins at that revision, with the same
    URL and revision; nothing else may be there (a path or fork would replace what Mathlib
    is built against).
    """
    path = root / "lake-manifest.json"
    if not path.exists():
        return []
    name = "lake-manifest.json"
    try:
        data = json.loads(read_config_text(path))
        packages = data["packages"]
        if not isinstance(packages, list):
            raise TypeError
    except (OSError, ValueError, KeyError, TypeError):
        return [PinCheck(name, 1, False, "not a Lake manifest (JSON with a `packages` list)")]
    text = read_config_text(path)
    checks: list[PinCheck] = []
    seen: set[str] = set()
    required = lakefile_mathlib(root)
    for package in packages:
        if not isinstance(package, dict):
            checks.append(PinCheck(name, 1, False, "a package entry is not an object"))
            continue
        pkg = str(package.get("name"))
        rev, url = package.get("rev"), package.get("url")
        index = text.find(f'"name": {json.dumps(pkg)}')
        line = _line_of(text, index) if index >= 0 else 1
        seen.add(pkg)
        if pkg == "mathlib":
            problems = []
            if rev != PINNED_MATHLIB:
                problems.append(f"mathlib at {rev!r}, pinned is {PINNED_MATHLIB}")
            if required is not None and rev != required[1]:
                problems.append(f"mathlib at {rev!r}, lakefile.lean requires {required[1]!r}")
            if required is not None and url != required[0]:
                problems.append(f"mathlib from {url!r}, lakefile.lean requires {required[0]!r}")
            if problems:
                checks.extend(PinCheck(name, line, False, p) for p in problems)
            else:
                checks.append(PinCheck(name, line, True, f"mathlib @ {PINNED_MATHLIB[:12]}"))
            continue
        pinned = INHERITED_PACKAGES.get(pkg)
        if pinned is None:
            checks.append(
                PinCheck(name, line, False, f"package {pkg!r} is not one Mathlib pins; remove it")
            )
        elif (url, rev) != pinned:
            checks.append(
                PinCheck(
                    name,
                    line,
                    False,
                    f"{pkg} at {url} @ {rev}, Mathlib {PINNED_MATHLIB[:12]} pins "
                    f"{pinned[0]} @ {pinned[1]}",
                )
            )
    if "mathlib" not in seen:
        checks.append(PinCheck(name, 1, False, "has no mathlib package"))
    missing = sorted(set(INHERITED_PACKAGES) - seen)
    if missing:
        checks.append(
            PinCheck(
                name,
                1,
                False,
                f"lacks {', '.join(missing)} (Mathlib's dependencies): Lake would re-resolve "
                "and rewrite the manifest",
            )
        )
    elif "mathlib" in seen and all(c.ok for c in checks):
        checks.append(
            PinCheck(name, 1, True, f"{len(INHERITED_PACKAGES)} inherited packages as Mathlib pins")
        )
    return checks


def mathlib_revision(root: Path) -> str:
    """The Mathlib commit Lake resolved (``lake-manifest.json``), else the pinned one."""
    try:
        data = json.loads(read_config_text(root / "lake-manifest.json"))
        for package in data.get("packages", []):
            if isinstance(package, dict) and package.get("name") == "mathlib":
                return str(package.get("rev"))
    except (OSError, ValueError, AttributeError):
        pass
    return PINNED_MATHLIB


def pin_checks(root: Path) -> list[PinCheck]:
    return [check_toolchain_file(root), *check_lakefile(root), *check_manifest(root)]


@dataclass
class Tool:
    name: str
    path: str | None
    version: str | None = None
    output: str = ""


@dataclass
class Doctor:
    root: Path
    pins: list[PinCheck]
    manifest_present: bool
    tools: list[Tool] = field(default_factory=list)
    advice: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return all(c.ok for c in self.pins)


def probe_tool(name: str, cwd: Path | None = None, args: tuple[str, ...] = ("--version",)) -> Tool:
    """Find ``name`` on PATH and ask its version (from ``cwd``, where elan reads
    ``lean-toolchain`` to pick the toolchain)."""
    import shutil  # only `doctor` runs tools: the pin checks of an edit's answer import neither
    import subprocess

    path = shutil.which(name)
    if path is None:
        return Tool(name, None)
    try:
        done = subprocess.run(
            [path, *args], capture_output=True, text=True, timeout=60, check=False, cwd=cwd
        )
        output = (done.stdout or done.stderr).strip()
    except (OSError, subprocess.TimeoutExpired) as exc:
        return Tool(name, path, None, f"failed to run: {exc}")
    match = _VERSION.search(output)
    return Tool(
        name, path, match.group(1) if match else None, output.splitlines()[0] if output else ""
    )


def run_doctor(root: Path) -> Doctor:
    doctor = Doctor(
        root=root, pins=pin_checks(root), manifest_present=(root / "lake-manifest.json").exists()
    )
    elan, lake, lean = (probe_tool(name, root) for name in ("elan", "lake", "lean"))
    doctor.tools = [elan, lake, lean]
    advice = doctor.advice
    for check in doctor.pins:
        if not check.ok:
            advice.append(f"fix {check.file}:{check.line}: {check.message}")
    if elan.path is None and lean.path is None:
        advice.append(
            "no Lean toolchain found: install elan (https://github.com/leanprover/elan); it "
            f"reads lean-toolchain and fetches {PINNED_TOOLCHAIN}. Until then statuses rest on "
            "source evidence only."
        )
    lake_lean = _LAKE_LEAN.search(lake.output)
    if lake_lean is not None and lake_lean.group(1) != PINNED_LEAN_VERSION:
        advice.append(
            f"lake runs Lean {lake_lean.group(1)}, pinned is {PINNED_LEAN_VERSION}: run "
            "`elan override unset` or remove other toolchain overrides, then retry from the "
            "workspace root"
        )
    if lean.version is not None and lean.version != PINNED_LEAN_VERSION:
        advice.append(
            f"lean on PATH is {lean.version}, pinned is {PINNED_LEAN_VERSION}: run lake from the "
            "workspace root so elan picks the pinned toolchain"
        )
    if not doctor.manifest_present:
        advice.append(
            "lake-manifest.json is absent: restore the committed one (`git checkout -- "
            "lake-manifest.json`); lean-action refuses a project without it, and Lake would "
            "otherwise resolve Mathlib's dependencies anew"
        )
    if lake.path is not None:
        advice.append("fetch Mathlib's build cache: `lake exe cache get`, then `lake build`")
        advice.append("for kernel evidence: `lake build audit`, then `missions check --lean`")
    return doctor
