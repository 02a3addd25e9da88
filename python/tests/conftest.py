"""Shared fixtures: the command-line renderer to compare with, MIDI files
made for the tests, and a reader for the WAV files the CLI writes."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path
from typing import List

import mido
import numpy as np
import pytest

REPOSITORY = Path(__file__).resolve().parents[2]


def _cli_path() -> Path:
    """The `orchard` binary: $ORCHARD_CLI, else the workspace's release
    build (built here if missing)."""
    if "ORCHARD_CLI" in os.environ:
        return Path(os.environ["ORCHARD_CLI"])
    target = Path(os.environ.get("CARGO_TARGET_DIR", REPOSITORY / "target"))
    binary = target / "release" / "orchard"
    if not binary.exists():
        subprocess.run(
            ["cargo", "build", "--release", "-p", "orchard-cli", "--quiet"],
            cwd=REPOSITORY,
            check=True,
        )
    return binary


@pytest.fixture(scope="session")
def cli() -> Path:
    return _cli_path()


def run_cli(cli: Path, *args: str) -> subprocess.CompletedProcess:
    """Runs the CLI; returns the finished process (output as text)."""
    return subprocess.run(
        [str(cli), *args], capture_output=True, text=True, timeout=600
    )


def cli_error(cli: Path, *args: str) -> str:
    """The one-line reason the CLI gives for refusing `args`."""
    done = run_cli(cli, *args)
    assert done.returncode == 1, (done.returncode, done.stdout, done.stderr)
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1, done.stderr
    prefix = "orchard: error: "
    assert lines[0].startswith(prefix), lines[0]
    return lines[0][len(prefix):]


def wav_chunks(path: Path) -> dict:
    """A WAV file's chunks by name (`fmt `, `data`, ...), as RIFF lays them
    out (the CLI writes a JUNK chunk before `data`)."""
    data = path.read_bytes()
    assert data[:4] == b"RIFF" and data[8:12] == b"WAVE", data[:12]
    chunks, at = {}, 12
    while at + 8 <= len(data):
        name, size = data[at : at + 4], int.from_bytes(data[at + 4 : at + 8], "little")
        chunks[name.decode("ascii")] = data[at + 8 : at + 8 + size]
        at += 8 + size + (size & 1)
    return chunks


def wav_seconds(path: Path) -> float:
    """How long a WAV file plays, s."""
    chunks = wav_chunks(path)
    fmt = chunks["fmt "]
    rate = int.from_bytes(fmt[4:8], "little")
    frame_bytes = int.from_bytes(fmt[12:14], "little")
    return len(chunks["data"]) / frame_bytes / rate


def read_wav(path: Path) -> np.ndarray:
    """A stereo float32 WAV file's samples, shape (frames, 2)."""
    chunks = wav_chunks(path)
    fmt = chunks["fmt "]
    format_tag = int.from_bytes(fmt[:2], "little")
    channels = int.from_bytes(fmt[2:4], "little")
    bits = int.from_bytes(fmt[14:16], "little")
    assert (format_tag, channels, bits) == (3, 2, 32), (format_tag, channels, bits)
    return np.frombuffer(chunks["data"], dtype="<f4").reshape(-1, 2)


def cli_render(cli: Path, tmp: Path, midi: Path, *args: str) -> np.ndarray:
    """What `orchard render MIDI --format float32 ARGS` writes."""
    out = tmp / (midi.stem + "-cli.wav")
    done = run_cli(cli, "render", str(midi), "-o", str(out), "--format", "float32", *args)
    assert done.returncode == 0, done.stderr
    return read_wav(out)


def phrase(path: Path, ticks_per_beat: int = 480, tempo_us: int = 600_000) -> Path:
    """A short performance as a type-1 file: a chord under the sustain pedal
    (pressed half way, then fully), a run, una corda, a repeated key, a tempo
    change, releases with their own velocities, and a controller Orchard
    ignores."""
    file = mido.MidiFile(type=1, ticks_per_beat=ticks_per_beat)
    tempo = mido.MidiTrack()
    tempo.append(mido.MetaMessage("set_tempo", tempo=tempo_us, time=0))
    tempo.append(mido.MetaMessage("set_tempo", tempo=tempo_us // 2, time=3 * ticks_per_beat))
    notes = mido.MidiTrack()
    t = ticks_per_beat // 4
    events: List[mido.Message] = [
        mido.Message("control_change", control=64, value=64, time=0),
        mido.Message("note_on", note=48, velocity=70, time=0),
        mido.Message("note_on", note=55, velocity=80, time=7),
        mido.Message("note_on", note=64, velocity=96, time=5),
        mido.Message("control_change", control=64, value=127, time=t),
        mido.Message("control_change", control=1, value=90, time=3),
        mido.Message("note_off", note=48, velocity=30, time=t),
        mido.Message("note_on", note=67, velocity=60, time=t),
        mido.Message("note_on", note=72, velocity=110, time=t),
        mido.Message("control_change", control=67, value=127, time=t),
        mido.Message("note_on", note=76, velocity=40, time=t),
        mido.Message("note_on", note=76, velocity=0, time=t // 2),
        mido.Message("note_on", note=76, velocity=90, time=t // 3),
        mido.Message("control_change", control=64, value=0, time=2 * t),
        mido.Message("note_off", note=55, velocity=100, time=0),
        mido.Message("note_off", note=64, velocity=64, time=t),
        mido.Message("note_off", note=67, velocity=64, time=0),
        mido.Message("note_off", note=72, velocity=10, time=t),
        mido.Message("note_off", note=76, velocity=64, time=t),
    ]
    notes.extend(events)
    file.tracks.extend([tempo, notes])
    file.save(path)
    return path


@pytest.fixture
def song(tmp_path: Path) -> Path:
    return phrase(tmp_path / "phrase.mid")
