"""The web table as the browser tests and the frame bench load it: built with Discord's SDK
mock (``node build.mjs --mock``, ``?mock=<user id>``), which the production build committed in
``bot/activity/static/`` leaves out (web/src/mock.ts)."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

WEB = Path(__file__).resolve().parents[1] / "web"


class NoNode(Exception):
    """Node.js is not installed: the tests' client cannot be built (the message says so)."""


def build_with_mock(outdir: Path) -> Path:
    """The client with the SDK mock, built into ``outdir`` (index.html and assets/); that
    folder. Raises NoNode without Node.js; a missing web/node_modules is a setup fault."""
    node = shutil.which("node")
    if node is None:
        raise NoNode("the web table's tests build it with Node.js (CI installs it)")
    if not (WEB / "node_modules" / "esbuild").is_dir():
        raise RuntimeError("web/node_modules is missing: run `npm ci` in web/")
    subprocess.run(
        [node, "build.mjs", "--mock", "--outdir", str(outdir)],
        cwd=WEB,
        check=True,
        capture_output=True,
        timeout=120,
    )
    return outdir
