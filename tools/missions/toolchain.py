"""The pinned Lean toolchain and Mathlib revision, and what is installed here.

Every mission is stated against one Lean release and one Mathlib commit. ``check`` refuses a
workspace whose ``lean-toolchain``, ``lakefile.lean`` or ``lake-manifest.json`` has drifted
from them; ``doctor`` also looks for elan, lake and lean and says what to run next.
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from dataclasses import dataclass, field
from pathlib import Path

PINNED_TOOLCHAIN = "leanprover/lean4:v4.30.0"
PINNED_LEAN_VERSION = "4.30.0"
PINNED_MATHLIB = "c5ea00351c28e24afc9f0f84379aa41082b1188f"
MATHLIB_GIT = "https://github.com/leanprover-community/mathlib4.git"

_REQUIRE = re.compile(
    r"require\s+«?(?P<name>[A-Za-z_][\w-]*)»?\s+from\s+git\s+\"(?P<url>[^\"]+)\""
    r"(?:\s*@\s*\"(?P<rev>[^\"]+)\")?",
)
_LAKE_LEAN = re.compile(r"Lean version (\d+\.\d+\.\d+(?:-[0-9A-Za-z.]+)?)")
_VERSION = re.compile(r"(\d+\.\d+\.\d+(?:-[0-9A-Za-z.]+)?)")
#: Build settings that can switch off kernel checking or link foreign code behind it.
_UNSAFE_BUILD = re.compile(
    r"debug\.[A-Za-z.]+|-D\s*debug|extern_lib|moreLinkArgs|precompileModules"
)


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
        value = path.read_text(encoding="utf-8").strip()
    except OSError:
        return PinCheck("lean-toolchain", 1, False, f"missing; it must say {PINNED_TOOLCHAIN}")
    if value != PINNED_TOOLCHAIN:
        return PinCheck("lean-toolchain", 1, False, f"says {value!r}, pinned is {PINNED_TOOLCHAIN}")
    return PinCheck("lean-toolchain", 1, True, PINNED_TOOLCHAIN)


def check_lakefile(root: Path) -> list[PinCheck]:
    path = root / "lakefile.lean"
    try:
        text = path.read_text(encoding="utf-8")
    except OSError:
        return [PinCheck("lakefile.lean", 1, False, "missing")]
    checks: list[PinCheck] = []
    found = False
    for match in _REQUIRE.finditer(text):
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
    for match in _UNSAFE_BUILD.finditer(text):
        checks.append(
            PinCheck(
                "lakefile.lean",
                _line_of(text, match.start()),
                False,
                f"`{match.group()}` changes how Lean checks or links the workspace",
            )
        )
    return checks


def check_manifest(root: Path) -> PinCheck | None:
    """The Mathlib revision in ``lake-manifest.json``; ``None`` when Lake has not written it."""
    path = root / "lake-manifest.json"
    if not path.exists():
        return None
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        packages = data.get("packages", [])
    except (OSError, ValueError, AttributeError):
        return PinCheck("lake-manifest.json", 1, False, "not valid JSON")
    for package in packages:
        if isinstance(package, dict) and package.get("name") == "mathlib":
            rev = package.get("rev")
            if rev != PINNED_MATHLIB:
                return PinCheck(
                    "lake-manifest.json",
                    1,
                    False,
                    f"mathlib at {rev!r}, pinned is {PINNED_MATHLIB}",
                )
            return PinCheck("lake-manifest.json", 1, True, f"mathlib @ {PINNED_MATHLIB[:12]}")
    return PinCheck("lake-manifest.json", 1, False, "has no mathlib package")


def mathlib_revision(root: Path) -> str:
    """The Mathlib commit Lake resolved (``lake-manifest.json``), else the pinned one."""
    try:
        data = json.loads((root / "lake-manifest.json").read_text(encoding="utf-8"))
        for package in data.get("packages", []):
            if isinstance(package, dict) and package.get("name") == "mathlib":
                return str(package.get("rev"))
    except (OSError, ValueError, AttributeError):
        pass
    return PINNED_MATHLIB


def pin_checks(root: Path) -> list[PinCheck]:
    checks = [check_toolchain_file(root), *check_lakefile(root)]
    manifest = check_manifest(root)
    if manifest is not None:
        checks.append(manifest)
    return checks


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
    if lake.path is not None:
        if not doctor.manifest_present:
            advice.append(
                "lake-manifest.json is absent: Lake writes it on first resolve; run `lake update "
                "mathlib` once (it records the pinned revision), then commit the manifest"
            )
        advice.append("fetch Mathlib's build cache: `lake exe cache get`, then `lake build`")
        advice.append("for kernel evidence: `lake build audit`, then `missions check --lean`")
    elif not doctor.manifest_present:
        advice.append(
            "lake-manifest.json is absent: that is expected until Lake first resolves the "
            "workspace; it is not written by hand"
        )
    return doctor
