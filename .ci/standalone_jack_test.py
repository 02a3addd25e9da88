"""orchard-standalone end to end with a real audio server.

Usage: python standalone_jack_test.py PATH/orchard-standalone

Starts its own JACK server (`jackd -d dummy`, under a name of its own so it
never meets another server), a JACK client of its own (`orchard-ci-player`,
one MIDI output and two audio inputs, from the JACK-Client package), then
`orchard-standalone --backend jack --midi-input orchard-ci-player:notes`. It
connects the app's audio outputs to its inputs, plays C4 and then A4 into the
app's MIDI input, records what comes out, and checks that each note sounds at
its pitch (first partial within 5 cents of equal temperament), that nothing
sounds before the first note, and that the app quits cleanly on Ctrl-C
(SIGINT). The app runs with `--record DIR`: the WAV file it records holds the
notes at their pitches, and the MIDI file holds the same notes, as long as
they were played. A second run plays a MIDI file (`--play`) and records it
likewise: the recorded MIDI file holds the file's notes at their times, the
WAV their pitches. It stops only the processes it started, by their ids, and
gives up on every wait after a timeout.
"""

import os
import shutil
import struct
import signal
import subprocess
import sys
import tempfile
import threading
import time

import jack
import numpy as np

import audio_checks as ac

SAMPLE_RATE = 48000
PERIOD = 1024
# (key, note-on s, note-off s) from the start of the recording.
NOTES = (("C4", 60, 0.6, 2.1), ("A4", 69, 2.6, 4.1))
RECORD_S = 5.0
CENTS_TOLERANCE = 5.0
# The file the second run plays: (name, key, note-on s, note-off s).
FILE_NOTES = (("E4", 64, 0.5, 2.0), ("C5", 72, 2.5, 4.0))
FILE_S = 4.5


class Failure(Exception):
    pass


def wait_until(what, condition, timeout_s, alive=None):
    """Polls `condition` until it is true; `alive` (a Popen) must keep running."""
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        if condition():
            return
        if alive is not None and alive.poll() is not None:
            raise Failure(f"{what}: the process exited with status {alive.returncode}")
        time.sleep(0.1)
    raise Failure(f"{what}: not within {timeout_s} s")


def stop(process, name, sig=signal.SIGTERM, grace_s=10.0):
    """Stops a process this test started: `sig`, then SIGKILL after `grace_s`.
    Returns its exit status, or None when it had to be killed."""
    if process is None or process.poll() is not None:
        return None if process is None else process.returncode
    process.send_signal(sig)
    try:
        return process.wait(timeout=grace_s)
    except subprocess.TimeoutExpired:
        print(f"{name} (pid {process.pid}) did not exit within {grace_s} s of {sig.name}; killing it")
        process.kill()
        process.wait(timeout=10)
        return None


def tail(path, lines=20):
    try:
        with open(path, errors="replace") as f:
            return "".join(f.readlines()[-lines:])
    except OSError:
        return ""


class Player:
    """A JACK client that plays the notes and records two channels."""

    def __init__(self, server):
        self.client = jack.Client("orchard-ci-player", no_start_server=True, servername=server)
        self.notes = self.client.midi_outports.register("notes")
        self.inputs = [self.client.inports.register(f"in_{i}") for i in (1, 2)]
        frames = int(RECORD_S * SAMPLE_RATE)
        self.recording = np.zeros((2, frames), dtype=np.float32)
        self.events = sorted(
            [(int(on * SAMPLE_RATE), bytes([0x90, key, 100])) for _, key, on, _ in NOTES]
            + [(int(off * SAMPLE_RATE), bytes([0x80, key, 0])) for _, key, _, off in NOTES]
        )
        self.position = None  # frames recorded; None until started
        self.xruns = 0
        self.done = threading.Event()
        self.client.set_process_callback(self.process)
        self.client.set_xrun_callback(self.xrun)

    def xrun(self, _delay):
        self.xruns += 1

    def start(self):
        self.position = 0

    def process(self, frames):
        self.notes.clear_buffer()
        if self.position is None or self.done.is_set():
            return
        start = self.position
        end = min(start + frames, self.recording.shape[1])
        for channel, port in enumerate(self.inputs):
            self.recording[channel, start:end] = port.get_array()[: end - start]
        for at, message in self.events:
            if start <= at < start + frames:
                self.notes.write_midi_event(at - start, message)
        self.position = end
        if end >= self.recording.shape[1]:
            self.done.set()


def read_wav(path):
    """A 32-bit float WAV file (as the app records): (sample rate, samples as
    an array of channels x frames)."""
    with open(path, "rb") as f:
        data = f.read()
    if data[:4] != b"RIFF" or data[8:12] != b"WAVE":
        raise Failure(f"{path} is not a WAV file")
    at, fmt, frames = 12, None, None
    while at + 8 <= len(data):
        chunk, size = data[at:at + 4], struct.unpack("<I", data[at + 4:at + 8])[0]
        body = data[at + 8:at + 8 + size]
        if chunk == b"fmt ":
            fmt = struct.unpack("<HHIIHH", body[:16])
        elif chunk == b"data":
            frames = body
        at += 8 + size + (size & 1)
    if fmt is None or frames is None:
        raise Failure(f"{path} has no fmt or data chunk (not finished?)")
    tag, channels, rate, _, _, bits = fmt
    if (tag, bits) not in ((3, 32), (0xFFFE, 32)):
        raise Failure(f"{path}: format {tag} with {bits} bits, expected 32-bit float")
    samples = np.frombuffer(frames, dtype="<f4")
    return rate, samples.reshape(-1, channels).T


def read_variable(data, at):
    value = 0
    while True:
        byte = data[at]
        at += 1
        value = (value << 7) | (byte & 0x7F)
        if byte < 0x80:
            return value, at


def read_midi_notes(path):
    """The notes of a Standard MIDI File with metrical time: (key, on s, off
    s) in the order they start, following tempo changes (one tempo map for
    every track)."""
    with open(path, "rb") as f:
        data = f.read()
    if data[:4] != b"MThd":
        raise Failure(f"{path} is not a MIDI file")
    _, tracks, division = struct.unpack(">HHH", data[8:14])
    at, events = 14, []
    for _ in range(tracks):
        if data[at:at + 4] != b"MTrk":
            raise Failure(f"{path}: no track chunk at byte {at}")
        end = at + 8 + struct.unpack(">I", data[at + 4:at + 8])[0]
        at, tick, status = at + 8, 0, 0
        while at < end:
            delta, at = read_variable(data, at)
            tick += delta
            if data[at] & 0x80:
                status, at = data[at], at + 1
            if status == 0xFF:
                kind, (length, at) = data[at], read_variable(data, at + 1)
                if kind == 0x51:
                    events.append((tick, "tempo", int.from_bytes(data[at:at + 3], "big")))
                at += length
            elif status in (0xF0, 0xF7):
                length, at = read_variable(data, at)
                at += length
            else:
                size = 1 if status & 0xF0 in (0xC0, 0xD0) else 2
                body, at = data[at:at + size], at + size
                kind = status & 0xF0
                if kind == 0x90 and body[1] > 0:
                    events.append((tick, "on", body[0]))
                elif kind in (0x80, 0x90):
                    events.append((tick, "off", body[0]))
        at = end
    events.sort(key=lambda e: (e[0], e[1] != "tempo"))
    tempo, last_tick, seconds, started, notes = 500_000, 0, 0.0, {}, []
    for tick, kind, value in events:
        seconds += (tick - last_tick) * tempo * 1e-6 / division
        last_tick = tick
        if kind == "tempo":
            tempo = value
        elif kind == "on":
            started[value] = seconds
        elif value in started:
            notes.append((value, started.pop(value), seconds))
    return sorted(notes, key=lambda n: n[1])


def write_midi(path, notes):
    """A format-0 MIDI file of `notes` ((name, key, on s, off s)) at 120 BPM,
    480 ticks a beat (960 a second)."""
    events = sorted(
        [(round(on * 960), bytes([0x90, key, 100])) for _, key, on, _ in notes]
        + [(round(off * 960), bytes([0x80, key, 64])) for _, key, _, off in notes]
    )
    track, last = bytearray(), 0
    for tick, message in events + [(events[-1][0], b"\xff\x2f\x00")]:
        delta, encoded = tick - last, [tick - last & 0x7F]
        last = tick
        while delta > 0x7F:
            delta >>= 7
            encoded.insert(0, 0x80 | delta & 0x7F)
        track += bytes(encoded) + message
    with open(path, "wb") as f:
        f.write(b"MThd" + struct.pack(">IHHH", 6, 0, 1, 480))
        f.write(b"MTrk" + struct.pack(">I", len(track)) + track)


def check_take(folder, notes, label, failures, times_from_start=False):
    """The take recorded in `folder`: its MIDI file holds `notes` ((name, key,
    on s, off s)) with their lengths (or, `times_from_start`, at their times),
    and its WAV file holds each at its pitch where the MIDI file has it."""
    files = sorted(os.listdir(folder)) if os.path.isdir(folder) else []
    wavs = [f for f in files if f.endswith(".wav")]
    mids = [f for f in files if f.endswith(".mid")]
    if len(wavs) != 1 or len(mids) != 1 or wavs[0][:-4] != mids[0][:-4]:
        failures.append(f"{label}: expected one take (a .wav and a .mid), found {files}")
        return
    rate, audio = read_wav(os.path.join(folder, wavs[0]))
    played = read_midi_notes(os.path.join(folder, mids[0]))
    print(f"{label}: {wavs[0]} ({audio.shape[1] / rate:.2f} s at {rate} Hz), {mids[0]}: "
          + ", ".join(f"{key} {on:.3f}-{off:.3f} s" for key, on, off in played))
    if [key for key, _, _ in played] != [key for _, key, _, _ in notes]:
        failures.append(f"{label}: the MIDI file holds keys {[k for k, _, _ in played]}, "
                        f"expected {[key for _, key, _, _ in notes]}")
        return
    # One JACK period of jitter, and the file's tick (1/1920 s).
    slack_s = PERIOD / rate + 1e-3
    signal_ = ac.mono(audio)
    for (name, key, on, off), (_, rec_on, rec_off) in zip(notes, played):
        if abs((rec_off - rec_on) - (off - on)) > slack_s:
            failures.append(f"{label}: {name} lasts {rec_off - rec_on:.3f} s in the MIDI file, "
                            f"played {off - on:.3f} s")
        if times_from_start and abs(rec_on - on) > slack_s:
            failures.append(f"{label}: {name} starts at {rec_on:.3f} s in the MIDI file, "
                            f"{on:.3f} s in the file played")
        expected = ac.equal_tempered_hz(key)
        hz, prominence_db = ac.first_partial_hz(
            signal_, rate, expected, rec_on + 0.2, rec_off - rec_on - 0.2
        )
        off_by = ac.cents(hz, expected)
        print(f"{label}: {name} in the WAV: {hz:.2f} Hz ({off_by:+.2f} cents, "
              f"{prominence_db:.1f} dB re the strongest peak)")
        if abs(off_by) > CENTS_TOLERANCE or prominence_db < -30.0:
            failures.append(f"{label}: {name} in the WAV at {hz:.2f} Hz, {off_by:+.1f} cents "
                            f"from {expected:.2f} Hz, {prominence_db:.1f} dB re the strongest")


def run(standalone, workdir):
    # libjack complains on stderr while the server is still starting up.
    jack.set_error_function(lambda message: None)
    server = f"orchard-ci-{os.getpid()}"
    env = dict(os.environ, JACK_DEFAULT_SERVER=server, JACK_NO_AUDIO_RESERVATION="1",
               ORCHARD_STANDALONE_STATE=os.path.join(workdir, "state.json"))
    takes = os.path.join(workdir, "takes")
    file_takes = os.path.join(workdir, "file-takes")
    jackd_log = os.path.join(workdir, "jackd.log")
    app_log = os.path.join(workdir, "orchard-standalone.log")
    jackd = app = player = None
    failures = []
    try:
        with open(jackd_log, "w") as log:
            jackd = subprocess.Popen(
                ["jackd", "-n", server, "--no-realtime", "-t", "5000",
                 "-d", "dummy", "-r", str(SAMPLE_RATE), "-p", str(PERIOD)],
                stdin=subprocess.DEVNULL, stdout=log, stderr=subprocess.STDOUT, env=env,
            )
        print(f"jackd -d dummy started (pid {jackd.pid}, server {server})")

        def server_up():
            nonlocal player
            try:
                player = Player(server)
                return True
            except jack.JackError:
                return False

        try:
            wait_until("the JACK server starting", server_up, 15, alive=jackd)
        except Failure as error:
            raise Failure(f"{error}\n{tail(jackd_log)}")
        jack.set_error_function(lambda message: print(f"libjack: {message}", file=sys.stderr))
        player.client.activate()
        rate = player.client.samplerate
        if rate != SAMPLE_RATE:
            raise Failure(f"the JACK server runs at {rate} Hz, not {SAMPLE_RATE}")

        with open(app_log, "w") as log:
            app = subprocess.Popen(
                [standalone, "--backend", "jack", "--midi-input", "orchard-ci-player:notes",
                 "--record", takes],
                stdin=subprocess.DEVNULL, stdout=log, stderr=subprocess.STDOUT, env=env,
            )
        print(f"orchard-standalone started (pid {app.pid})")
        client = player.client
        try:
            wait_until(
                "orchard-standalone's JACK ports",
                lambda: {"orchard:output_1", "orchard:output_2", "orchard:midi_input"}
                <= {p.name for p in client.get_ports("orchard:")},
                30,
                alive=app,
            )
            wait_until(
                "orchard-ci-player:notes connected to orchard:midi_input (--midi-input)",
                lambda: "orchard:midi_input"
                in [p.name for p in client.get_all_connections("orchard-ci-player:notes")],
                10,
                alive=app,
            )
        except Failure as error:
            raise Failure(f"{error}\n{tail(app_log)}")
        for i in (1, 2):
            client.connect(f"orchard:output_{i}", f"orchard-ci-player:in_{i}")
        time.sleep(0.5)  # let the app settle before the first note

        player.start()
        if not player.done.wait(RECORD_S + 20):
            raise Failure(
                f"recorded only {player.position} of {player.recording.shape[1]} frames in "
                f"{RECORD_S + 20} s"
            )
        print(f"recorded {RECORD_S} s at {rate} Hz ({player.xruns} xruns)")

        status = stop(app, "orchard-standalone", signal.SIGINT)
        app_output = tail(app_log)
        if status != 0:
            failures.append(
                "orchard-standalone did not quit cleanly on SIGINT "
                f"(status {status})\n{app_output}"
            )
        check_take(takes, NOTES, "--record", failures)

        signal_ = ac.mono(player.recording)
        if not np.all(np.isfinite(signal_)):
            raise Failure("non-finite samples in the recording")
        levels, times = ac.level_db(signal_, SAMPLE_RATE)
        peak_db = float(levels.max())
        first_on = NOTES[0][2]
        before = float(levels[times + 0.05 <= first_on].max())
        print(f"peak {peak_db:.1f} dBFS; before the first note {before:.1f} dBFS")
        if peak_db < -60.0:
            raise Failure(f"no sound recorded (peak {peak_db:.1f} dBFS)\n{app_output}")
        if before > peak_db - 60.0:
            failures.append(f"sound before the first note: {before:.1f} dBFS")
        for name, key, on, off in NOTES:
            expected = ac.equal_tempered_hz(key)
            # Skip the attack and a period or two of the graph's latency.
            hz, prominence_db = ac.first_partial_hz(
                signal_, SAMPLE_RATE, expected, on + 0.2, off - on - 0.2
            )
            off_by = ac.cents(hz, expected)
            print(
                f"{name}: first partial {hz:.2f} Hz ({off_by:+.2f} cents from {expected:.2f} Hz, "
                f"{prominence_db:.1f} dB re the strongest peak)"
            )
            if abs(off_by) > CENTS_TOLERANCE or prominence_db < -30.0:
                failures.append(
                    f"{name}: first partial {hz:.2f} Hz, {off_by:+.1f} cents from "
                    f"{expected:.2f} Hz (tolerance {CENTS_TOLERANCE}), {prominence_db:.1f} dB "
                    f"re the strongest peak"
                )
        failures += play_a_file(standalone, workdir, file_takes, client, env)
    finally:
        stop(app, "orchard-standalone", signal.SIGINT)
        if player is not None:
            try:
                player.client.deactivate()
                player.client.close()
            except jack.JackError:
                pass
        stop(jackd, "jackd")
    return failures


def play_a_file(standalone, workdir, takes, client, env):
    """Runs the app with `--play FILE.mid --record DIR` until the file has
    played, quits it, and checks the take."""
    failures = []
    midi = os.path.join(workdir, "two-notes.mid")
    write_midi(midi, FILE_NOTES)
    app_log = os.path.join(workdir, "orchard-standalone-play.log")
    with open(app_log, "w") as log:
        app = subprocess.Popen(
            [standalone, "--backend", "jack", "--play", midi, "--record", takes],
            stdin=subprocess.DEVNULL, stdout=log, stderr=subprocess.STDOUT,
            env=dict(env, ORCHARD_STANDALONE_STATE=os.path.join(workdir, "state-play.json")),
        )
    try:
        print(f"orchard-standalone --play started (pid {app.pid})")
        wait_until("orchard-standalone's JACK ports (--play)",
                   lambda: "orchard:output_1" in {p.name for p in client.get_ports("orchard:")},
                   30, alive=app)
        time.sleep(FILE_S + 1.0)
        status = stop(app, "orchard-standalone", signal.SIGINT)
        if status != 0:
            failures.append(f"orchard-standalone --play: status {status} after SIGINT\n"
                            f"{tail(app_log)}")
        check_take(takes, FILE_NOTES, "--play", failures, times_from_start=True)
    except Failure as error:
        failures.append(f"{error}\n{tail(app_log)}")
    finally:
        stop(app, "orchard-standalone", signal.SIGINT)
    return failures


def main():
    if len(sys.argv) != 2:
        sys.exit("usage: standalone_jack_test.py PATH/orchard-standalone")
    # A timeout's SIGTERM unwinds through `run`, which stops what it started.
    signal.signal(signal.SIGTERM, lambda *_: sys.exit("FAIL: stopped by SIGTERM (timeout?)"))
    standalone = os.path.abspath(sys.argv[1])
    if not os.access(standalone, os.X_OK):
        sys.exit(f"FAIL: {standalone} is not an executable")
    if shutil.which("jackd") is None:
        sys.exit("FAIL: no jackd on PATH (Debian package jackd2)")
    with tempfile.TemporaryDirectory(prefix="orchard-jack-test-") as workdir:
        try:
            failures = run(standalone, workdir)
        except Failure as error:
            failures = [str(error)]
    for failure in failures:
        print(f"FAIL: {failure}")
    if failures:
        sys.exit(1)
    print("standalone JACK test passed")


if __name__ == "__main__":
    main()
