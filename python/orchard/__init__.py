"""Orchard, physically modelled mechanical instruments, from Python.

Render MIDI files (or ``mido`` messages) to numpy arrays, play an instrument
block by block, write WAV files, list presets and their properties, and
measure notes. Every sound is simulated physics: the same engine, the same
presets and the same checks as the ``orchard`` command line, so
``orchard.render`` gives the samples ``orchard render --format float32``
writes, bit for bit, and every refusal is the command line's one-line reason,
raised as :class:`OrchardError`.

Rendering, measuring and writing release the GIL: threads render in parallel.

    >>> import orchard
    >>> audio = orchard.render("song.mid", preset="grand-piano", set={"tuning:a4_hz": 442})
    >>> audio.shape, audio.dtype          # (frames, 2), float32, full scale 1
"""

from __future__ import annotations

import io
import os
from typing import Any, Dict, Iterable, Mapping, Optional, Union

import numpy as np

from . import _native
from ._native import Instrument, OrchardError, Score

__version__: str = _native.__version__

__all__ = [
    "Instrument",
    "OrchardError",
    "Score",
    "Synth",
    "analyze_note",
    "instrument",
    "presets",
    "property_paths",
    "render",
    "score",
    "write_wav",
]

#: The preset played unless another is named (as on the command line).
DEFAULT_PRESET = "grand-piano"

PathLike = Union[str, "os.PathLike[str]"]
#: A preset: a built-in name, a preset file, or an :class:`Instrument`.
PresetLike = Union[PathLike, Instrument]
#: A performance: a MIDI file's path, its bytes, a :class:`Score`, a
#: ``mido.MidiFile``, or ``mido``-style messages (see :func:`score`).
MidiLike = Union[PathLike, bytes, bytearray, Score, Any]


def instrument(
    preset: PresetLike = DEFAULT_PRESET,
    set: Optional[Mapping[str, float]] = None,
    seed: Optional[int] = None,
    *,
    temperament: Optional[str] = None,
    tuning: Optional[PathLike] = None,
    keymap: Optional[PathLike] = None,
) -> Instrument:
    """An instrument to play, as the command line's ``--preset``, ``--set``,
    ``--seed``, ``--temperament``, ``--tuning`` and ``--keymap`` make it.

    ``preset`` is a built-in preset's name (see :func:`presets`), a preset
    file's path, or an :class:`Instrument` (the settings then apply on top).
    ``set`` maps property paths (see :func:`property_paths`) to values,
    applied in order; ``seed`` reseeds everything random in the instrument
    (the preset's own seed if ``None``). ``temperament`` is ``NAME[:KEY]``
    (``"vallotti:Eb"``); ``tuning`` a Scala ``.scl`` file (or ``"19-edo"``),
    laid on the keys by ``keymap``, a ``.kbm`` file.
    """
    settings = [(str(path), float(value)) for path, value in (set or {}).items()]
    if isinstance(preset, Instrument):
        if seed is not None or temperament or tuning or keymap:
            raise OrchardError(
                "an Instrument is already tuned and seeded: give its preset's name to change those"
            )
        return preset.with_settings(settings) if settings else preset
    return Instrument(
        os.fspath(preset),
        settings,
        seed,
        temperament,
        None if tuning is None else os.fspath(tuning),
        None if keymap is None else os.fspath(keymap),
    )


def score(midi: MidiLike) -> Score:
    """A performance to render, from any of:

    - the path of a Standard MIDI File (type 0, 1 or 2);
    - its contents, as ``bytes``;
    - a ``mido.MidiFile`` (read exactly as the file it would save as);
    - ``mido``-style messages: objects with ``.bytes()`` (the raw MIDI
      message) and ``.time``, the seconds since the previous message, as
      iterating a ``mido.MidiFile`` gives them (meta messages count for their
      time only);
    - a :class:`Score`, returned as it is.
    """
    if isinstance(midi, Score):
        return midi
    if isinstance(midi, (str, os.PathLike)):
        return Score.from_file(os.fspath(midi))
    if isinstance(midi, (bytes, bytearray, memoryview)):
        return Score.from_smf(bytes(midi))
    if hasattr(midi, "tracks") and hasattr(midi, "save"):
        data = io.BytesIO()
        midi.save(file=data)
        return Score.from_smf(data.getvalue())
    return _score_of_messages(midi)


def _score_of_messages(messages: Iterable[Any]) -> Score:
    """A score of ``mido``-style messages with delta times in seconds."""
    timed = []
    now = 0.0
    for index, message in enumerate(messages):
        try:
            delta = float(message.time)
        except (AttributeError, TypeError, ValueError):
            raise OrchardError(
                f"message {index}: {message!r} has no time in seconds (.time)"
            ) from None
        now += delta
        if getattr(message, "is_meta", False):
            continue
        try:
            raw = bytes(message.bytes())
        except (AttributeError, TypeError, ValueError):
            raise OrchardError(
                f"message {index}: {message!r} is no MIDI message (no .bytes())"
            ) from None
        timed.append((now, raw))
    return Score.from_messages(timed, now)


def _frames(samples: bytearray) -> np.ndarray:
    """Interleaved stereo float32 bytes as an array of shape (frames, 2),
    sharing their memory."""
    return np.frombuffer(samples, dtype=np.float32).reshape(-1, 2)


def render(
    midi: MidiLike,
    preset: PresetLike = DEFAULT_PRESET,
    sample_rate: int = 48_000,
    set: Optional[Mapping[str, float]] = None,
    seed: Optional[int] = None,
    *,
    temperament: Optional[str] = None,
    tuning: Optional[PathLike] = None,
    keymap: Optional[PathLike] = None,
    max_tail: float = 20.0,
    max_duration: float = 6.0 * 3600.0,
) -> np.ndarray:
    """Renders a performance (see :func:`score`) on an instrument (see
    :func:`instrument`) and returns it as a float32 array of shape
    ``(frames, 2)``, left and right, full scale 1: the samples
    ``orchard render --format float32`` writes, bit for bit.

    After the last event the instrument rings until silent, for at most
    ``max_tail`` seconds (0 to 600). A performance longer than
    ``max_duration`` seconds is refused. ``sample_rate`` is in Hz (1000 to
    2000000). The GIL is released while rendering; Ctrl-C stops it.
    """
    played = instrument(
        preset, set, seed, temperament=temperament, tuning=tuning, keymap=keymap
    )
    performance = score(midi)
    return _frames(
        _native.render(played, performance, int(sample_rate), float(max_tail), float(max_duration))
    )


class Synth(_native.Synth):
    """An instrument played block by block, as a host plays the plugin.

    Events (:meth:`note_on`, :meth:`send`, ...) apply at the start of the next
    :meth:`process` block, so a performance played with its events at block
    boundaries gives the samples :func:`render` gives, whatever the block
    sizes. Below 44.1 kHz the output lags the events by
    :attr:`latency_frames` (the render looks ahead to make up for it).
    ``preset`` and the settings are :func:`instrument`'s.

        >>> synth = orchard.Synth("grand-piano")
        >>> synth.note_on(60, 100)
        >>> block = synth.process(512)   # float32, shape (512, 2)
    """

    def __new__(
        cls,
        preset: PresetLike = DEFAULT_PRESET,
        sample_rate: int = 48_000,
        set: Optional[Mapping[str, float]] = None,
        seed: Optional[int] = None,
        *,
        temperament: Optional[str] = None,
        tuning: Optional[PathLike] = None,
        keymap: Optional[PathLike] = None,
    ) -> "Synth":
        played = instrument(
            preset, set, seed, temperament=temperament, tuning=tuning, keymap=keymap
        )
        return super().__new__(cls, played, int(sample_rate))

    def send(self, message: Any) -> None:
        """One MIDI message: a ``mido``-style message (``.bytes()``) or its raw
        bytes, status byte first."""
        raw = message.bytes() if hasattr(message, "bytes") else message
        super().send(bytes(raw))

    def process(self, frames: int) -> np.ndarray:  # type: ignore[override]
        """Renders the next ``frames`` frames: float32, shape ``(frames, 2)``.
        The GIL is released meanwhile."""
        return _frames(super().process(int(frames)))


def write_wav(
    path: PathLike,
    audio: np.ndarray,
    sample_rate: int = 48_000,
    format: str = "int24",
) -> Dict[str, float]:
    """Writes stereo ``audio`` (shape ``(frames, 2)``, full scale 1) to a WAV
    file with the command line's writer, so the file is the one ``orchard
    render`` writes, byte for byte: ``format`` ``"int24"`` (clipped at full
    scale) or ``"float32"``; RF64 past 4 GiB. The file replaces ``path`` only
    when complete. Returns the ``peak`` (full scale 1) and how many samples
    were ``over_full_scale``."""
    frames = np.ascontiguousarray(audio, dtype=np.float32)
    if frames.ndim != 2 or frames.shape[1] != 2:
        raise OrchardError(f"audio of shape {frames.shape}: give (frames, 2), left and right")
    peak, over = _native.write_wav(
        os.fspath(path), frames.tobytes(), int(sample_rate), format
    )
    return {"peak": peak, "over_full_scale": over}


def presets() -> Dict[str, str]:
    """The built-in presets: name to description, as ``orchard presets``
    lists them."""
    return dict(_native.presets())


def property_paths(preset: PresetLike = DEFAULT_PRESET) -> Dict[str, float]:
    """Every property path of a preset and its value, as ``orchard presets
    --paths`` lists them: the paths ``set=`` takes."""
    return dict(instrument(preset).paths())


def analyze_note(
    key: int,
    velocity: int = 80,
    preset: PresetLike = DEFAULT_PRESET,
    *,
    duration: float = 8.0,
    sample_rate: int = 48_000,
    set: Optional[Mapping[str, float]] = None,
    seed: Optional[int] = None,
    temperament: Optional[str] = None,
    tuning: Optional[PathLike] = None,
    keymap: Optional[PathLike] = None,
) -> Dict[str, Any]:
    """Plays MIDI ``key`` at ``velocity``, holds it for ``duration`` seconds
    and measures it, as ``orchard analyze --note`` does. Returns a dict:

    - ``strike``: the hammer's ``strike_speed_m_s``, ``first_touch_s``,
      ``contact_duration_s``, ``contacts``, ``force_pulses``,
      ``peak_force_n`` and ``restitution`` (``None`` for bars);
    - ``partials``: one dict per partial found (``number``, ``frequency_hz``,
      ``fit_hz``, ``cents_off_fit``, ``level_db``, ``t60_early_s``,
      ``t60_late_s``), with ``partials_measured`` saying how far they could be;
    - ``b`` (the inharmonicity fitted to ``fitted_partials``), ``preset_b``,
      ``f0_hz`` and ``tuning_cents`` (partial 1 against its target);
    - ``t60_early_s`` and ``t60_late_s`` of the level;
    - ``report``: the text the command line prints.
    """
    played = instrument(
        preset, set, seed, temperament=temperament, tuning=tuning, keymap=keymap
    )
    return _native.analyze_note(played, key, velocity, float(duration), int(sample_rate))
