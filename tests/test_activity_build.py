"""The web table's build committed in bot/activity/static/ is exactly what web/ builds.

The bot serves the built client with no Node at run time, so the build is committed; this
test rebuilds it from web/ (esbuild's output is deterministic) into a temporary folder and
compares every file byte for byte, and checks the first load's size over the wire.
"""

from __future__ import annotations

import gzip
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
WEB = ROOT / "web"
STATIC = ROOT / "bot" / "activity" / "static"
#: Issue 37: the client's first load under 300 KB compressed.
FIRST_LOAD_BUDGET = 300_000


def files(folder: Path) -> dict[str, bytes]:
    return {
        str(path.relative_to(folder)): path.read_bytes()
        for path in sorted(folder.rglob("*"))
        if path.is_file()
    }


def test_the_committed_build_is_what_web_builds(tmp_path: Path) -> None:
    node = shutil.which("node")
    if node is None:
        pytest.skip("Node.js is not installed: this check rebuilds web/ (CI installs Node.js)")
    if not (WEB / "node_modules" / "esbuild").is_dir():
        pytest.fail(
            "web/node_modules is missing: run `npm ci` in web/ (the README's test command does)"
        )
    subprocess.run(
        [node, "build.mjs", "--outdir", str(tmp_path)],
        cwd=WEB,
        check=True,
        capture_output=True,
        timeout=120,
    )
    built, committed = files(tmp_path), files(STATIC)
    assert sorted(built) == sorted(committed), "run `npm run build` in web/ and commit the result"
    for name, content in built.items():
        assert committed[name] == content, f"{name} differs: run `npm run build` in web/"


#: The precompressed copies the build writes beside each asset (issue 46, item 16).
COPIES = (".gz", ".br")


def test_each_asset_has_its_precompressed_copies() -> None:
    assets = [p for p in (STATIC / "assets").iterdir() if p.suffix not in COPIES]
    assert assets
    for path in assets:
        gz = path.with_name(path.name + ".gz").read_bytes()
        assert gzip.decompress(gz) == path.read_bytes(), path.name
        assert len(gz) < len(path.read_bytes()) / 2, path.name
        br = path.with_name(path.name + ".br").read_bytes()
        assert 0 < len(br) < len(gz) * 1.05, path.name  # brotli: no bigger than gzip
    # No copy without its asset.
    for path in (STATIC / "assets").iterdir():
        if path.suffix in COPIES:
            assert path.with_suffix("").is_file(), path.name


def test_the_first_load_is_small() -> None:
    index = (STATIC / "index.html").read_text()
    load = [
        STATIC / "index.html",
        *(p for p in (STATIC / "assets").iterdir() if p.suffix not in COPIES),
    ]
    assert all(f"assets/{path.name}" in index for path in load[1:])
    compressed = sum(len(gzip.compress(path.read_bytes(), 9)) for path in load)
    assert compressed < FIRST_LOAD_BUDGET, f"{compressed} bytes gzipped"


#: What only Discord's SDK mock brings into a bundle (a method of DiscordSDKMock's).
MOCK_MARK = b"_updateCommandMocks"


def test_the_production_build_has_no_sdk_mock(mock_static: Path) -> None:
    """The mock (web/src/mock.ts) is only in the tests' build (`node build.mjs --mock`)."""
    assert not any(MOCK_MARK in content for content in files(STATIC).values())
    assert any(MOCK_MARK in content for content in files(mock_static).values())
