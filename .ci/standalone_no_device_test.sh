#!/usr/bin/env bash
# orchard-standalone without an audio device: each case must print one line that
# says so and exit non-zero, without a panic and without hanging (every run has a
# timeout). Also checks that --help lists every option and that a bad preset is
# one line and a non-zero exit.
# Usage: standalone_no_device_test.sh PATH/orchard-standalone
set -euo pipefail

app=${1:?usage: standalone_no_device_test.sh PATH/orchard-standalone}
failures=0
fail() {
  echo "FAIL: $*"
  failures=$((failures + 1))
}

# A JACK server name nobody uses: "no JACK server" even where one is running.
export JACK_DEFAULT_SERVER="orchard-ci-no-server-$$"
out=$(mktemp) err=$(mktemp) state=$(mktemp -d)
trap 'rm -rf "$out" "$err" "$state"' EXIT
# The state kept between runs goes to a file of the test's own, a new one
# for each run (a run saves its devices, which would choose the next's).
runs=0
fresh_state() {
  runs=$((runs + 1))
  export ORCHARD_STANDALONE_STATE="$state/run-$runs.json"
}

# expect_one_line NAME PATTERN ARGS...: the app exits 1 within 20 s with exactly one
# line on stderr that matches PATTERN, nothing on stdout, and no panic.
expect_one_line() {
  local name=$1 pattern=$2
  shift 2
  local status=0
  fresh_state
  timeout -k 5 20 "$app" "$@" >"$out" 2>"$err" </dev/null || status=$?
  local lines
  lines=$(wc -l <"$err")
  if [ "$status" -eq 124 ] || [ "$status" -eq 137 ]; then
    fail "$name: still running after 20 s (killed)"
  elif [ "$status" -ne 1 ]; then
    fail "$name: exit status $status, expected 1"
  elif [ "$lines" -ne 1 ]; then
    fail "$name: $lines lines on stderr, expected one"
  elif ! grep -q -- "$pattern" "$err"; then
    fail "$name: stderr does not say '$pattern'"
  elif [ -s "$out" ]; then
    fail "$name: printed to stdout"
  else
    echo "ok: $name: $(cat "$err")"
    return
  fi
  if grep -q panicked "$err"; then echo "  (it panicked)"; fi
  sed 's/^/  | /' "$err" "$out" | head -20
}

# --help documents every option.
if help=$(timeout 20 "$app" --help); then
  for option in --backend --preset --midi-input --output-device --sample-rate \
    --period-size --buffer-size --verbose --record --play --temperament --tuning \
    --keymap jack alsa; do
    grep -q -- "$option" <<<"$help" || fail "--help does not mention $option"
  done
  echo "ok: --help lists every option"
else
  fail "--help exited with status $?"
fi

expect_one_line "--backend jack without a JACK server" "no audio device" --backend jack
expect_one_line "unknown preset" "no preset" --preset no-such-preset --backend dummy
expect_one_line "unknown temperament" "--temperament meantone: expected one of" \
  --temperament meantone --backend dummy
expect_one_line "missing scale file" "cannot read no-such.scl" --tuning no-such.scl --backend dummy
expect_one_line "missing MIDI file" "cannot read MIDI file no-such.mid" --play no-such.mid \
  --backend dummy
printf '{"format": 1, "devices": [' >"$state/corrupt.json"
ORCHARD_STANDALONE_STATE="$state/corrupt.json" timeout -k 5 20 "$app" --backend jack \
  >"$out" 2>"$err" </dev/null || true
if grep -q "warning: the saved state .* cannot be read" "$err" && [ -f "$state/corrupt.json.bak" ]; then
  echo "ok: a corrupt state file: one warning, kept as .bak"
else
  fail "a corrupt state file: no warning or no .bak"
  sed 's/^/  | /' "$err" | head -20
fi

# The dummy backend needs no device: the chosen preset loads, the app runs, and
# Ctrl-C (SIGINT) ends it with status 0, its state saved; the next run without
# options starts from that state.
fresh_state
"$app" --backend dummy --preset mallet-bar --temperament vallotti:Eb >"$out" 2>"$err" </dev/null &
pid=$!
sleep 3
if ! kill -0 "$pid" 2>/dev/null; then
  status=0
  wait "$pid" || status=$?
  fail "--backend dummy --preset mallet-bar exited by itself (status $status)"
  sed 's/^/  | /' "$err" | head -20
else
  kill -INT "$pid"
  status=0
  timeout 15 tail --pid="$pid" -f /dev/null || { kill -KILL "$pid"; fail "no exit within 15 s of SIGINT"; }
  wait "$pid" || status=$?
  if [ "$status" -eq 0 ] && grep -q "playing \`mallet-bar\`" "$err"; then
    echo "ok: --backend dummy --preset mallet-bar runs and quits on Ctrl-C"
    saved=$(tr -d ' \n' <"$ORCHARD_STANDALONE_STATE" 2>/dev/null || true)
    for expected in '"instrument":"mallet-bar"' '"temperament":2.0' '"temperament-key":3.0' \
      '"backend":"dummy"'; do
      grep -qF -- "$expected" <<<"$saved" || fail "the saved state lacks $expected: $saved"
    done
    timeout -k 5 20 "$app" >"$out" 2>"$err" </dev/null &
    pid=$!
    sleep 3
    kill -INT "$pid" 2>/dev/null || true
    wait "$pid" || true
    if grep -q "playing \`mallet-bar\` through the dummy backend" "$err"; then
      echo "ok: the next run starts from the saved state (mallet-bar, dummy backend)"
    else
      fail "the next run does not start from the saved state"
      sed 's/^/  | /' "$err" | head -20
    fi
  else
    fail "--backend dummy --preset mallet-bar: status $status after SIGINT"
    sed 's/^/  | /' "$err" | head -20
  fi
fi

# ALSA cards are what alsa-lib finds under /dev/snd; on a machine that has one,
# the ALSA cases cannot be run (the app would play).
if compgen -G "/dev/snd/controlC*" >/dev/null; then
  echo "skipped: ALSA without a sound card (this machine has one)"
else
  expect_one_line "--backend alsa without a sound card" "no audio device" --backend alsa
  expect_one_line "--backend auto without JACK or a sound card" "no audio device"
fi

if [ "$failures" -ne 0 ]; then
  echo "$failures standalone check(s) failed"
  exit 1
fi
echo "standalone without an audio device: passed"
