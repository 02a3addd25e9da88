"""Orchard's VST3 in a real VST3 host (pedalboard, which hosts through JUCE).

Usage: python vst3_host_test.py PATH/Orchard.vst3

Loads the bundle as an instrument, renders C4 and then A4 (velocity 100, held
1 s), and checks that each sounds at its pitch (first partial within 5 cents
of equal temperament: the stretch tuning moves these two by less than a cent)
and that the dampers silence it again after the key is released (60 dB below
the note's peak within 1.5 s of note-off, and for the rest of the render).
Then holds the sustain pedal (CC 64, on MIDI channel 5, which reaches the
plugin through the host's MIDI map and the pedal's proxy parameter): after
the key is released the note rings on (within 40 dB of its peak until the
pedal comes up; released without it, it is 60 dB down within 1.5 s), and the pedal's release silences it (60 dB below the peak
within 1.5 s). Then chooses the chiming clock and checks that it ticks
on its own, with no MIDI: clicks at its 0.2 s beat, from its mechanism
(run in lock-step on the audio thread). Exits non-zero with one line per failure.
"""

import sys
import time

import numpy as np
import pedalboard

import audio_checks as ac

SAMPLE_RATE = 48000
NOTE_ON_S = 0.05
NOTE_OFF_S = 1.05
DURATION_S = 3.5
CENTS_TOLERANCE = 5.0
SILENCE_DROP_DB = 60.0
SILENCE_WITHIN_S = 1.5


def main():
    if len(sys.argv) != 2:
        sys.exit("usage: vst3_host_test.py PATH/Orchard.vst3")
    bundle = sys.argv[1]
    start = time.monotonic()
    try:
        plugin = pedalboard.load_plugin(bundle)
    except Exception as error:  # the host's own message says why
        sys.exit(f"FAIL: pedalboard cannot load {bundle}: {error}")
    print(f"loaded {plugin} in {time.monotonic() - start:.1f} s")
    if not plugin.is_instrument:
        sys.exit(f"FAIL: {bundle} does not load as an instrument")

    failures = []
    for name, key in (("C4", 60), ("A4", 69)):
        start = time.monotonic()
        audio = plugin(
            [(bytes([0x90, key, 100]), NOTE_ON_S), (bytes([0x80, key, 0]), NOTE_OFF_S)],
            duration=DURATION_S,
            sample_rate=SAMPLE_RATE,
            num_channels=2,
            buffer_size=512,
            reset=True,
        )
        rendered_s = time.monotonic() - start
        if audio.shape != (2, int(DURATION_S * SAMPLE_RATE)):
            failures.append(f"{name}: rendered shape {audio.shape}")
            continue
        if not np.all(np.isfinite(audio)):
            failures.append(f"{name}: non-finite samples in the output")
            continue
        signal = ac.mono(audio)
        levels, _ = ac.level_db(signal, SAMPLE_RATE)
        peak_db = float(levels.max())
        if peak_db < -60.0:
            failures.append(f"{name}: no sound (peak level {peak_db:.1f} dBFS)")
            continue
        expected = ac.equal_tempered_hz(key)
        hz, prominence_db = ac.first_partial_hz(
            signal, SAMPLE_RATE, expected, NOTE_ON_S + 0.1, NOTE_OFF_S - NOTE_ON_S - 0.1
        )
        off_by = ac.cents(hz, expected)
        silent = ac.silent_after(signal, SAMPLE_RATE, NOTE_OFF_S, peak_db, SILENCE_DROP_DB)
        print(
            f"{name}: first partial {hz:.2f} Hz ({off_by:+.2f} cents from {expected:.2f} Hz, "
            f"{prominence_db:.1f} dB re the strongest peak), peak {peak_db:.1f} dBFS, "
            f"-{SILENCE_DROP_DB:.0f} dB "
            + (f"{silent:.2f} s after note-off" if silent is not None else "never")
            + f"; rendered {DURATION_S} s in {rendered_s:.1f} s"
        )
        if abs(off_by) > CENTS_TOLERANCE:
            failures.append(
                f"{name}: first partial {hz:.2f} Hz is {off_by:+.1f} cents from {expected:.2f} Hz "
                f"(tolerance {CENTS_TOLERANCE} cents)"
            )
        if prominence_db < -30.0:
            failures.append(
                f"{name}: the first partial is {prominence_db:.1f} dB below the strongest peak"
            )
        if silent is None or silent > SILENCE_WITHIN_S:
            failures.append(
                f"{name}: not {SILENCE_DROP_DB:.0f} dB below its peak within {SILENCE_WITHIN_S} s "
                f"of note-off"
            )

    failures.extend(sustain_pedal(plugin))
    failures.extend(clock_ticks(plugin))

    for failure in failures:
        print(f"FAIL: {failure}")
    if failures:
        sys.exit(1)
    print("VST3 host test passed")


PEDAL_DOWN_S = 0.02
PEDAL_UP_S = 2.0
PEDAL_RING_DB = 40.0


def sustain_pedal(plugin):
    """C4 released under the sustain pedal, on MIDI channel 5; returns
    failures."""
    channel = 4
    audio = plugin(
        [
            (bytes([0xB0 | channel, 64, 127]), PEDAL_DOWN_S),
            (bytes([0x90 | channel, 60, 100]), NOTE_ON_S),
            (bytes([0x80 | channel, 60, 0]), NOTE_OFF_S - 0.5),
            (bytes([0xB0 | channel, 64, 0]), PEDAL_UP_S),
        ],
        duration=DURATION_S,
        sample_rate=SAMPLE_RATE,
        num_channels=2,
        buffer_size=512,
        reset=True,
    )
    if not np.all(np.isfinite(audio)):
        return ["pedal: non-finite samples in the output"]
    signal = ac.mono(audio)
    levels, times = ac.level_db(signal, SAMPLE_RATE)
    peak_db = float(levels.max())
    held = levels[(times > NOTE_OFF_S - 0.5 + 0.2) & (times < PEDAL_UP_S - 0.1)]
    ringing_db = float(held.min()) - peak_db
    silent = ac.silent_after(signal, SAMPLE_RATE, PEDAL_UP_S, peak_db, SILENCE_DROP_DB)
    print(
        f"pedal: the released C4 rings at {ringing_db:+.1f} dB re its peak under the pedal, "
        + (f"-{SILENCE_DROP_DB:.0f} dB {silent:.2f} s after the pedal is up" if silent is not None else "never silent")
    )
    failures = []
    if ringing_db < -PEDAL_RING_DB:
        failures.append(
            f"pedal: the released note fell {-ringing_db:.1f} dB under the sustain pedal "
            f"(the pedal did not hold its damper off)"
        )
    if silent is None or silent > SILENCE_WITHIN_S:
        failures.append("pedal: the note did not stop when the pedal came up")
    return failures


CLOCK_S = 6.0
BEAT_S = 0.2


def clock_ticks(plugin):
    """Chooses the chiming clock and listens to it tick; returns failures."""
    instrument = plugin.parameters["instrument"]
    # The choice whose name is the clock's, wherever the list puts it.
    for step in range(101):
        instrument.raw_value = step / 100
        if "clock" in instrument.string_value.lower():
            break
    else:
        return [f"clock: no instrument named a clock ({instrument.string_value} last)"]
    # The plugin builds the clock on its background thread when it next
    # processes, and swaps it in at a later block: give it a moment, as a
    # player choosing an instrument would.
    plugin([], duration=0.1, sample_rate=SAMPLE_RATE, num_channels=2, buffer_size=512)
    time.sleep(1.0)
    start = time.monotonic()
    audio = plugin(
        [],
        duration=CLOCK_S,
        sample_rate=SAMPLE_RATE,
        num_channels=2,
        buffer_size=512,
        reset=False,
    )
    rendered_s = time.monotonic() - start
    if not np.all(np.isfinite(audio)):
        return ["clock: non-finite samples in the output"]
    # The clock takes over in the background and its balance starts from
    # rest: listen to the last three seconds.
    tail = ac.mono(audio)[int((CLOCK_S - 3.0) * SAMPLE_RATE) :]
    onsets = ac.click_onsets(tail, SAMPLE_RATE)
    intervals = np.diff(onsets)
    beat = float(np.median(intervals)) if len(intervals) else float("nan")
    print(
        f"clock ({instrument.string_value}): {len(onsets)} ticks in the last 3 s, "
        f"median interval {beat:.3f} s; rendered {CLOCK_S} s in {rendered_s:.1f} s"
    )
    if len(onsets) < 10 or not abs(beat - BEAT_S) < 0.1 * BEAT_S:
        return [f"clock: no ticks at its {BEAT_S} s beat (onsets {onsets})"]
    return []


if __name__ == "__main__":
    main()
