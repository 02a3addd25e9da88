"""The Ray example renders a tree of MIDI files on a local Ray instance with
two workers: its outputs are the CLI's, byte for byte; a corrupt file fails
alone, with the CLI's reason; a second run with --resume skips them all."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import cli_error, phrase, run_cli, wav_seconds

EXAMPLE = Path(__file__).resolve().parents[1] / "examples" / "render_corpus_ray.py"

pytest.importorskip("ray")


def corpus(root: Path) -> list:
    """Eight MIDI files in a tree of folders, at four tempi and two
    resolutions, and one corrupt file."""
    files = []
    for i in range(8):
        folder = root / ["", "etudes", "etudes/op10", "nocturnes"][i % 4]
        folder.mkdir(parents=True, exist_ok=True)
        files.append(
            phrase(folder / f"piece{i}.mid", ticks_per_beat=[480, 96][i % 2], tempo_us=400_000 + 50_000 * i)
        )
    (root / "nocturnes" / "broken.mid").write_bytes(b"MThd\x00\x00\x00\x06\x00\x01")
    return files


def run_example(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, str(EXAMPLE), *args],
        capture_output=True,
        text=True,
        timeout=600,
        env={**os.environ, "RAY_DISABLE_USAGE_STATS": "1"},
    )


def test_the_ray_example_renders_what_the_cli_renders(cli, tmp_path):
    source, out = tmp_path / "midi", tmp_path / "renders"
    files = corpus(source)
    summary_file = tmp_path / "summary.json"
    done = run_example(
        str(source), str(out), "--num-cpus", "2", "--max-tail", "2", "--set", "tuning:a4_hz=442",
        "--summary", str(summary_file),
    )
    assert done.returncode == 1, done.stderr  # one file failed
    summary = json.loads(summary_file.read_text())
    assert (summary["files"], summary["rendered"], summary["failed"], summary["skipped"]) == (9, 8, 1, 0)
    assert "8 rendered, 0 skipped, 1 failed" in done.stdout
    for midi in files:
        wav = out / midi.relative_to(source).with_suffix(".wav")
        expected = tmp_path / "cli.wav"
        finished = run_cli(
            cli, "render", str(midi), "-o", str(expected), "--max-tail", "2", "--set", "tuning:a4_hz=442"
        )
        assert finished.returncode == 0, finished.stderr
        assert wav.read_bytes() == expected.read_bytes(), wav
    # The corrupt file: the CLI's reason (for MIDI data rather than a file).
    reason = cli_error(cli, "render", str(source / "nocturnes" / "broken.mid"), "-o", str(tmp_path / "x.wav"))
    failure = summary["failures"][0]
    assert failure["input"] == "nocturnes/broken.mid"
    assert failure["reason"] == reason.replace(
        str(source / "nocturnes" / "broken.mid"), "the MIDI data"
    )
    hours = sum(wav_seconds(wav) for wav in out.rglob("*.wav")) / 3600
    assert abs(summary["hours_of_audio"] - hours) < 1e-9

    again = run_example(str(source), str(out), "--num-cpus", "2", "--resume", "--summary", str(summary_file))
    summary = json.loads(summary_file.read_text())
    assert (summary["rendered"], summary["skipped"], summary["failed"]) == (0, 8, 1), again.stderr


def test_object_store_outputs_are_the_cli_files(cli, tmp_path):
    """An output URI goes through pyarrow's filesystems: here `file://`,
    the local one, standing in for `s3://` or `gs://`; what lands there is
    the CLI's file, and `--resume` sees it."""
    pytest.importorskip("pyarrow")
    sys.path.insert(0, str(EXAMPLE.parent))
    try:
        import render_corpus_ray as example
    finally:
        sys.path.remove(str(EXAMPLE.parent))
    import orchard

    midi = phrase(tmp_path / "piece.mid")
    store = tmp_path / "store"
    output = example.Output(store.as_uri())
    assert output.remote
    path = output.path_of(example.PurePosixPath("sub/piece.mid"))
    assert not output.exists(path)
    output.write(path, orchard.render(midi.read_bytes(), max_tail=1.0), 48_000, "int24")
    assert output.exists(path)
    expected = tmp_path / "cli.wav"
    done = run_cli(cli, "render", str(midi), "-o", str(expected), "--max-tail", "1")
    assert done.returncode == 0, done.stderr
    assert (store / "sub" / "piece.wav").read_bytes() == expected.read_bytes()
