"""Nothing leaks: a thousand renders, and a thousand synthesisers made,
played and dropped, leave the process's resident memory where it was."""

from __future__ import annotations

import gc

import mido

import orchard

NOTE = [
    mido.Message("note_on", note=72, velocity=100, time=0.0),
    mido.Message("note_off", note=72, velocity=64, time=0.25),
]


def resident_bytes() -> int:
    """The process's resident set size, bytes (Linux)."""
    with open("/proc/self/statm") as statm:
        pages = int(statm.read().split()[1])
    import os

    return pages * os.sysconf("SC_PAGE_SIZE")


def growth_over(runs: int, work) -> int:
    """Resident bytes gained over `runs` calls of `work`, after 100 calls
    to settle the allocator."""
    for _ in range(100):
        work()
    gc.collect()
    before = resident_bytes()
    for _ in range(runs):
        work()
    gc.collect()
    return resident_bytes() - before


def test_a_thousand_renders_leak_nothing():
    bar = orchard.instrument("mallet-bar")
    audio = orchard.render(NOTE, bar, max_tail=0.1)
    # Each render returns 0.35 s of stereo float32: ~130 kB, 130 MB over a
    # thousand if the arrays or their buffers were kept.
    assert audio.nbytes > 100_000
    grown = growth_over(1000, lambda: orchard.render(NOTE, bar, max_tail=0.1))
    assert grown < 8 << 20, f"{grown / 2**20:.1f} MiB more after 1000 renders"


def test_a_thousand_synthesisers_leak_nothing():
    def play():
        synth = orchard.Synth("mallet-bar")
        synth.note_on(72, 100)
        synth.set_property("tuning:a4_hz", 442.0)
        return synth.process(16_000)

    grown = growth_over(1000, play)
    assert grown < 8 << 20, f"{grown / 2**20:.1f} MiB more after 1000 synthesisers"
