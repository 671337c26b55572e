from django import template

from community.models import ReportReason

register = template.Library()


@register.simple_tag
def report_reasons() -> list[tuple[str, str]]:
    """(value, label) of the reasons a report may give."""
    return list(ReportReason.choices)
