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
(SIGINT). It stops only the processes it started, by their ids, and gives up
on every wait after a timeout.
"""

import os
import shutil
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


def run(standalone, workdir):
    # libjack complains on stderr while the server is still starting up.
    jack.set_error_function(lambda message: None)
    server = f"orchard-ci-{os.getpid()}"
    env = dict(os.environ, JACK_DEFAULT_SERVER=server, JACK_NO_AUDIO_RESERVATION="1")
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
                [standalone, "--backend", "jack", "--midi-input", "orchard-ci-player:notes"],
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
