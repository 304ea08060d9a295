"""JUnit XML for any CI system: a test case per target, per Comparator run and per gate rule.

Target cases fail when the gate reports a violation against that target; open targets
pass (being unproved is not a regression) and say their status in ``system-out``; external
targets are skipped. The ``comparator`` suite has a case per mission: it fails with the
mission's ``comparator`` violations, is skipped when the mission claims nothing proved or
when no Comparator results were given, and passes with Comparator's verdict otherwise. Rule
cases fail with every violation of that rule. The element order follows the common JUnit
schema (skipped, failure, system-out).
"""

from __future__ import annotations

import xml.etree.ElementTree as ET

from missions.comparator import ComparatorResult, plan_mission
from missions.gate import RULES, GateResult
from missions.status import Analysis, Violation


def _case(
    suite: ET.Element,
    classname: str,
    name: str,
    failures: list[Violation],
    out: str | None = None,
    skipped: str | None = None,
) -> None:
    case = ET.SubElement(suite, "testcase", classname=classname, name=name, time="0")
    if skipped is not None:
        ET.SubElement(case, "skipped").text = skipped
    for violation in failures:
        failure = ET.SubElement(
            case, "failure", type=violation.rule, message=violation.message[:500]
        )
        failure.text = f"{violation.location()}: [{violation.rule}] {violation.message}"
    if out:
        ET.SubElement(case, "system-out").text = out


def _suite(root: ET.Element, name: str) -> ET.Element:
    return ET.SubElement(root, "testsuite", name=name, tests="0", failures="0", errors="0")


def _count(suite: ET.Element) -> None:
    cases = suite.findall("testcase")
    suite.set("tests", str(len(cases)))
    suite.set("failures", str(sum(1 for c in cases if c.find("failure") is not None)))
    suite.set("skipped", str(sum(1 for c in cases if c.find("skipped") is not None)))


def _comparator_suite(
    root: ET.Element,
    analysis: Analysis,
    gate: GateResult,
    results: dict[str, ComparatorResult] | None,
) -> None:
    suite = _suite(root, "comparator")
    for mission in analysis.missions:
        config = plan_mission(analysis, mission).config
        mine = [v for v in gate.violations if v.rule == "comparator" and v.mission == mission.id]
        if config is None:
            _case(suite, "comparator", mission.id, [], skipped="no target is claimed proved")
        elif results is None:
            _case(
                suite,
                "comparator",
                mission.id,
                [],
                skipped="Comparator results not given (missions check --comparator DIR)",
            )
        else:
            result = results.get(mission.id)
            out = result.summary if result is not None else None
            _case(suite, "comparator", mission.id, mine, out)
    _count(suite)


def junit_xml(
    analysis: Analysis,
    gate: GateResult,
    comparator: dict[str, ComparatorResult] | None = None,
) -> str:
    root = ET.Element("testsuites", name="missions")
    for mission in analysis.missions:
        suite = _suite(root, f"mission {mission.id}")
        for status in mission.targets:
            target = status.target
            mine = [v for v in gate.violations if v.mission == mission.id and v.target == target.id]
            out = f"status: {status.status}; evidence: {status.evidence or '-'}"
            if status.reasons:
                out += "\n" + "\n".join(status.reasons)
            skipped = "external target" if status.status == "external" else None
            _case(suite, mission.id, target.id, mine, out, skipped)
        _count(suite)
    _comparator_suite(root, analysis, gate, comparator)
    rules = _suite(root, "gate rules")
    for rule in RULES:
        _case(rules, "gate", rule, [v for v in gate.violations if v.rule == rule])
    _count(rules)
    tests = sum(int(s.get("tests", "0")) for s in root)
    failures = sum(int(s.get("failures", "0")) for s in root)
    root.set("tests", str(tests))
    root.set("failures", str(failures))
    ET.indent(root)
    return '<?xml version="1.0" encoding="UTF-8"?>\n' + ET.tostring(root, encoding="unicode") + "\n"
