"""The static files storage of production (settings/production.py)."""

from __future__ import annotations

from whitenoise.storage import CompressedManifestStaticFilesStorage


class StaticStorage(CompressedManifestStaticFilesStorage):
    """Hashed, compressed static files, with ES module imports hashed too.

    static/js is native ES modules that import each other by relative path
    (``import { h } from "./boards/common.js";``). Django rewrites those paths
    to the hashed names only when asked; without it a board served as
    ``duelo.<hash>.js`` would import the unhashed ``common.js``, which no cache
    busting reaches, and a page could load two copies of one module.
    """

    support_js_module_import_aggregation = True
