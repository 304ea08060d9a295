"""Dashboard details from issue 12: the bar shows the share proved, reasons are visible."""

from __future__ import annotations

import html
import re
from pathlib import Path

import pytest

from conftest import REPO
from missions.catalog import load_catalog
from missions.gate import run_gate
from missions.html import page_name, write_dashboard
from missions.lean.workspace import load_workspace
from missions.status import Analysis, analyze


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> tuple[Analysis, Path]:
    analysis = analyze(load_catalog(REPO, use_cache=False), load_workspace(REPO))
    out = tmp_path_factory.mktemp("site")
    write_dashboard(analysis, run_gate(analysis), out, witnesses={})
    return analysis, out


def test_the_bar_fills_the_share_proved(site: tuple[Analysis, Path]) -> None:
    analysis, out = site
    index = (out / "index.html").read_text(encoding="utf-8")
    bars = re.findall(r'<div class="bar" role="progressbar"[^>]*>.*?</div>', index)
    assert len(bars) == len(analysis.missions)
    for mission, bar in zip(analysis.missions, bars, strict=True):
        counted = [t for t in mission.targets if t.status != "external"]
        proved = sum(t.status == "proved" for t in counted)
        assert f'aria-valuenow="{proved}"' in bar and f'aria-valuemax="{len(counted)}"' in bar
        widths = [float(w) for w in re.findall(r"width:([\d.]+)%", bar)]
        assert sum(widths) == pytest.approx(100 * proved / len(counted) if counted else 0)
        assert all('class="proved"' in span for span in re.findall(r"<span[^>]*>", bar))


def test_the_first_reason_is_visible_without_a_click(site: tuple[Analysis, Path]) -> None:
    analysis, out = site
    checked = 0
    for mission in analysis.missions:
        page = (out / page_name(mission.id)).read_text(encoding="utf-8")
        for status in mission.targets:
            article = re.search(
                rf'<article class="target" id="target-{re.escape(status.target.id)}">(.*?)'
                r"</article>",
                page,
                re.DOTALL,
            )
            assert article is not None
            body = article.group(1)
            if status.status == "proved" or not status.reasons:
                assert '<p class="why">' not in body
                continue
            first = html.escape(status.reasons[0], quote=True)
            folded = body.find("<details")
            position = body.find(first)
            assert position >= 0 and (folded < 0 or position < folded)
            checked += 1
    assert checked > 0
