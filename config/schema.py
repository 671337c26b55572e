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


ERROR_SCHEMA = {
    "type": "object",
    "description": "Every API error (config.api.api_exception_handler).",
    "properties": {
        "code": {
            "type": "string",
            "description": "Machine-readable: invalid, not_authenticated, "
            "authentication_failed, forbidden, not_found, method_not_allowed, "
            "throttled, parse_error, unsupported_media_type, locked_out, or a "
            "service's own (conflict, stale_version, upload_refused, ...).",
        },
        "detail": {
            "type": "string",
            "description": "What went wrong, for people, in the request's "
            "language (English on the bot API).",
        },
        "reason": {
            "type": "string",
            "description": "An engine's refusal (illegal_action) only: the "
            "engine's own code (not_legal, game_over, offer_never_made, ...).",
        },
        "params": {
            "type": "object",
            "description": "With reason: what the refusal names (player: a "
            "seat number).",
            "additionalProperties": {},
        },
        "errors": {
            "type": "object",
            "description": "Validation errors only: each field's messages "
            "(non_field_errors for the rest).",
            "additionalProperties": {},
        },
    },
    "required": ["code", "detail"],
}


def add_error_responses(result, generator, request, public):
    """drf-spectacular postprocessing hook: the Error component, and a "4XX"
    answer of that shape on every operation (what one has, all have)."""
    result.setdefault("components", {}).setdefault("schemas", {})["Error"] = (
        ERROR_SCHEMA
    )
    answer = {
        "description": "Refused: {code, detail} (validation errors add errors).",
        "content": {
            "application/json": {"schema": {"$ref": "#/components/schemas/Error"}}
        },
    }
    for operations in result.get("paths", {}).values():
        for operation in operations.values():
            if isinstance(operation, dict) and "responses" in operation:
                operation["responses"].setdefault("4XX", answer)
    return result
