"""The bot author's documents, served as pages from the Markdown in docs/.

One source for the repository and the site: ``docs/bots.md`` (writing a bot),
``docs/protocol/bots.md`` (the protocol), ``docs/protocol/bot-api.md`` (bots
that connect from elsewhere) and ``docs/sandbox.md`` (where a bot runs) are
rendered with markdown-it-py, raw HTML switched off (the documents are ours,
but a page must never pass markup through unescaped). Links
between them are pointed at their pages; links to documents that are not
served become plain text rather than dead links.
"""

from __future__ import annotations

import posixpath
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from django.conf import settings
from django.urls import reverse
from markdown_it import MarkdownIt


@dataclass(frozen=True)
class BotDoc:
    slug: str
    title: str
    path: str  # relative to docs/


DOCS = (
    BotDoc("writing", "Writing a bot", "bots.md"),
    BotDoc("protocol", "Bot protocol", "protocol/bots.md"),
    BotDoc("connect", "Connected bots: the bot account API", "protocol/bot-api.md"),
    BotDoc("sandbox", "Where bots run: the sandbox", "sandbox.md"),
)
BY_SLUG = {doc.slug: doc for doc in DOCS}
BY_PATH = {doc.path: doc for doc in DOCS}


def docs_dir() -> Path:
    return Path(settings.BASE_DIR) / "docs"


def _link_target(href: str, here: str) -> str | None:
    """The site URL for a link in ``here``; None to render it as text."""
    if href.startswith(("http://", "https://", "mailto:", "#")):
        return href
    path, _, anchor = href.partition("#")
    resolved = posixpath.normpath(posixpath.join(posixpath.dirname(here), path))
    doc = BY_PATH.get(resolved)
    if doc is None:
        return None
    url = reverse("bots:doc", args=[doc.slug])
    return f"{url}#{anchor}" if anchor else url


def _renderer(here: str) -> MarkdownIt:
    md = MarkdownIt("commonmark", {"html": False, "linkify": False}).enable("table")
    dropped: list[bool] = []

    def link_open(renderer, tokens, idx, options, env):
        token = tokens[idx]
        target = _link_target(str(token.attrGet("href") or ""), here)
        dropped.append(target is None)
        if target is None:
            return ""
        token.attrSet("href", target)
        return renderer.renderToken(tokens, idx, options, env)

    def link_close(renderer, tokens, idx, options, env):
        if dropped and dropped.pop():
            return ""
        return renderer.renderToken(tokens, idx, options, env)

    def focusable_pre(name: str):
        # A code block wider than the page scrolls sideways: it takes the
        # keyboard focus so the arrow keys can scroll it (WCAG 2.1.1).
        def render(renderer, tokens, idx, options, env):
            html = getattr(type(renderer), name)(renderer, tokens, idx, options, env)
            return html.replace("<pre>", '<pre tabindex="0">', 1)

        return render

    md.add_render_rule("link_open", link_open)
    md.add_render_rule("link_close", link_close)
    md.add_render_rule("fence", focusable_pre("fence"))
    md.add_render_rule("code_block", focusable_pre("code_block"))
    return md


@lru_cache(maxsize=16)
def _render(source: Path, path: str, mtime_ns: int) -> str:
    return _renderer(path).render(source.read_text(encoding="utf-8"))


def render_doc(doc: BotDoc) -> str:
    """The document as HTML, re-rendered only when the file changes."""
    source = docs_dir() / doc.path
    return _render(source, doc.path, source.stat().st_mtime_ns)
