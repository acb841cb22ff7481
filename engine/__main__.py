"""Command line: ``python -m engine simulate|play|duel ...``."""

from __future__ import annotations

import sys

from .cli import main

sys.exit(main(sys.argv[1:]))
