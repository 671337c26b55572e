from django.urls import path
from django.views.i18n import JavaScriptCatalog

from languages import views

app_name = "languages"

urlpatterns = [
    path("i18n/setlang/", views.set_language, name="set_language"),
    # The "djangojs" catalogue of the request's language (static/js/i18n.js).
    path("jsi18n/", JavaScriptCatalog.as_view(), name="javascript-catalog"),
]
