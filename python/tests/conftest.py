"""Shared paths of the Python package's tests, which run against the installed package (its
`tilekit` command included) from the checkout's root."""

from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
CASE = ROOT / "models" / "sliding" / "neos_case_study.txt"


@pytest.fixture(autouse=True)
def _at_root(monkeypatch: pytest.MonkeyPatch) -> None:
    # The documented examples name the checkout's files relative to its root.
    monkeypatch.chdir(ROOT)
