"""OpenAPI schema generation without name clashes between the apps.

Two apps may each have a ``ChallengeSerializer`` or a ``QueueSerializer``, and a
list and a detail path share their first word; drf-spectacular then merges
components or numbers operation ids, and ``check --deploy`` warns that the
schema is likely wrong. Here a serializer whose class name exists in another
module is named after its app too (``BotsChallenge``), and operation ids carry
the path's parameters (``tables_public_id_action_create``).
"""

from __future__ import annotations

import re

from drf_spectacular.openapi import AutoSchema
from rest_framework import serializers


def _all_subclasses(cls: type) -> set[type]:
    found: set[type] = set()
    stack = [cls]
    while stack:
        for sub in stack.pop().__subclasses__():
            if sub not in found:
                found.add(sub)
                stack.append(sub)
    return found


def _name_is_shared(cls: type) -> bool:
    return any(
        other.__name__ == cls.__name__ and other.__module__ != cls.__module__
        for other in _all_subclasses(serializers.BaseSerializer)
    )


class ArenaAutoSchema(AutoSchema):
    def get_serializer_name(self, serializer, direction) -> str:
        name = super().get_serializer_name(serializer, direction)
        cls = serializer.__class__
        if _name_is_shared(cls):
            app = cls.__module__.split(".", 1)[0]
            name = app.title().replace("_", "") + name
        return name

    def get_operation_id(self) -> str:
        operation_id = super().get_operation_id()
        params = [
            name
            for name in self._get_path_parameter_names()
            if name not in operation_id
        ]
        if not params:
            return operation_id
        head, _, action = operation_id.rpartition("_")
        return "_".join([head, *params, action])

    def _get_path_parameter_names(self) -> list[str]:
        return re.findall(r"{(\w+)}", self.path)
