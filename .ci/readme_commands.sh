#!/usr/bin/env bash
# Runs every command the README and the pages of docs/ show, so that none of
# them rots, after checking every relative link of the repository's Markdown
# files.
#
# The commands are read from the documentation itself: README.md, then every
# docs/*.md but the MANUAL_PAGES (recipes that fetch and build other
# projects). From each, every line of its ```sh blocks (backslash
# continuations joined, trailing `# comments` dropped) and every inline
# `cargo ...` span, in the order they appear, each command once however many
# pages show it. A command added to a page is run here without touching this
# script (so an inline `cargo ...` span must be a command that runs as
# written; a command only to be shown goes in a ```text block). Every page's
# commands run as from the clone's root.
#
# Each runs as a reader would type it, from a scratch directory that stands
# where a reader's clone would: there `cargo` is a shell function that points
# cargo at this workspace (`--manifest-path`, its `.cargo/config.toml`,
# `--locked`), so the files a command names (`demo.wav`, `song.mid`, ...) are
# read and written in the scratch directory, and every file and folder of the
# clone (`cli/`, `presets/`, `python/`, ...) is there through a link, so a
# command that names one (`cli/tests/fixtures/Orchard.A4.ogg`) reads it as in
# a clone. Nothing outside the clone is reachable: the documentation needs nothing
# beside it (no `../shared`). An alias
# of `.cargo/config.toml` (`cargo xtask ...`) runs from the clone's root
# instead (the xtask changes to it anyway). `song.mid`, the MIDI file the
# documentation renders, is written first (`write_song_mid`), and `midi/song.mid`
# for the commands that render a folder. `python` and `pip` are the tests'
# virtual environment's ($ORCHARD_CI_VENV, as .ci/run makes it, where the
# Python package step installed the package and maturin), so
# `python python/examples/...` runs as in a clone.
#
# Short forms, where a command as written is long or belongs to another step
# (`short_form`):
#   cargo test --workspace, cargo test    skipped: .ci/run's tests step runs them
#   sudo apt-get install ...              skipped: .ci/run's system packages step
#   cargo bench ... --bench NAME          `-- --test`: each benchmark once
#                                         (for `wdf` without the 1024-bipole
#                                         tableau, which takes a minute to build)
#   cargo run --release ... --bin orchard-standalone
#                                         without --release: the debug build
#                                         .ci/run's standalone step made
#   pip install ./python                  --no-build-isolation: with the
#                                         environment's maturin, offline; from
#                                         the clone itself (cargo finds the
#                                         workspace above python/ there)
#
# After each command: its exit status must be 0; every file it was asked to
# write (after -o, --output, --wav, --spectrogram, --plot, --probe-out) must be
# there, new, and a WAV, PNG or CSV as its name says; an `--example` must print
# a CSV `n,x,y` to stdout; and the clone must be as it was (a documented command
# changes nothing in it: `ORCHARD_BLESS_GOLDEN=1 ...` on the goldens the tests
# just passed rewrites them byte for byte).
#
# Before the commands, .ci/check_links.py checks every relative link of every
# tracked .md file: it must name a file of the clone and, with a #fragment, a
# heading of that page, so that a page moved or a heading renamed leaves no
# link behind.
#
# Usage: .ci/readme_commands.sh (from anywhere; .ci/run calls it after the tests,
# the bundle and the standalone build, whose builds it reuses: about a minute
# then). Prints one line per command with its page and time; exits non-zero if
# a link is broken or a command failed.
set -euo pipefail

REPO=$(cd "$(dirname "$0")/.." && pwd)
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-/var/tmp/orchard-target}"
export CARGO_TERM_COLOR=never
export RAY_DISABLE_USAGE_STATS=1
VENV="${ORCHARD_CI_VENV:-/var/tmp/orchard-ci-venv}"
# The benchmarks of `--bench wdf` kept in its short form.
WDF_QUICK='circuit|polyphonic|bct_vs_wt/[a-z]+/[0-9]{1,3}$'
# Fewer than this many commands found means the pages were misread.
LEAST_COMMANDS=15
# Pages of docs/ whose commands are not run: how the plugin validators were
# built from source and run on the bundle (they clone and build other
# projects), and a test .ci/run runs in a step of its own.
MANUAL_PAGES=(docs/pluginval.md docs/validators.md docs/vst3-framework-limits.md)

# The pages whose commands are run, relative to the clone: README.md first.
documented_pages() {
  local page manual
  echo README.md
  for page in "$REPO"/docs/*.md; do
    page=docs/${page##*/}
    for manual in "${MANUAL_PAGES[@]}"; do
      [ "$page" = "$manual" ] && continue 2
    done
    echo "$page"
  done
}

# The commands page `$1` shows, one per line, in order.
page_commands() {
  local page=$1 line command="" in_block=0
  while IFS= read -r line; do
    if [ "$in_block" -eq 0 ]; then
      [[ $line == '```sh' ]] && in_block=1
      continue
    fi
    if [[ $line == '```' ]]; then
      in_block=0
      continue
    fi
    command+="$line"
    if [[ $command == *\\ ]]; then
      command="${command%\\}"
      continue
    fi
    # Drop a trailing comment, and surrounding and repeated blanks.
    [[ $command =~ ^(.*[^[:space:]])[[:space:]]+#[[:space:]] ]] && command=${BASH_REMATCH[1]}
    local words
    read -ra words <<<"$command"
    command="${words[*]}"
    [[ -n $command && $command != \#* ]] && printf '%s\n' "$command"
    command=""
  done <"$REPO/$page"
  grep -o '`cargo [^`]*`' "$REPO/$page" | tr -d '`' || true
}

# Every documented command once, as `PAGE<tab>COMMAND`, in the order of the
# pages (a command several pages show is named by the first).
documented_commands() {
  local page
  while IFS= read -r page; do
    page_commands "$page" | sed "s|^|$page\t|"
  done < <(documented_pages) | awk -F '\t' '!seen[$2]++'
}

# The command to run for a documented command, or `skip: REASON`.
short_form() {
  local command=$1
  case $command in
    "cargo test --workspace" | "cargo test")
      echo "skip: .ci/run's tests step runs it" ;;
    "sudo apt-get install "*)
      echo "skip: .ci/run's system packages step installs them" ;;
    "cargo bench "*"--bench wdf")
      echo "$command -- --test '$WDF_QUICK'" ;;
    "cargo bench "*)
      echo "$command -- --test" ;;
    "cargo run --release "*"--bin orchard-standalone "*)
      echo "${command/ --release/}" ;;
    "pip install ./python")
      echo "pip install --quiet --no-build-isolation --no-deps --force-reinstall '$REPO/python'" ;;
    *)
      echo "$command" ;;
  esac
}

# cargo as the clone's: this workspace, its configuration, its lock file.
cargo() {
  local subcommand=$1
  shift
  if grep -qE "^$subcommand[[:space:]]*=" "$REPO/.cargo/config.toml"; then
    (cd "$REPO" && command cargo "$subcommand" "$@")
  else
    command cargo --config "$REPO/.cargo/config.toml" "$subcommand" \
      --manifest-path "$REPO/Cargo.toml" --locked "$@"
  fi
}

# The tests' Python environment's interpreter and pip (maturin on the path for
# pip's build of the package, against the clone's lock file).
python() {
  "$VENV/bin/python" "$@"
}
pip() {
  PATH="$VENV/bin:$PATH" MATURIN_PEP517_ARGS="--locked" "$VENV/bin/pip" "$@"
}

# Writes song.mid: a type-0 Standard MIDI File, 480 ticks a beat at the
# default 120 bpm: sustain down, C4 and E4 struck, G4 a beat (0.5 s) later,
# and a beat after that the pedal up and every key released.
write_song_mid() {
  local track=(
    00 b0 40 7f    # sustain (CC 64) down
    00 90 3c 50    # C4 (60) on, velocity 80
    00 90 40 46    # E4 on, velocity 70
    83 60 90 43 5a # 480 ticks later: G4 on, velocity 90
    83 60 b0 40 00 # 480 ticks later: sustain up,
    00 80 3c 40    # and C4,
    00 80 40 40    # E4
    00 80 43 40    # and G4 off
    00 ff 2f 00    # end of track
  )
  local length
  length=$(printf '%08x' "${#track[@]}")
  local bytes=(
    4d 54 68 64 00 00 00 06 00 00 00 01 01 e0 # MThd: format 0, one track, 480 ticks a beat
    4d 54 72 6b "${length:0:2}" "${length:2:2}" "${length:4:2}" "${length:6:2}"
    "${track[@]}"
  )
  printf "$(printf '\\x%s' "${bytes[@]}")" >"$1"
}

# The files `$@` (a command's words) asks to be written.
outputs_of() {
  local words=("$@") i
  for ((i = 0; i + 1 < ${#words[@]}; i++)); do
    case ${words[i]} in
      -o | --output | --wav | --spectrogram | --plot | --probe-out) echo "${words[i + 1]}" ;;
    esac
  done
}

# Checks that `$1` is a non-empty file of the kind its extension names.
check_file() {
  local path=$1
  [ -s "$path" ] || { echo "  $path was not written"; return 1; }
  case $path in
    *.wav)
      [[ $(head -c 4 "$path") == RIFF && $(head -c 12 "$path" | tail -c 4) == WAVE ]] ||
        { echo "  $path is not a WAV file"; return 1; } ;;
    *.png)
      [[ $(head -c 4 "$path" | tail -c 3) == PNG ]] || { echo "  $path is not a PNG file"; return 1; } ;;
    *.csv)
      [[ $(head -n 1 "$path") == *,* && $(wc -l <"$path") -ge 2 ]] ||
        { echo "  $path is not a CSV file with rows"; return 1; } ;;
  esac
}

# Checks that `$1` holds a CSV `n,x,y` with rows of numbers.
check_nxy_csv() {
  local number='-?[0-9.]+(e[-+]?[0-9]+)?'
  [[ $(head -n 1 "$1") == n,x,y ]] && sed -n 2p "$1" | grep -qE "^[0-9]+,$number,$number\$" ||
    { echo "  stdout is not a CSV n,x,y: $(head -c 200 "$1")"; return 1; }
}

# What the clone looks like to git, to see that a command left it alone.
clone_state() {
  if git -C "$REPO" rev-parse --git-dir >/dev/null 2>&1; then
    { git -C "$REPO" status --porcelain --untracked-files=all; git -C "$REPO" diff; } | sha256sum
  fi
}

# Runs one documented command (page `$1` shows `$2`, short form `$3`) in the
# scratch directory and checks what it did.
run_one() {
  local page=$1 command=$2 form=$3 before start status=0 words outputs=() path
  read -ra words <<<"$form"
  mapfile -t outputs < <(outputs_of "${words[@]}")
  for path in "${outputs[@]}"; do rm -f "$path"; done
  before=$(clone_state)
  start=$SECONDS
  eval "$form" </dev/null >"$scratch/stdout" 2>"$scratch/stderr" || status=$?
  local took=$((SECONDS - start)) problems=""
  if [ "$status" -ne 0 ]; then
    problems+="  exit status $status"$'\n'
  fi
  for path in "${outputs[@]}"; do
    problems+=$(check_file "$path")$'\n' || true
  done
  if [[ $form == *" --example "* ]]; then
    problems+=$(check_nxy_csv "$scratch/stdout")$'\n' || true
  fi
  if [ "$(clone_state)" != "$before" ]; then
    problems+="  it changed the clone: $(git -C "$REPO" status --short | head -n 5 | tr '\n' ' ')"$'\n'
  fi
  problems=$(sed '/^$/d' <<<"$problems")
  local shown="$page: $command"
  [ "$form" != "$command" ] && shown="$shown  [short form: $form]"
  if [ -z "$problems" ]; then
    printf 'ok    %4d s  %s\n' "$took" "$shown"
    return 0
  fi
  printf 'FAIL  %4d s  %s\n%s\n' "$took" "$shown" "$problems"
  echo "  --- stderr (last lines)"
  tail -n 15 "$scratch/stderr" | sed 's/^/  /'
  echo "  --- stdout (last lines)"
  tail -n 5 "$scratch/stdout" | sed 's/^/  /'
  return 1
}

main() {
  base=$(mktemp -d "${TMPDIR:-/tmp}/orchard-readme.XXXXXX")
  trap 'rm -rf "$base"' EXIT
  scratch="$base/orchard"
  mkdir "$scratch"
  cd "$scratch"
  # The clone's files and folders, as a reader standing in the clone sees them.
  local entry
  while IFS= read -r entry; do
    ln -s "$REPO/$entry" "$entry"
  done < <(git -C "$REPO" ls-files | cut -d/ -f1 | sort -u)
  write_song_mid song.mid
  mkdir midi
  cp song.mid midi/song.mid

  local links=0
  if (cd "$REPO" && git ls-files -z '*.md' | xargs -0 python3 .ci/check_links.py); then
    echo "ok            every relative link of the Markdown files"
  else
    echo "FAIL          the broken links above"
    links=1
  fi

  local entries
  mapfile -t entries < <(documented_commands)
  if [ "${#entries[@]}" -lt "$LEAST_COMMANDS" ]; then
    echo "FAIL: found ${#entries[@]} commands in $(documented_pages | xargs), expected at least $LEAST_COMMANDS"
    return 1
  fi
  local entry page command form failed=0 ran=0
  for entry in "${entries[@]}"; do
    page=${entry%%$'\t'*}
    command=${entry#*$'\t'}
    form=$(short_form "$command")
    if [[ $form == skip:* ]]; then
      printf 'skip          %s: %s  [%s]\n' "$page" "$command" "${form#skip: }"
      continue
    fi
    ran=$((ran + 1))
    run_one "$page" "$command" "$form" || failed=$((failed + 1))
  done
  echo "Documented commands: $ran run, $failed failed, $((${#entries[@]} - ran)) skipped"
  [ "$failed" -eq 0 ] && [ "$links" -eq 0 ]
}

main
