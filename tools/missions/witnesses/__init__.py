"""One witness module per mission: numerical checks of every target's claim (see witness.py).

A workspace keeps its own witness modules in ``<root>/witnesses/``; :func:`add_workspace` puts
that folder on this package's path, so they are imported as ``missions.witnesses.<name>``
beside the bundled ones (which win a name clash).
"""

from __future__ import annotations

import importlib
import os
import sys
from pathlib import Path

#: The workspace folder of witness modules, relative to the root.
WORKSPACE_FOLDER = "witnesses"

_added: str | None = None


def add_workspace(root: Path) -> None:
    """Make ``root``'s witness folder (and no other workspace's) part of this package.

    One process may analyse several workspaces (a library user, the test suite): modules a
    previous workspace's folder provided are forgotten, so a name never resolves to another
    workspace's file, and the import system re-reads the folders (files may be new).
    """
    global _added
    folder = str((root / WORKSPACE_FOLDER).resolve())
    if _added is not None and _added != folder:
        if _added in __path__:
            __path__.remove(_added)
        for name, module in list(sys.modules.items()):
            origin = getattr(module, "__file__", None) or ""
            if name.startswith(__name__ + ".") and origin.startswith(_added + os.sep):
                del sys.modules[name]
        _added = None
    if _added is None and os.path.isdir(folder):
        __path__.append(folder)
        _added = folder
    importlib.invalidate_caches()
