"""`orchard.Synth`, block by block, against the whole-file render; live
property edits; strike reports."""

from __future__ import annotations

import mido
import numpy as np
import pytest

import orchard


def timed_messages(song):
    """(frame, raw message) of the song's messages at 48 kHz, frames rounded
    as the renderer rounds them."""
    now = 0.0
    timed = []
    for message in mido.MidiFile(song):
        now += message.time
        if not message.is_meta:
            timed.append((round(now * 48_000), bytes(message.bytes())))
    return timed


def play_in_blocks(synth, timed, frames, block_sizes):
    """Plays `timed` on `synth` for `frames` frames, in blocks cut at every
    event and otherwise of the sizes `block_sizes` yields."""
    out = []
    done = 0
    pending = list(timed)
    while done < frames:
        while pending and pending[0][0] <= done:
            synth.send(pending.pop(0)[1])
        limit = pending[0][0] if pending else frames
        n = min(next(block_sizes), limit - done, frames - done)
        out.append(synth.process(n))
        done += n
    return np.concatenate(out)


def random_sizes(seed):
    rng = np.random.default_rng(seed)
    while True:
        yield int(rng.integers(1, 700))


def test_block_by_block_equals_the_whole_file(song):
    whole = orchard.render(song, max_tail=2.0)
    synth = orchard.Synth()
    assert synth.latency_frames == 0
    got = play_in_blocks(synth, timed_messages(song), len(whole), random_sizes(1))
    assert got.shape == whole.shape
    assert np.array_equal(got, whole)
    assert synth.frames_rendered == len(whole)


def test_below_44k_blocks_lag_by_the_latency_and_are_otherwise_the_same(song):
    """At 22.05 kHz the whole-file render looks ahead by the decimating
    filter's delay; played live, the output lags by exactly that."""
    rate = 22_050
    whole = orchard.render(song, sample_rate=rate, max_tail=1.0)
    synth = orchard.Synth(sample_rate=rate)
    lag = synth.latency_frames
    assert 0 < lag < rate // 100
    timed = [(round(frame * rate / 48_000), raw) for frame, raw in timed_messages(song)]
    # Frames are rounded from seconds at the render's rate: recompute them.
    now, timed = 0.0, []
    for message in mido.MidiFile(song):
        now += message.time
        if not message.is_meta:
            timed.append((round(now * rate), bytes(message.bytes())))
    got = play_in_blocks(synth, timed, len(whole) + lag, iter(lambda: 256, None))
    assert np.array_equal(got[lag:], whole)


def test_note_on_and_control_change_are_the_raw_messages():
    by_name, by_bytes = orchard.Synth(), orchard.Synth()
    by_name.control_change(64, 127)
    by_name.note_on(60, 90)
    by_bytes.send(mido.Message("control_change", control=64, value=127))
    by_bytes.send(bytes([0x90, 60, 90]))
    a, b = by_name.process(4_800), by_bytes.process(4_800)
    assert np.abs(a).max() > 1e-3 and np.array_equal(a, b)
    by_name.note_off(60)
    by_bytes.send(bytes([0x80, 60, 64]))
    assert np.array_equal(by_name.process(2_400), by_bytes.process(2_400))


def peak_hz(block, rate, low, high):
    """The strongest frequency between `low` and `high` Hz in the left channel."""
    window = np.hanning(len(block))
    spectrum = np.abs(np.fft.rfft(block[:, 0] * window, n=8 * len(block)))
    freqs = np.fft.rfftfreq(8 * len(block), 1 / rate)
    band = (freqs > low) & (freqs < high)
    return freqs[band][np.argmax(spectrum[band])]


def test_a_property_edit_retunes_a_sounding_note():
    """A4 held; `tuning:a4_hz` 440 -> 466.16 (a semitone up): the same
    strings go on sounding, a semitone higher."""
    synth = orchard.Synth()
    synth.note_on(69, 100)
    before = synth.process(24_000)[4_800:]
    assert abs(peak_hz(before, 48_000, 400, 500) - 440.0) < 1.5
    synth.set_property("tuning:a4_hz", 466.16)
    assert synth.get_property("tuning:a4_hz") == 466.16
    after = synth.process(24_000)[4_800:]
    assert abs(peak_hz(after, 48_000, 400, 500) - 466.16) < 1.5
    # Carried on, not struck again: the level falls across the edit.
    rms = lambda x: float(np.sqrt(np.mean(x**2)))
    assert rms(after) < rms(before)


def test_an_edit_on_every_block_is_taken_and_the_synth_plays_on():
    """A4 held; `tuning:a4_hz` edited before each of 400 blocks of 128
    frames (an edit every 2.7 ms, faster than one instrument can take over
    from the one before): no block is refused, the note sounds on, and the
    last edit sounds once the edits stop."""
    synth = orchard.Synth()
    synth.note_on(69, 100)
    blocks = []
    for i in range(400):
        synth.set_property("tuning:a4_hz", 440.0 + 0.05 * (i % 20))
        blocks.append(synth.process(128))
    synth.set_property("tuning:a4_hz", 466.16)
    blocks.append(synth.process(128))
    played = np.concatenate(blocks)
    assert played.shape == (401 * 128, 2)
    assert np.all(np.isfinite(played))
    rms = lambda x: float(np.sqrt(np.mean(x**2)))
    # Still sounding at the end of the edits, as loud as an A4 held as long
    # without them (within 10 %): the edits carried the note on.
    alone = orchard.Synth()
    alone.note_on(69, 100)
    unedited = np.concatenate([alone.process(128) for _ in range(401)])
    assert abs(rms(played[-4_800:]) / rms(unedited[-4_800:]) - 1.0) < 0.1
    after = synth.process(24_000)[4_800:]
    assert abs(peak_hz(after, 48_000, 400, 500) - 466.16) < 1.5


def test_strike_reports_and_refusals():
    synth = orchard.Synth()
    assert synth.strike_report(60)["contacts"] == 0
    assert orchard.Synth("mallet-bar").strike_report(60) is None
    synth.note_on(60, 127)
    synth.process(9_600)
    report = synth.strike_report(60)
    assert 3.0 < report["strike_speed_m_s"] < 8.0 and report["peak_force_n"] > 10.0
    with pytest.raises(orchard.OrchardError, match="velocity 200 must be 0 to 127"):
        synth.note_on(60, 200)
    with pytest.raises(orchard.OrchardError, match="key -1 must be 0 to 127"):
        synth.note_on(-1)
    with pytest.raises(orchard.OrchardError, match="key 1000 must be 0 to 127"):
        synth.strike_report(1000)
    with pytest.raises(orchard.OrchardError, match="are no MIDI message"):
        synth.send(b"\x90\x3c")
    with pytest.raises(orchard.OrchardError, match="no property"):
        synth.set_property("tuning:nope", 1.0)
    with pytest.raises(orchard.OrchardError, match="must be finite"):
        synth.set_property("tuning:a4_hz", float("nan"))
    with pytest.raises(orchard.OrchardError, match="a call"):
        synth.process(10**9)
    assert synth.get_property("tuning:a4_hz") == 440.0
    synth.reset()
    assert not synth.process(512).any()


def test_a_thread_waiting_for_the_synthesiser_holds_up_no_other():
    """While one thread renders a long block, another sends a note (and so
    waits for the block); a third Python thread goes on running."""
    import threading

    synth = orchard.Synth()
    synth.note_on(60, 100)
    rendering = threading.Thread(target=synth.process, args=(48_000 * 20,))
    rendering.start()
    waiting = threading.Thread(target=synth.note_on, args=(64, 100))
    waiting.start()
    ticks = 0
    while waiting.is_alive() or rendering.is_alive():
        ticks += 1
        waiting.join(0.001)
    rendering.join()
    # Held by the waiting thread, the GIL would let this loop run once.
    assert ticks > 50, ticks
    assert synth.frames_rendered == 48_000 * 20
