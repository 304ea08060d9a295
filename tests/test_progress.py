"""``status --progress``: the weekly series reconstructed from git history."""

from __future__ import annotations

import datetime as dt
import itertools
import json
import os
import re
import subprocess
from collections.abc import Callable
from pathlib import Path

from hypothesis import given
from hypothesis import strategies as st
from typer.testing import CliRunner

from missions.cli import app
from missions.progress import mission_series, week_of
from missions.versions import Commit, Version

runner = CliRunner()
START = dt.datetime(2026, 3, 4, 12, 0, tzinfo=dt.UTC)  # a Wednesday


def _commit(root: Path, message: str, when: dt.datetime) -> None:
    stamp = when.isoformat()
    env = {**os.environ, "GIT_AUTHOR_DATE": stamp, "GIT_COMMITTER_DATE": stamp}
    env |= {"GIT_AUTHOR_NAME": "T", "GIT_AUTHOR_EMAIL": "t@x.invalid"}
    env |= {"GIT_COMMITTER_NAME": "T", "GIT_COMMITTER_EMAIL": "t@x.invalid"}
    subprocess.run(["git", "add", "-A"], cwd=root, env=env, check=True)
    subprocess.run(["git", "commit", "-qm", message], cwd=root, env=env, check=True)


def _recorded(yaml: str) -> tuple[int, int]:
    """(proved, stated) as the YAML records them."""
    statuses = re.findall(r"^\s+status: (\w+)", yaml, re.M)
    return statuses.count("proved"), statuses.count("stated")


def _allows(root: Path) -> int:
    return sum(
        len(re.findall(r"--\s*lint:\s*allow\b", p.read_text("utf-8")))
        for p in (root / "Formal").rglob("*.lean")
    )


def test_the_series_follows_the_commits_week_by_week(
    demo_workspace: Callable[..., Path],
) -> None:
    demo = demo_workspace(use_git=False)
    subprocess.run(["git", "init", "-q", "-b", "main"], cwd=demo, check=True)
    _commit(demo, "settled", START)
    yaml_path = demo / "missions/demo.yaml"
    first = (_recorded(yaml_path.read_text("utf-8")), _allows(demo))
    # two weeks later: the goal recorded stated, a new pin, one more allow comment
    text = yaml_path.read_text("utf-8")
    head, _, tail = text.rpartition("status: proved")
    assert head
    pin = re.search(r"statement_pin: (\S+)", text)
    assert pin is not None
    text = (head + "status: stated" + tail).replace(pin[1], "sha256:" + "1" * 64)
    yaml_path.write_text(text, encoding="utf-8")
    defs = demo / "Formal/Demo/Defs.lean"
    defs.write_text(
        defs.read_text("utf-8") + "\n-- lint: allow nat-sub because a test\n", encoding="utf-8"
    )
    _commit(demo, "lost the goal", START + dt.timedelta(days=14))
    second = (_recorded(text), _allows(demo))
    result = runner.invoke(app, ["status", "--progress", "--json", "--root", str(demo)])
    assert result.exit_code == 0, result.stderr
    progress = json.loads(result.stdout)["progress"]
    weeks = [week_of(START + dt.timedelta(days=7 * i))[0] for i in range(3)]
    assert progress["weeks"] == weeks
    expected = [first, first, second]
    for point, ((proved, stated), allows), moves in zip(
        progress["workspace"], expected, [0, 0, 1], strict=True
    ):
        assert point["proved"] == {"kernel": 0, "source": proved}
        assert (point["stated"], point["lint_allows"], point["pin_moves"]) == (
            stated,
            allows,
            moves,
        )
    assert progress["missions"]["demo"] == [
        {k: v for k, v in p.items() if k != "lint_allows"} for p in progress["workspace"]
    ]
    plain = runner.invoke(app, ["status", "--progress", "--root", str(demo)]).stdout
    assert all(week in plain for week in weeks)


def test_without_history_the_series_is_empty(demo_workspace: Callable[..., Path]) -> None:
    demo = demo_workspace(use_git=False)
    result = runner.invoke(app, ["status", "--progress", "--json", "--root", str(demo)])
    progress = json.loads(result.stdout)["progress"]
    assert progress == {"weeks": [], "workspace": [], "missions": {"demo": []}}
    plain = runner.invoke(app, ["status", "--progress", "--root", str(demo)]).stdout
    assert "no committed history" in plain


versions = st.lists(
    st.tuples(
        st.integers(0, 40),  # days after START (not in order: rebased history)
        st.sampled_from([None, "p1", "p2"]),
        st.sampled_from(["proved", "stated", "missing", None]),
        st.sampled_from(["kernel", "source", None]),
    ),
    min_size=1,
    max_size=8,
)


@given(found=versions)
def test_each_week_shows_the_last_version_committed_before_it_ended(
    found: list[tuple[int, str | None, str | None, str | None]],
) -> None:
    history = [
        Version(
            Commit(f"c{i}", "a", START + dt.timedelta(days=days), ""),
            pin,
            {"t": status},
            {"t": tier},
        )
        for i, (days, pin, status, tier) in enumerate(found)
    ]
    ends = [week_of(START + dt.timedelta(days=7 * i))[1] for i in range(8)]
    weeks = [(f"w{i}", end) for i, end in enumerate(ends)]
    series = mission_series(history, weeks)
    for (_, end), point in zip(weeks, series, strict=True):
        # history order counts: a version is in once every version before it is
        seen = [
            v for i, v in enumerate(history) if all(w.commit.date < end for w in history[: i + 1])
        ]
        last = seen[-1] if seen else None
        status = last.statuses["t"] if last and last.statuses else None
        tier = (last.evidence or {}).get("t") if last else None
        proved = point["proved"]
        if status == "proved":
            assert proved == {"kernel": 0, "source": 0, tier or "source": 1}
        else:
            assert proved == {"kernel": 0, "source": 0}
            expected = {"stated": 0, "missing": 0, "unrecorded": 0, "external": 0}
            if last is not None:
                expected["unrecorded" if status is None else status] = 1
            assert {k: point[k] for k in expected} == expected
    included = [v.pin for v in history if v in seen]  # by the last week's end: a prefix
    moves = sum(1 for a, b in itertools.pairwise(included) if b is not None and a != b)
    assert sum(p["pin_moves"] for p in series) == moves


def test_the_dashboard_charts_the_series_it_tabulates(
    demo_workspace: Callable[..., Path], tmp_path: Path
) -> None:
    demo = demo_workspace(use_git=False)
    subprocess.run(["git", "init", "-q", "-b", "main"], cwd=demo, check=True)
    _commit(demo, "settled", START)
    (demo / "Formal/Demo/Defs.lean").write_text(
        (demo / "Formal/Demo/Defs.lean").read_text("utf-8") + "\n-- lint: allow x because y\n",
        encoding="utf-8",
    )
    _commit(demo, "later", START + dt.timedelta(days=21))
    result = runner.invoke(app, ["status", "--progress", "--json", "--root", str(demo)])
    progress = json.loads(result.stdout)["progress"]
    out = tmp_path / "site"
    result = runner.invoke(app, ["report", "--format", "html", "-o", str(out), "--root", str(demo)])
    assert result.exit_code == 0, result.stderr
    page = (out / "index.html").read_text("utf-8")
    section = page[page.index('<h2 id="progress">') : page.index('<h2 id="gate">')]
    weeks = progress["weeks"]
    assert len(weeks) == 4
    assert section.count("<polyline") == 4  # one line per series: tiers apart
    assert section.count("<circle") == 4 * len(weeks)
    rows = re.findall(r"<tr><td>(.*?)</td></tr>", section)
    assert len(rows) == len(weeks)
    for row, point in zip(rows, progress["workspace"], strict=True):
        cells = row.split("</td><td>")
        assert cells[0] == point["week"]
        assert [int(c) for c in cells[1:]] == [
            point["proved"]["kernel"],
            point["proved"]["source"],
            point["stated"],
            point["missing"],
            point["pin_moves"],
            point["lint_allows"],
        ]
    assert "<script" not in section
