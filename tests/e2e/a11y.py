"""axe-core in the browser tests: the accessibility rules every page must pass.

axe-core is the engine (the ``axe-playwright-python`` package ships its
``axe.min.js``); it is injected into the page with ``page.evaluate`` (the
DevTools protocol, so the pages' CSP does not apply) and run on the page as it
is now. A page passes when axe finds no *serious* or *critical* violation
(docs/ui.md, "Accessibility"); *minor* and *moderate* ones are reported by
``axe_report`` but do not fail.
"""

from __future__ import annotations

import hashlib
import re
from functools import cache
from typing import Any
from urllib.parse import parse_qsl, urlsplit

FAILING = ("serious", "critical")
SCHEMES = ("light", "dark")
#: WCAG 2.0/2.1/2.2 A and AA, plus axe's best practices.
TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa", "best-practice"]


@cache
def _axe_script() -> str:
    from axe_playwright_python.sync_playwright import Axe

    return Axe().axe_script


#: The rules whose outcome a colour scheme can change: the second scheme's
#: run needs only these (the markup is the same).
COLOUR_RULES = ["color-contrast", "link-in-text-block"]


def axe_report(page: Any, rules: list[str] | None = None) -> list[dict[str, Any]]:
    """Every violation axe finds on ``page`` now: axe's own result objects.

    ``rules`` runs only those rules (by id) instead of every rule of ``TAGS``.
    """
    if not page.evaluate("() => typeof window.axe === 'object'"):
        page.evaluate(_axe_script())
    only = (
        {"type": "rule", "values": rules} if rules else {"type": "tag", "values": TAGS}
    )
    results = page.evaluate(
        "(only) => axe.run(document, {runOnly: only, resultTypes: ['violations']})",
        only,
    )
    return results["violations"]


def axe_failures(page: Any, rules: list[str] | None = None) -> list[str]:
    """The serious and critical violations on ``page``, one line per element."""
    lines = []
    for violation in axe_report(page, rules):
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


_MEDIA = """() => ({
  color_scheme: matchMedia('(prefers-color-scheme: dark)').matches
    ? 'dark' : 'light',
  reduced_motion: matchMedia('(prefers-reduced-motion: reduce)').matches
    ? 'reduce' : 'no-preference',
})"""


def scheme_failures(page: Any, where: str = "") -> list[str]:
    """axe on ``page`` as it is now, once per colour scheme, without motion.

    Every rule in the light scheme; in the dark one only the rules colours
    can change (``COLOUR_RULES``), which halves the cost. Reduced motion
    because a line caught half way through its fade-in is no colour anybody
    is left reading. The page's media are put back as they
    were (a context made dark or without motion stays so).
    """
    failures: list[str] = []
    before = page.evaluate(_MEDIA)
    try:
        for scheme in SCHEMES:
            page.emulate_media(color_scheme=scheme, reduced_motion="reduce")
            rules = None if scheme == SCHEMES[0] else COLOUR_RULES
            failures += [
                f"{where or page.url} ({scheme}): {line}"
                for line in axe_failures(page, rules)
            ]
    finally:
        page.emulate_media(**before)
    return failures


def assert_accessible_in_both_schemes(page: Any, where: str = "") -> None:
    """``assert_accessible`` in the light and the dark scheme: for a state a
    test passes through (an error shown, a half-made offer) and leaves. A
    state that passes is noted (``PASSED``): a test that ends on it is not
    checked again at its end."""
    state = page_state(page)
    failures = scheme_failures(page, where)
    assert not failures, "axe:\n" + "\n".join(failures)
    PASSED.add(state)


#: The page states (:func:`page_state`) that passed axe in both schemes this
#: session: the check at each browser test's end leaves them out.
PASSED: set[str] = set()

#: What the page's markup is made of, for :func:`page_state`: each distinct
#: element kind (tag, classes, role, the states axe reads, the properties of
#: an inline style), whatever the text inside.
_KINDS = """() => {
  const flags = ['hidden', 'open', 'disabled', 'aria-hidden', 'aria-invalid',
                 'aria-expanded', 'aria-current', 'aria-pressed', 'aria-selected'];
  const kinds = new Set();
  for (const el of document.querySelectorAll('*')) {
    let kind = el.tagName + '.' + [...el.classList].sort().join('.');
    const role = el.getAttribute('role');
    if (role) kind += '[' + role + ']';
    for (const flag of flags) {
      if (el.hasAttribute(flag)) kind += '[' + flag + '=' + el.getAttribute(flag) + ']';
    }
    if (el.style.length) kind += '{' + [...el.style].sort().join(',') + '}';
    kinds.add(kind);
  }
  return {lang: document.documentElement.lang, kinds: [...kinds].sort()};
}"""

#: URL path segments that name one row (ids, arena.unique() names, tokens).
_ROW = re.compile(r"^(\d+|[A-Za-z_-]*\d+x\d+|[0-9a-fA-F-]{16,})$")


def url_pattern(url: str) -> str:
    """``url``'s path and query with what names one row put as ``<n>``:
    ``/matches/12/replay/?seat=1`` and ``/matches/13/replay/?seat=1`` are one
    kind of page."""
    parts = urlsplit(url)
    path = "/".join("<n>" if _ROW.match(s) else s for s in parts.path.split("/"))
    query = sorted(
        (key, "<n>" if _ROW.match(value) else value)
        for key, value in parse_qsl(parts.query, keep_blank_values=True)
    )
    return path + ("?" + "&".join(f"{k}={v}" for k, v in query) if query else "")


def page_state(page: Any) -> str:
    """A key for the page as axe would find it: the URL's pattern, the
    viewport's width, the document's language and a hash of every distinct
    element kind (tag, classes, role, ARIA states, inline style properties).

    Two pages with one key differ in text and in numbers only: the check at
    each browser test's end (conftest.py) runs axe once per key and session.
    """
    shape = page.evaluate(_KINDS)
    digest = hashlib.sha256("\n".join(shape["kinds"]).encode()).hexdigest()[:16]
    width = (page.viewport_size or {}).get("width", 0)
    return f"{url_pattern(page.url)} {width}px {shape['lang']} {digest}"
