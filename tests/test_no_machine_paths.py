"""No committed file names a path of a developer's or a builder's machine (a home folder, a
workplace checkout): such a path works on one machine and misleads everywhere else. Temporary
folders are made by the tests themselves (``tmp_path``); the Dockerfile's ``/tmp`` is inside
the image it builds."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
#: Built in pieces, so this file does not name them itself.
MACHINE_PATHS = re.compile("|".join(("/" + "work/", "/" + "home/", "/" + "Users/")))


def test_no_committed_file_names_a_machines_path() -> None:
    git = shutil.which("git")
    if git is None or not (ROOT / ".git").exists():
        pytest.skip("not a git checkout: the committed files are git's list")
    listed = subprocess.run(
        [git, "ls-files", "-z"], cwd=ROOT, check=True, capture_output=True, timeout=60
    ).stdout.decode()
    found = []
    for name in filter(None, listed.split("\0")):
        path = ROOT / name
        if not path.is_file():
            continue
        text = path.read_bytes().decode("utf-8", errors="ignore")
        found += [f"{name}: {m.group(0)}" for m in MACHINE_PATHS.finditer(text)]
    assert found == []
