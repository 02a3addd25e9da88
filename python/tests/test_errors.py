"""Bad input raises `orchard.OrchardError` with the command line's one-line
reason, word for word."""

from __future__ import annotations

import pytest

import orchard
from conftest import cli_error

REGRESSIONS = __import__("pathlib").Path(__file__).resolve().parents[2] / "fuzz" / "regressions"


def bad_midi_files(tmp_path):
    garbage = tmp_path / "garbage.mid"
    garbage.write_bytes(b"this is not a MIDI file at all")
    truncated = tmp_path / "truncated.mid"
    truncated.write_bytes(b"MThd\x00\x00\x00\x06\x00\x01\x00\x02\x01\xe0MTrk\x00\x00\x01\x00\x90")
    return [
        garbage,
        truncated,
        tmp_path / "missing.mid",
        REGRESSIONS / "midi_file" / "zero-ticks-per-quarter.mid",
        REGRESSIONS / "midi_file" / "smpte-minus-128-fps.mid",
    ]


def test_bad_midi_files_give_the_cli_reason(cli, tmp_path):
    for midi in bad_midi_files(tmp_path):
        expected = cli_error(cli, "render", str(midi), "-o", str(tmp_path / "out.wav"))
        with pytest.raises(orchard.OrchardError) as raised:
            orchard.render(midi)
        assert str(raised.value) == expected, midi.name
        assert "\n" not in expected


def test_bad_presets_and_settings_give_the_cli_reason(cli, tmp_path, song):
    broken = tmp_path / "broken.toml"
    broken.write_text('name = "Broken"\n[tuning\na4_hz = 440\n')
    absurd = tmp_path / "absurd.toml"
    absurd.write_text('name = "Absurd"\nfamily = "grand-piano"\n[tuning]\na4_hz = -5\n')
    cases = [
        (["--preset", "no-such-instrument"], dict(preset="no-such-instrument")),
        (["--preset", str(broken)], dict(preset=broken)),
        (["--preset", str(absurd)], dict(preset=absurd)),
        (["--set", "tuning:nope=1"], dict(set={"tuning:nope": 1.0})),
        (["--set", "hammers/anchor/60:felt_stiffness=-1"], dict(set={"hammers/anchor/60:felt_stiffness": -1.0})),
        (["--set", "tuning:a4_hz=inf"], dict(set={"tuning:a4_hz": float("inf")})),
        (["--temperament", "werckmeister-vii"], dict(temperament="werckmeister-vii")),
        (["--tuning", str(tmp_path / "none.scl")], dict(tuning=tmp_path / "none.scl")),
    ]
    for args, keywords in cases:
        expected = cli_error(cli, "render", str(song), "-o", str(tmp_path / "out.wav"), *args)
        with pytest.raises(orchard.OrchardError) as raised:
            orchard.render(song, **keywords)
        assert str(raised.value) == expected, args


def test_absurd_numbers_are_refused_not_rendered(song):
    with pytest.raises(orchard.OrchardError, match="max_tail 1e300 must be between 0 and 600 s"):
        orchard.render(song, max_tail=1e300)
    with pytest.raises(orchard.OrchardError, match="longer than --max-duration 1 s"):
        orchard.render(song, max_duration=1.0)
    with pytest.raises(orchard.OrchardError, match="sample rate"):
        orchard.render(song, sample_rate=500)
    with pytest.raises(orchard.OrchardError, match="no MIDI message"):
        orchard.render([_Broken()])


class _Broken:
    """A message whose bytes are no MIDI message."""

    time = 0.0

    def bytes(self):
        return [0x90, 60]
