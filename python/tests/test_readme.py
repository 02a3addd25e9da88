"""The documentation's Python examples run as written: every ```python block
of the README and of the pages of docs/ (the pages whose commands
.ci/readme_commands.sh runs), in order, in a folder holding the `song.mid`
their commands render."""

from __future__ import annotations

import re

from conftest import REPOSITORY, phrase


def documented_pages() -> list:
    """README.md, then every page of docs/, as paths."""
    return [REPOSITORY / "README.md", *sorted((REPOSITORY / "docs").glob("*.md"))]


def python_blocks() -> list:
    """(page name, block) for every Python block of the pages, in order."""
    return [
        (page.relative_to(REPOSITORY).as_posix(), block)
        for page in documented_pages()
        for block in re.findall(
            r"^```python\n(.*?)^```$", page.read_text(), flags=re.M | re.S
        )
    ]


def test_the_documented_python_examples_run(tmp_path, monkeypatch):
    blocks = python_blocks()
    assert blocks, "the documentation shows no Python"
    assert any(page == "docs/python.md" for page, _ in blocks), (
        "docs/python.md, the Python package's page, shows no Python"
    )
    monkeypatch.chdir(tmp_path)
    phrase(tmp_path / "song.mid")
    for page, block in blocks:
        exec(compile(block, page, "exec"), {})
    assert (tmp_path / "song-442.wav").stat().st_size > 100_000
