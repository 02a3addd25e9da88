"""`orchard.analyze_note`, `orchard.presets` and `orchard.property_paths`
give the command line's figures."""

from __future__ import annotations

import math

import orchard
from conftest import run_cli


def test_analyze_note_reports_the_cli_figures(cli):
    done = run_cli(cli, "analyze", "--note", "60", "--velocity", "90", "--duration", "2")
    assert done.returncode == 0, done.stderr
    figures = orchard.analyze_note(60, 90, duration=2.0)
    assert figures["report"] == done.stdout.rstrip("\n")
    # The figures behind the text, as numbers: physically sound ones.
    strike = figures["strike"]
    assert 1.0e-3 < strike["contact_duration_s"] < 4.0e-3
    assert strike["peak_force_n"] > 5.0
    assert f"peak force {strike['peak_force_n']:.1f} N" in figures["report"]
    assert figures["partials_measured"] == "fitted"
    assert abs(figures["tuning_cents"]) < 2.0
    assert abs(figures["b"] / figures["preset_b"] - 1.0) < 0.1
    first = figures["partials"][0]
    assert first["number"] == 1 and abs(first["frequency_hz"] - 261.6) < 1.0
    assert first["level_db"] <= 0.0 and first["t60_early_s"] > 0.5
    assert figures["t60_early_s"] > 0.5


def test_a_bar_is_measured_without_a_string_fit(cli):
    done = run_cli(
        cli, "analyze", "--note", "72", "--preset", "mallet-bar", "--duration", "1"
    )
    figures = orchard.analyze_note(72, preset="mallet-bar", duration=1.0)
    assert figures["report"] == done.stdout.rstrip("\n")
    assert figures["partials_measured"] == "not a string" and figures["b"] is None
    assert figures["strike"] is None


def test_presets_and_paths_are_the_cli_lists(cli):
    listed = run_cli(cli, "presets").stdout.splitlines()
    presets = orchard.presets()
    assert [line.split()[0] for line in listed] == list(presets)
    assert all(presets[line.split()[0]] in line for line in listed)
    lines = run_cli(cli, "presets", "--paths", "grand-piano").stdout.splitlines()
    paths = orchard.property_paths("grand-piano")
    assert len(paths) == len(lines) > 100
    for line, (path, value) in zip(lines, paths.items()):
        name, text = line.split(" = ")
        assert name == path
        assert float(text) == value or (math.isnan(value) and text == "NaN")
    assert paths["tuning:a4_hz"] == 440.0
    assert orchard.property_paths(orchard.instrument(set={"tuning:a4_hz": 442}))[
        "tuning:a4_hz"
    ] == 442.0


def test_analyze_note_refuses_what_the_cli_refuses(cli):
    import pytest

    for key, velocity in [(60, 0), (60, 128), (10, 80)]:
        done = run_cli(cli, "analyze", "--note", str(key), "--velocity", str(velocity))
        reason = done.stderr.strip().removeprefix("orchard: error: ")
        with pytest.raises(orchard.OrchardError) as raised:
            orchard.analyze_note(key, velocity)
        assert str(raised.value) == reason
    with pytest.raises(orchard.OrchardError, match="velocity 1000 must be 1 to 127"):
        orchard.analyze_note(60, 1000)
    with pytest.raises(orchard.OrchardError, match="key 300 must be 0 to 127"):
        orchard.analyze_note(300)
