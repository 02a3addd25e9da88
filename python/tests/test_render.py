"""`orchard.render` against the command line: the same samples, bit for bit,
whatever the performance is given as."""

from __future__ import annotations

from pathlib import Path

import mido
import numpy as np
import pytest

import orchard
from conftest import cli_render


@pytest.mark.parametrize(
    "preset, rate, settings, seed",
    [
        ("grand-piano", 48_000, {}, None),
        ("grand-piano", 44_100, {"tuning:a4_hz": 442.0, "action:restitution": 0.55}, 7),
        # Below 44.1 kHz the instrument runs at a multiple of the rate.
        ("grand-piano", 22_050, {}, None),
        ("mallet-bar", 96_000, {}, 3),
    ],
)
def test_render_equals_the_cli_bit_for_bit(cli, tmp_path, song, preset, rate, settings, seed):
    args = ["--preset", preset, "--sample-rate", str(rate), "--max-tail", "3"]
    for path, value in settings.items():
        args += ["--set", f"{path}={value!r}"]
    if seed is not None:
        args += ["--seed", str(seed)]
    expected = cli_render(cli, tmp_path, song, *args)
    got = orchard.render(song, preset, rate, set=settings, seed=seed, max_tail=3.0)
    assert got.dtype == np.float32 and got.shape == expected.shape
    assert np.abs(got).max() > 1e-3, "silent"
    assert np.array_equal(got, expected)


def test_every_form_of_a_performance_renders_the_same(song):
    """A path, its bytes, a mido.MidiFile and mido's messages (delta seconds)
    are one performance."""
    expected = orchard.render(song, max_tail=2.0)
    file = mido.MidiFile(song)
    for form in [str(song), song.read_bytes(), file, list(file), orchard.score(song)]:
        got = orchard.render(form, max_tail=2.0)
        assert np.array_equal(got, expected), type(form)


def test_tuning_files_and_temperaments_reach_the_instrument(cli, tmp_path, song):
    """`temperament=` and Scala files are the CLI's `--temperament`,
    `--tuning` and `--keymap`."""
    tunings = Path(__file__).resolve().parents[2] / "tunings"
    scale, keymap = tunings / "19-edo.scl", tunings / "19-edo.kbm"
    expected = cli_render(
        cli, tmp_path, song, "--tuning", str(scale), "--keymap", str(keymap), "--max-tail", "1"
    )
    got = orchard.render(song, tuning=scale, keymap=keymap, max_tail=1.0)
    assert np.array_equal(got, expected)
    meantone = orchard.render(song, temperament="quarter-comma-meantone:D", max_tail=1.0)
    plain = orchard.render(song, max_tail=1.0)
    # The tail ends where the sound falls silent (at most a second on), which
    # a temperament may move: the two are compared over the shorter.
    both = min(len(meantone), len(plain))
    assert both > 0.5 * max(len(meantone), len(plain))
    assert not np.array_equal(meantone[:both], plain[:both])


def test_write_wav_writes_the_cli_file_byte_for_byte(cli, tmp_path, song):
    for format in ["int24", "float32"]:
        cli_file = tmp_path / f"cli-{format}.wav"
        done = __import__("subprocess").run(
            [str(cli), "render", str(song), "-o", str(cli_file), "--format", format],
            capture_output=True,
        )
        assert done.returncode == 0, done.stderr
        ours = tmp_path / f"py-{format}.wav"
        summary = orchard.write_wav(ours, orchard.render(song), 48_000, format)
        assert ours.read_bytes() == cli_file.read_bytes(), format
        assert 1e-3 < summary["peak"] < 1.0 and summary["over_full_scale"] == 0


def test_the_gil_is_released_while_rendering(song):
    """Another Python thread runs while a render is under way."""
    import threading

    done = threading.Event()
    ticks = 0

    def work():
        orchard.render(song, max_tail=8.0)
        done.set()

    worker = threading.Thread(target=work)
    worker.start()
    while not done.is_set():
        ticks += 1
        done.wait(0.001)
    worker.join()
    # Held, the GIL would let this loop run only at the render's signal
    # checks, one a second of audio: about ten times.
    assert ticks > 50, ticks
