"""The bot protocol and writing-a-bot documents are pages of the site."""

from __future__ import annotations

import pytest
from django.urls import reverse

from bots import docs

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("doc", docs.DOCS, ids=lambda d: d.slug)
def test_each_document_renders_from_its_markdown(client, doc) -> None:
    page = client.get(reverse("bots:doc", args=[doc.slug]))
    assert page.status_code == 200
    body = page.content.decode()
    first_heading = next(
        line.lstrip("# ").strip()
        for line in (docs.docs_dir() / doc.path).read_text().splitlines()
        if line.startswith("# ")
    )
    assert f"<h1>{first_heading}</h1>" in body
    assert "<table>" in body or doc.slug == "writing"


def test_links_between_documents_point_at_their_pages(client) -> None:
    body = client.get(reverse("bots:doc", args=["protocol"])).content.decode()
    assert f'href="{reverse("bots:doc", args=["writing"])}"' in body
    assert f'href="{reverse("bots:doc", args=["sandbox"])}"' in body
    writing = client.get(reverse("bots:doc", args=["writing"])).content.decode()
    assert 'href="performance.md"' not in writing, "unserved documents are text"
    assert "docs/performance.md" in writing


def test_raw_html_in_markdown_is_escaped(settings, tmp_path) -> None:
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "bots.md").write_text("# T\n\n<script>alert(1)</script>\n")
    settings.BASE_DIR = tmp_path
    html = docs.render_doc(docs.BY_SLUG["writing"])
    assert "<script>" not in html and "&lt;script&gt;" in html


def test_unknown_document_is_404(client) -> None:
    assert client.get(reverse("bots:doc", args=["nope"])).status_code == 404


def test_bots_pages_link_the_documents(client, django_user_model) -> None:
    listing = client.get(reverse("bots:list")).content.decode()
    for slug in ("writing", "protocol", "sandbox"):
        assert reverse("bots:doc", args=[slug]) in listing
    client.force_login(django_user_model.objects.create_user("writer"))
    upload = client.get(reverse("bots:new")).content.decode()
    assert reverse("bots:doc", args=["protocol"]) in upload
