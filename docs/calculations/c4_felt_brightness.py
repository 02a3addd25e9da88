"""How much can C4 brighten from pp to ff with a felt that touches for 2.0 ms?

An independent check of the grand piano's felt, sharing no code with Orchard's
engine: a finite-difference model of Chaigne & Askenfelt's (1994) C4 string
(docs/reference-measurements.md) struck by a point mass through a felt spread
over 2 cm, on rigid terminations. For each felt law, the stiffness K is found that makes the first
contact last 2.0 ms at 3 m/s (the measured C4 contact), then the string is struck
at 0.61 and 5.57 m/s (Orchard's MIDI velocities 20 and 120) and the
power-weighted spectral centroid of the bridge force over the first 0.3 s is
compared, as the recordings were (x1.6 from pp to ff at C4). The restitution of
the same hammer thrown at a rigid anvil at 3 m/s tells how lossy each felt is.

Felt laws:
  Hunt-Crossley  F = K x^p (1 + beta dx/dt)
  Stulov         F = K [x^p - eps M],  tau dM/dt = x^p - M  (a relaxing felt)

Run: python3 docs/calculations/c4_felt_brightness.py   (needs numpy; ~10 s)
"""

import numpy as np

# Chaigne & Askenfelt's C4 string.
LENGTH_M = 0.62
MASS_KG = 3.93e-3
TENSION_N = 670.0
STIFFNESS_EPS = 3.82e-5
LOSS_B1 = 1.1  # 1/s
LOSS_B2 = 2.7e-4  # m^2/s
STRIKE_AT = 0.12  # fraction of the length from the agraffe
FELT_WIDTH_M = 0.02

SAMPLE_RATE = 96_000.0
PP, FF = 0.61, 5.57  # m/s
CONTACT_S = 2.0e-3


def stiff_string_grid():
    """Time step, grid spacing and segments of the explicit scheme, at its
    stability limit."""
    density = MASS_KG / LENGTH_M
    c = np.sqrt(TENSION_N / density)
    kappa = c * LENGTH_M * np.sqrt(STIFFNESS_EPS)
    k = 1.0 / SAMPLE_RATE
    a = c * c * k * k + 4 * LOSS_B2 * k
    h_min = np.sqrt((a + np.sqrt(a * a + 16 * kappa * kappa * k * k)) / 2)
    segments = int(LENGTH_M / h_min)
    return k, LENGTH_M / segments, segments, c, kappa, density


def strike(masses, stiffness, exponent, beta, eps, tau, speeds, seconds):
    """Strikes a batch of strings at once (one row per case). Returns the first
    contact's duration (s) and the bridge force (N) per case."""
    k, h, n, c, kappa, density = stiff_string_grid()
    rows = len(masses)
    x = np.arange(n + 1) * h
    d = np.abs(x - STRIKE_AT * LENGTH_M) / FELT_WIDTH_M
    window = np.where(d < 0.5, np.cos(np.pi * d) ** 2, 0.0)
    window /= window.sum()
    lam2, mu2 = (c * k / h) ** 2, (kappa * k / h / h) ** 2
    y, y_old = np.zeros((rows, n + 1)), np.zeros((rows, n + 1))
    hammer, hammer_old = np.zeros(rows), -speeds * k
    memory, compression_old = np.zeros(rows), np.zeros(rows)
    kept = np.exp(-k / tau)
    steps = int(seconds * SAMPLE_RATE)
    bridge = np.zeros((rows, steps))
    started = np.zeros(rows, bool)
    apart_for = np.zeros(rows)
    ended = np.full(rows, np.nan)
    for step in range(steps):
        compression = hammer - y @ window
        rate = (compression - compression_old) / k
        compression_old = compression
        x_p = np.where(compression > 0, compression, 0.0) ** exponent
        memory = kept * memory + (1 - kept) * x_p
        force = stiffness * (x_p - eps * memory) * (1 + beta * rate)
        force = np.where(compression > 0, np.maximum(force, 0.0), 0.0)
        started |= force > 0
        apart_for = np.where(force > 0, 0, apart_for + 1)
        done = started & (apart_for == int(1e-4 * SAMPLE_RATE)) & np.isnan(ended)
        ended[done] = (step - apart_for[done]) * k
        pad = np.concatenate([-y[:, 1:2], y, -y[:, -2:-1]], axis=1)
        d2 = pad[:, 2:] - 2 * pad[:, 1:-1] + pad[:, :-2]
        pad2 = np.concatenate([-d2[:, 1:2], d2, -d2[:, -2:-1]], axis=1)
        d4 = pad2[:, 2:] - 2 * pad2[:, 1:-1] + pad2[:, :-2]
        d2_old = np.zeros_like(y_old)
        d2_old[:, 1:-1] = y_old[:, 2:] - 2 * y_old[:, 1:-1] + y_old[:, :-2]
        y_new = (2 * y - (1 - LOSS_B1 * k) * y_old + lam2 * d2 - mu2 * d4
                 + (2 * LOSS_B2 * k / h / h) * (d2 - d2_old)
                 + (k * k / (density * h)) * force[:, None] * window[None, :])
        y_new /= 1 + LOSS_B1 * k
        y_new[:, 0] = y_new[:, -1] = 0.0
        hammer, hammer_old = 2 * hammer - hammer_old - k * k * force / masses, hammer
        y_old, y = y, y_new
        bridge[:, step] = TENSION_N * y[:, n - 1] / h
    return ended, bridge


def power_centroid(signal):
    """Power-weighted centroid (Hz) of the first 0.3 s from the onset."""
    onset = np.argmax(np.abs(signal) > 0.01 * np.abs(signal).max())
    span = signal[onset:onset + int(0.3 * SAMPLE_RATE)]
    window = 0.5 - 0.5 * np.cos(2 * np.pi * np.arange(len(span)) / len(span))
    size = 1 << (len(span) - 1).bit_length()
    power = np.abs(np.fft.rfft(span * window, size)) ** 2
    return (np.arange(len(power)) * SAMPLE_RATE / size * power).sum() / power.sum()


def restitution(mass, stiffness, exponent, beta, eps, tau, speed=3.0, dt=1e-7):
    """Rebound over strike speed of the hammer thrown at a rigid anvil."""
    x, v, memory = 0.0, speed, 0.0
    kept = np.exp(-dt / tau)
    while x >= 0.0:
        x_p = max(x, 0.0) ** exponent
        memory = kept * memory + (1 - kept) * x_p
        force = max(stiffness * (x_p - eps * memory) * (1 + beta * v), 0.0)
        v -= force / mass * dt
        x += v * dt
    return -v / speed


def main():
    # (hammer mass per string kg, exponent p, beta s/m, eps, tau s)
    cases = [
        (2.4e-3, 3.0, 0.0, 0.0, 1e-4),
        (2.4e-3, 3.0, 0.08, 0.0, 1e-4),
        (2.4e-3, 3.5, 0.08, 0.0, 1e-4),
        (2.97e-3, 3.0, 0.08, 0.0, 1e-4),
        (2.4e-3, 3.0, 0.0, 0.3, 1e-4),
        (2.4e-3, 3.0, 0.0, 0.3, 2e-4),
        (2.4e-3, 3.0, 0.0, 0.5, 1e-4),
        (2.97e-3, 3.0, 0.0, 0.3, 2e-4),
    ]
    m, p, beta, eps, tau = (np.array(column) for column in zip(*cases))
    rows = len(cases)
    low, high = np.full(rows, 1e6), np.full(rows, 1e18)
    for _ in range(45):
        stiffness = np.sqrt(low * high)
        ended, _ = strike(m, stiffness, p, beta, eps, tau, np.full(rows, 3.0), 0.008)
        too_long = ended > CONTACT_S
        low, high = np.where(too_long, stiffness, low), np.where(too_long, high, stiffness)
    stiffness = np.sqrt(low * high)
    twice = lambda a: np.concatenate([a, a])
    _, bridge = strike(twice(m), twice(stiffness), twice(p), twice(beta), twice(eps),
                       twice(tau), np.concatenate([np.full(rows, PP), np.full(rows, FF)]),
                       0.32)
    print("mass g   p    beta  eps   tau us    K N/m^p    e(3 m/s)  centroid pp -> ff Hz")
    for i, (mi, pi, bi, ei, ti) in enumerate(cases):
        soft, loud = power_centroid(bridge[i]), power_centroid(bridge[i + rows])
        e = restitution(mi, stiffness[i], pi, bi, ei, ti)
        print(f"{mi * 1e3:5.2f}  {pi:4.1f}  {bi:4.2f}  {ei:4.2f}  {ti * 1e6:5.0f}  "
              f"{stiffness[i]:10.3e}  {e:7.3f}    {soft:4.0f} -> {loud:4.0f}  x{loud / soft:.2f}")


if __name__ == "__main__":
    main()
