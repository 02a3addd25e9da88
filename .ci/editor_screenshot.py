"""The standalone app's editor on a virtual X display: start Xvfb, run the
standalone with the dummy audio backend, wait for its window to be drawn,
take a screenshot and check that it is not blank (many colours, real contrast,
the editor's text and keys drawn). Writes the screenshot to the path given.

Usage: editor_screenshot.py STANDALONE OUT.png [--play]

With --play (needs xdotool), it first uses the editor as a musician would:
finds C4's strings by path and selects them, and plays a few notes on the
on-screen keyboard, holding the last: the picture for the README.
"""

import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time

import mss
import mss.tools
import numpy as np

DISPLAY = ":97"
# Larger than the editor's window, which opens at the top left: the bottom
# right corner is the empty root window.
SCREEN = (1600, 1000)
# How long the editor may take to appear (software OpenGL in a debug build).
APPEAR_S = 90.0


def grab(sct):
    shot = sct.grab(sct.monitors[0])
    pixels = np.frombuffer(shot.rgb, dtype=np.uint8).reshape(shot.height, shot.width, 3)
    return shot, pixels


def drawn_box(pixels):
    """The bounding box of everything that differs from the bottom right
    corner's colour (Xvfb's empty root window), or None."""
    background = pixels[-1, -1]
    differs = np.any(pixels != background, axis=2)
    rows, cols = np.nonzero(differs)
    if len(rows) == 0:
        return None
    return cols.min(), rows.min(), cols.max() + 1, rows.max() + 1


def not_blank(window):
    """Reasons the image is blank, or an empty list."""
    problems = []
    colours = len(np.unique(window.reshape(-1, 3), axis=0))
    if colours < 50:
        problems.append(f"only {colours} colours")
    spread = float(window.std())
    if spread < 15.0:
        problems.append(f"little contrast (standard deviation {spread:.1f})")
    height, width, _ = window.shape
    if width < 600 or height < 400:
        problems.append(f"window only {width}x{height}")
    return problems


def xdotool(*args):
    subprocess.run(["xdotool", *map(str, args)], check=True)


def white_key_x(key, left=8.0, right=1172.0):
    """The centre of a white key on the on-screen keyboard of the window at
    its default size (A0 to C8, 52 white keys)."""
    whites = [k for k in range(21, 109) if k % 12 not in (1, 3, 6, 8, 10)]
    width = (right - left) / len(whites)
    return int(left + (whites.index(key) + 0.5) * width)


def play(window_top=0):
    """Selects strings/key/64 (inherited from the anchors at C4 and C7)
    through the search box and plays C major, the last note held."""
    xdotool("mousemove", 150, 84, "click", 1)
    xdotool("type", "--delay", "40", "strings/key/64")
    time.sleep(1.0)
    xdotool("mousemove", 80, 108, "click", 1)
    time.sleep(1.0)
    for key in (48, 52, 55, 60, 64, 67):
        xdotool("mousemove", white_key_x(key), 745, "mousedown", 1)
        time.sleep(0.25)
        if key != 67:
            xdotool("mouseup", 1)
    time.sleep(0.15)


def main():
    standalone, out = sys.argv[1], sys.argv[2]
    interact = "--play" in sys.argv[3:]
    if interact and shutil.which("xdotool") is None:
        sys.exit("--play needs xdotool")
    xvfb = subprocess.Popen(
        ["Xvfb", DISPLAY, "-screen", "0", f"{SCREEN[0]}x{SCREEN[1]}x24", "-nolisten", "tcp"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    app = None
    try:
        time.sleep(1.0)
        env = dict(os.environ, DISPLAY=DISPLAY, LIBGL_ALWAYS_SOFTWARE="1")
        os.environ["DISPLAY"] = DISPLAY
        env["ORCHARD_PRESET_DIR"] = tempfile.mkdtemp(prefix="orchard-presets-")
        # The state kept between runs: a file of the test's own, not the user's.
        env["ORCHARD_STANDALONE_STATE"] = os.path.join(
            tempfile.mkdtemp(prefix="orchard-state-"), "standalone.json"
        )
        env.pop("WAYLAND_DISPLAY", None)
        app = subprocess.Popen(
            [standalone, "--backend", "dummy"],
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
        )
        os.environ["DISPLAY"] = DISPLAY
        deadline = time.monotonic() + APPEAR_S
        with mss.MSS() as sct:
            problems = ["no window yet"]
            while time.monotonic() < deadline:
                if app.poll() is not None:
                    print(app.stdout.read())
                    sys.exit(f"FAIL: the standalone exited with status {app.returncode}")
                time.sleep(2.0)
                shot, pixels = grab(sct)
                box = drawn_box(pixels)
                if box is None:
                    continue
                left, top, right, bottom = box
                window = pixels[top:bottom, left:right]
                problems = not_blank(window)
                if not problems:
                    # Give the editor a moment more to settle, then keep that frame.
                    time.sleep(2.0)
                    if interact:
                        play()
                    shot, pixels = grab(sct)
                    left, top, right, bottom = drawn_box(pixels) or box
                    window = np.ascontiguousarray(pixels[top:bottom, left:right])
                    problems = not_blank(window)
                    if problems:
                        continue
                    mss.tools.to_png(window.tobytes(), (window.shape[1], window.shape[0]), output=out)
                    colours = len(np.unique(window.reshape(-1, 3), axis=0))
                    print(
                        f"editor window {window.shape[1]}x{window.shape[0]}, {colours} colours,"
                        f" standard deviation {window.std():.1f}: written to {out}"
                    )
                    return
            sys.exit(f"FAIL: the editor's window looks blank: {', '.join(problems)}")
    finally:
        if app is not None and app.poll() is None:
            app.send_signal(signal.SIGTERM)
            try:
                app.wait(timeout=10)
            except subprocess.TimeoutExpired:
                app.kill()
        xvfb.terminate()
        xvfb.wait()


if __name__ == "__main__":
    main()
