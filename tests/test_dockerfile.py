"""Issue 17.4: the Dockerfile, read as Docker reads it (no engine runs here): an exact base image,
the dependencies in a layer that code changes leave alone, a non-root user, the data volume, a
HEALTHCHECK through ``python -m bot.process.health``, and the bot itself as PID 1 (exec form) so it
gets ``docker stop``'s SIGTERM."""

from __future__ import annotations

import json
import re
import subprocess
import sys
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def instructions() -> list[tuple[str, str]]:
    """(INSTRUCTION, arguments) in order, continuation lines joined, comments dropped."""
    text = (ROOT / "Dockerfile").read_text()
    lines = [line for line in text.splitlines() if not line.lstrip().startswith("#")]
    joined = re.sub(r"\\\n", " ", "\n".join(lines))
    found = []
    for line in joined.splitlines():
        if line.strip():
            word, _, rest = line.strip().partition(" ")
            found.append((word.upper(), " ".join(rest.split())))
    return found


def test_the_base_image_is_an_exact_release():
    (base,) = [args for word, args in instructions() if word == "FROM"]
    assert re.fullmatch(r"python:3\.11\.\d+-slim-bookworm(@sha256:[0-9a-f]{64})?", base), base


def test_dependencies_are_installed_before_the_code_is_copied():
    steps = instructions()
    copies = [(i, args) for i, (word, args) in enumerate(steps) if word == "COPY"]
    runs = [(i, args) for i, (word, args) in enumerate(steps) if word == "RUN"]
    deps = next(i for i, args in runs if "-r /tmp/requirements.txt" in args)
    # Before the dependency layer only pyproject.toml is copied; every package after it.
    assert [args for i, args in copies if i < deps] == ["pyproject.toml ./"]
    code = {args.split()[0] for i, args in copies if i > deps}
    assert {"engine", "bot", "cogs"} <= code
    project = next(i for i, args in runs if i > deps)
    assert "--no-deps ." in steps[project][1]
    assert project > max(i for i, _ in copies)


def test_the_dependency_list_the_image_installs_is_pyprojects(tmp_path: Path):
    """Run the dependency layer's own command on pyproject.toml."""
    run = next(args for word, args in instructions() if word == "RUN" and "tomllib" in args)
    command = re.search(r'python -c "(.*?)" >', run)
    assert command is not None, run
    (tmp_path / "pyproject.toml").write_bytes((ROOT / "pyproject.toml").read_bytes())
    listed = subprocess.run(
        [sys.executable, "-c", command.group(1)],  # as the shell passes it
        cwd=tmp_path,
        capture_output=True,
        text=True,
        check=True,
    ).stdout.splitlines()
    with (ROOT / "pyproject.toml").open("rb") as f:
        assert listed == tomllib.load(f)["project"]["dependencies"]


def test_it_runs_the_bot_as_pid_1_non_root_with_a_health_check():
    steps = dict(instructions())
    assert json.loads(steps["CMD"]) == ["python", "-m", "bot"]  # exec form: no shell in between
    assert steps["STOPSIGNAL"] == "SIGTERM"
    user = steps["USER"].split(":")
    assert user[0].isdigit() and int(user[0]) >= 1000
    assert json.loads(steps["VOLUME"]) == ["/app/data"]
    health = steps["HEALTHCHECK"]
    assert json.loads(health.split("CMD ", 1)[1]) == ["python", "-m", "bot.process.health"]
    assert "HEALTH_PORT=" in steps["ENV"]
