"""The tool in a C-locale container: files are read and written as UTF-8 and the output is
UTF-8, whatever the locale says (Python without UTF-8 mode would use ASCII there).

Each command runs in a child process with the locale forced to ``C`` and UTF-8 coercion off,
importing the code under test (not an installed copy), so a codec left to the locale fails
here on the first non-ASCII character: the lakefile's ``⟨⟩``, a mission title, a dash.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import missions
from conftest import DEMO_YAML, status_json


def run_in_c_locale(root: Path, *args: str) -> str:
    env = {
        **os.environ,
        "NO_COLOR": "1",
        "LC_ALL": "C",
        "LANG": "C",
        "PYTHONCOERCECLOCALE": "0",
        "PYTHONUTF8": "0",
        "PYTHONPATH": str(Path(missions.__file__).resolve().parents[1]),
    }
    done = subprocess.run(
        [sys.executable, "-m", "missions", *args, "--root", str(root)],
        capture_output=True,
        env=env,
        timeout=120,
        check=False,
    )
    stderr = done.stderr.decode("utf-8")  # warnings may come, in UTF-8 too
    assert done.returncode == 0 and "internal error" not in stderr, (args, stderr)
    return done.stdout.decode("utf-8")


def test_reading_and_printing_in_an_ascii_locale(demo_workspace: Callable[..., Path]) -> None:
    root = demo_workspace()
    assert run_in_c_locale(root, "check").splitlines()[-1].startswith("gate: ok")
    assert " — " in run_in_c_locale(root, "check")  # a non-ASCII dash, printed as UTF-8
    data = json.loads(run_in_c_locale(root, "status", "--json"))
    assert data["missions"] == status_json(root)["missions"]
    assert data["summary"]["proved"] == 2
    assert run_in_c_locale(root, "status").endswith(  # the overview is the last line
        "\n1 mission, 1 complete · 2 targets: 2 proved\n"
    )


def test_writing_the_yaml_in_an_ascii_locale(demo_workspace: Callable[..., Path]) -> None:
    """``sync`` rewrites a mission file whose title is not ASCII: it stays UTF-8."""
    titled = DEMO_YAML.replace('title: "Demo mission"', 'title: "Démo — mission"', 1)
    assert titled != DEMO_YAML
    root = demo_workspace(files={"missions/demo.yaml": titled}, settled=False)
    run_in_c_locale(root, "pin")
    run_in_c_locale(root, "sync")
    text = (root / "missions" / "demo.yaml").read_text(encoding="utf-8")
    assert 'title: "Démo — mission"' in text and "status: proved" in text
