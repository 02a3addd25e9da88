"""Checks the relative links of Markdown files: each `[text](path#fragment)`
must name a file or folder that exists and, with a fragment, a heading of
that Markdown file (as GitHub makes its anchors). Links to other sites
(`https:`, `mailto:`) and links inside code are not checked.

Usage: python3 .ci/check_links.py FILE.md ... (paths relative to the current
folder). Prints one line per broken link; exits 1 if there is any.
"""

from __future__ import annotations

import re
import sys
import unicodedata
from functools import cache
from pathlib import Path

FENCE = re.compile(r"^```.*?^```", flags=re.M | re.S)
INLINE_CODE = re.compile(r"`[^`\n]*`")
LINK = re.compile(r"\]\(([^)\s]+)\)")
HEADING = re.compile(r"#{1,6} +(.*?)(?: +#+)? *$")
# A heading's text as GitHub reads it: code marks, emphasis and links dropped.
MARKUP = re.compile(r"`|\*\*|\[([^]]*)\]\([^)]*\)")


def slug(heading: str) -> str:
    """GitHub's anchor of a heading: lower case, letters, digits, spaces,
    hyphens and underscores kept, spaces made hyphens."""
    text = MARKUP.sub(lambda m: m.group(1) or "", heading).lower()
    kept = "".join(
        c for c in text if c in " -_" or unicodedata.category(c)[0] in "LN"
    )
    return kept.replace(" ", "-")


@cache
def anchors(path: Path) -> frozenset:
    """The anchors of every heading of a Markdown file (a repeated heading's
    second anchor ends in `-1`, and so on)."""
    found, seen = set(), {}
    for line in FENCE.sub("", path.read_text()).splitlines():
        match = HEADING.match(line)
        if not match:
            continue
        base = slug(match.group(1))
        count = seen.get(base, 0)
        seen[base] = count + 1
        found.add(base if count == 0 else f"{base}-{count}")
    return frozenset(found)


def broken_links(page: Path) -> list:
    """`(target, problem)` for every broken relative link of `page`."""
    text = INLINE_CODE.sub("", FENCE.sub("", page.read_text()))
    broken = []
    for target in LINK.findall(text):
        if re.match(r"[a-z][a-z0-9+.-]*:", target):
            continue
        path, _, fragment = target.partition("#")
        linked = (page.parent / path) if path else page
        if not linked.exists():
            broken.append((target, "no such file"))
        elif fragment and linked.suffix == ".md" and fragment not in anchors(linked):
            broken.append((target, "no such heading"))
    return broken


def main(pages: list) -> int:
    failures = 0
    for name in pages:
        for target, problem in broken_links(Path(name)):
            failures += 1
            print(f"  {name}: ({target}): {problem}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
