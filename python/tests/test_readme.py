"""The README's Python examples run as written (in a folder holding the
`song.mid` its commands render)."""

from __future__ import annotations

import re

from conftest import REPOSITORY, phrase


def python_blocks() -> list:
    readme = (REPOSITORY / "README.md").read_text()
    return re.findall(r"^```python\n(.*?)^```$", readme, flags=re.M | re.S)


def test_the_readme_python_examples_run(tmp_path, monkeypatch):
    blocks = python_blocks()
    assert blocks, "the README shows no Python"
    monkeypatch.chdir(tmp_path)
    phrase(tmp_path / "song.mid")
    for block in blocks:
        exec(compile(block, "README.md", "exec"), {})
    assert (tmp_path / "song-442.wav").stat().st_size > 100_000
