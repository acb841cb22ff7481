"""In CI (``CI`` set, as ``.ci/run`` is run) a skipped test fails with its reason
(tests/conftest.py): every test can run there, so a skip is a part of the suite gone unseen.
Elsewhere a skip stays a skip."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SKIPPING = """
import pytest

pytestmark = []


def test_skipped_in_its_body():
    pytest.skip("no widget here")


@pytest.mark.skipif(True, reason="no gadget here")
def test_skipped_by_its_mark():
    pass


@pytest.mark.xfail(reason="a known fault")
def test_expected_to_fail():
    assert False


def test_that_runs():
    pass
"""
SKIPPED_WHOLE = """
import pytest

pytest.skip("no gizmo here", allow_module_level=True)
"""


def run(tmp_path: Path, ci: bool) -> str:
    (tmp_path / "test_skipping.py").write_text(SKIPPING)
    (tmp_path / "test_skipped_whole.py").write_text(SKIPPED_WHOLE)
    env = {k: v for k, v in os.environ.items() if k != "CI"}
    if ci:
        env["CI"] = "true"
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "-n", "0", "-p", "tests.conftest",
         "-p", "no:cacheprovider", "-rs", "--continue-on-collection-errors", str(tmp_path)],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=120, check=False,
    )  # fmt: skip
    return done.stdout


def test_in_ci_a_skip_fails_with_its_reason(tmp_path: Path) -> None:
    out = run(tmp_path, ci=True)
    assert "1 failed, 1 passed, 1 xfailed, 2 errors" in out.splitlines()[-1], out
    for reason in ("no widget here", "no gadget here", "no gizmo here"):
        assert f"skipped, and CI runs every test: Skipped: {reason}" in out, out


def test_elsewhere_a_skip_is_a_skip(tmp_path: Path) -> None:
    out = run(tmp_path, ci=False)
    assert "1 passed, 3 skipped, 1 xfailed" in out.splitlines()[-1], out
    assert "CI runs every test" not in out, out
