"""A stand-in for `lake` used by tests (no Lean toolchain exists where they run).

It is a test double, not a transcript: `build ... audit` succeeds, `env BIN --request R
--out O` answers the audit request (format missions-audit/2, constructed from
docs/audit-format.md) from the scenario in $FAKE_AUDIT (a JSON object mapping declaration
names to overrides), and any other `build` prints $FAKE_LAKE_OUTPUT and exits with
$FAKE_LAKE_RC. `--version` prints a 4.30-style version line. By default every statement is a
Prop-valued definition with fixed fingerprints and every proof a clean theorem that uses
nothing but its own statement.
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path


def audit(request_path: str, out_path: str) -> int:
    request = json.loads(Path(request_path).read_text(encoding="utf-8"))
    scenario = json.loads(os.environ.get("FAKE_AUDIT", "{}"))
    declarations = []
    for entry in request["declarations"]:
        statement = entry["statement"]
        decl = {
            "name": entry["name"],
            "exists": True,
            "kind": "theorem" if statement else "def",
            "level_params": [],
            "type_hash": "1",
            "type_fingerprint": "2",
            "type_is_prop": statement is None,
            "value_fingerprint": "3" if statement is None else None,
            "axioms": ["propext", "Classical.choice", "Quot.sound"] if statement else [],
            "unsafe": False,
            "partial": False,
            "statement": statement,
            "type_is_statement": True if statement else None,
            "closure_fingerprint": "4" if statement is None else None,
            "definitions": {} if statement is None else None,
            "uses": [statement] if statement else None,
        }
        decl.update(scenario.get(entry["name"], {}))
        declarations.append(decl)
    report = {
        "format": "missions-audit/2",
        "lean_version": "4.30.0",
        "lean_githash": "0" * 40,
        "modules": request["modules"],
        "declarations": declarations,
    }
    Path(out_path).write_text(json.dumps(report), encoding="utf-8")
    return 0


def main(argv: list[str]) -> int:
    if argv[:1] == ["--version"]:
        print("Lake version 5.0.0-c5ea003 (Lean version 4.30.0)")
        return 0
    if argv[:1] == ["env"] and "--request" in argv:
        return audit(argv[argv.index("--request") + 1], argv[argv.index("--out") + 1])
    if argv[:1] == ["build"] and argv[-1] == "audit":
        print("✔ [1/1] Built audit (0.1s)\nBuild completed successfully (1 jobs).")
        return 0
    if argv[:1] == ["build"]:
        sys.stdout.write(Path(os.environ["FAKE_LAKE_OUTPUT"]).read_text(encoding="utf-8"))
        return int(os.environ.get("FAKE_LAKE_RC", "0"))
    print(f"fake lake: unsupported {argv}", file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
