"""Every admin page staff can reach renders."""

from __future__ import annotations

import pytest
from django.contrib import admin
from django.urls import reverse

from tests.factories import UserFactory

pytestmark = pytest.mark.django_db


def test_admin_changelists_render_for_staff(client) -> None:
    staff = UserFactory(is_staff=True, is_superuser=True)
    client.force_login(staff)
    assert client.get(reverse("admin:index")).status_code == 200
    for model in admin.site._registry:
        info = (model._meta.app_label, model._meta.model_name)
        url = reverse("admin:{}_{}_changelist".format(*info))
        assert client.get(url).status_code == 200, url


def test_admin_refuses_players(client) -> None:
    client.force_login(UserFactory())
    response = client.get(reverse("admin:index"))
    assert response.status_code == 302
