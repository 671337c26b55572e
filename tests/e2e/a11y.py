"""axe-core in the browser tests: the accessibility rules every page must pass.

axe-core is the engine (the ``axe-playwright-python`` package ships its
``axe.min.js``); it is injected into the page with ``page.evaluate`` (the
DevTools protocol, so the pages' CSP does not apply) and run on the page as it
is now. A page passes when axe finds no *serious* or *critical* violation
(docs/ui.md, "Accessibility"); *minor* and *moderate* ones are reported by
``axe_report`` but do not fail.
"""

from __future__ import annotations

from functools import cache
from typing import Any

FAILING = ("serious", "critical")
#: WCAG 2.0/2.1/2.2 A and AA, plus axe's best practices.
TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa", "best-practice"]


@cache
def _axe_script() -> str:
    from axe_playwright_python.sync_playwright import Axe

    return Axe().axe_script


def axe_report(page: Any) -> list[dict[str, Any]]:
    """Every violation axe finds on ``page`` now: axe's own result objects."""
    if not page.evaluate("() => typeof window.axe === 'object'"):
        page.evaluate(_axe_script())
    results = page.evaluate(
        "(tags) => axe.run(document, {runOnly: {type: 'tag', values: tags},"
        " resultTypes: ['violations']})",
        TAGS,
    )
    return results["violations"]


def axe_failures(page: Any) -> list[str]:
    """The serious and critical violations on ``page``, one line per element."""
    lines = []
    for violation in axe_report(page):
        if violation.get("impact") not in FAILING:
            continue
        for node in violation["nodes"][:8]:
            target = " ".join(str(t) for t in node.get("target", []))
            summary = (node.get("failureSummary") or "").replace("\n", " ")
            lines.append(
                f"[{violation['impact']}] {violation['id']}: {target} :: "
                f"{summary[:300]}"
            )
    return lines


def assert_accessible(page: Any, where: str = "") -> None:
    """Fail with axe's findings when ``page`` has a serious/critical violation."""
    failures = axe_failures(page)
    assert not failures, f"axe on {where or page.url}:\n" + "\n".join(failures)
