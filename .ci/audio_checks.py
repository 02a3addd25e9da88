"""Measurements shared by the end-to-end tests of the plugin and the standalone app.

numpy only. A note's pitch is its first partial: the strongest spectral peak
within a semitone of the expected frequency, located to a fraction of a bin by
a parabola through the log magnitudes around it.
"""

import math

import numpy as np

A4_HZ = 440.0


def equal_tempered_hz(key):
    """The equal-tempered frequency of MIDI key `key` (A4 = 69 = 440 Hz)."""
    return A4_HZ * 2.0 ** ((key - 69) / 12.0)


def cents(measured_hz, reference_hz):
    return 1200.0 * math.log2(measured_hz / reference_hz)


def mono(audio):
    """(channels, frames) or (frames,) float audio as one channel, float64."""
    audio = np.asarray(audio, dtype=np.float64)
    return audio.mean(axis=0) if audio.ndim == 2 else audio


def first_partial_hz(signal, sample_rate, expected_hz, start_s, length_s):
    """The frequency of the strongest peak within a semitone of `expected_hz`
    in `length_s` seconds of `signal` from `start_s`, and its level in dB
    relative to the strongest peak of the whole spectrum (how clearly it
    stands out)."""
    start = int(start_s * sample_rate)
    segment = signal[start : start + int(length_s * sample_rate)]
    if len(segment) < int(0.25 * sample_rate):
        raise ValueError(f"only {len(segment)} samples to measure the pitch in")
    windowed = (segment - segment.mean()) * np.hanning(len(segment))
    size = 1 << math.ceil(math.log2(len(windowed) * 8))
    magnitude = np.abs(np.fft.rfft(windowed, size))
    bin_hz = sample_rate / size
    lo = int(expected_hz * 2.0 ** (-1.0 / 12.0) / bin_hz)
    hi = int(expected_hz * 2.0 ** (1.0 / 12.0) / bin_hz) + 1
    k = lo + int(np.argmax(magnitude[lo:hi]))
    a, b, c = np.log(magnitude[k - 1 : k + 2] + 1e-30)
    offset = 0.5 * (a - c) / (a - 2.0 * b + c) if (a - 2.0 * b + c) != 0 else 0.0
    prominence_db = 20.0 * math.log10(magnitude[k] / (magnitude.max() + 1e-30) + 1e-30)
    return (k + offset) * bin_hz, prominence_db


def level_db(signal, sample_rate, window_s=0.05):
    """RMS level in dB (re full scale) of consecutive windows, and each
    window's start time in seconds."""
    n = int(window_s * sample_rate)
    frames = len(signal) // n
    blocks = signal[: frames * n].reshape(frames, n)
    rms = np.sqrt(np.mean(blocks**2, axis=1))
    return 20.0 * np.log10(rms + 1e-20), np.arange(frames) * window_s


def silent_after(signal, sample_rate, release_s, peak_db, drop_db=60.0):
    """Seconds after `release_s` until the level stays more than `drop_db`
    below `peak_db` for the rest of the signal; None if it never does."""
    levels, times = level_db(signal, sample_rate)
    loud = np.nonzero(levels > peak_db - drop_db)[0]
    last_loud_end = times[loud[-1]] + 0.05 if len(loud) else 0.0
    if last_loud_end >= times[-1]:
        return None
    return max(0.0, last_loud_end - release_s)


def click_onsets(signal, sample_rate, gap_s=0.05):
    """Times (s) where clicks begin: the rate of change of `signal`,
    averaged over 1 ms, rising above a fifth of its largest, at least
    `gap_s` apart."""
    change = np.abs(np.diff(np.asarray(signal, dtype=np.float64)))
    window = max(1, int(1e-3 * sample_rate))
    smoothed = np.convolve(change, np.ones(window) / window, mode="same")
    above = np.nonzero(smoothed > 0.2 * smoothed.max())[0]
    onsets = []
    last = None
    for i in above:
        if last is None or i - last > gap_s * sample_rate:
            onsets.append(i / sample_rate)
        last = i
    return onsets
