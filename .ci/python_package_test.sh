#!/usr/bin/env bash
# Builds the Python package into the tests' virtual environment ($1) as
# `pip install ./python` does (maturin's build backend, against the
# workspace's Cargo.lock) and runs its tests (python/tests) against the
# release CLI: bit-identity with `orchard render`, block-by-block playing,
# errors, leaks, and the Ray example on a local Ray instance.
set -euo pipefail
cd "$(dirname "$0")/.."
VENV=$1

cargo build --release -p orchard-cli --locked
# maturin's backend runs the `maturin` program: the environment's own.
PATH="$VENV/bin:$PATH" MATURIN_PEP517_ARGS="--locked" "$VENV/bin/pip" install --quiet \
  --disable-pip-version-check --no-build-isolation --no-deps --force-reinstall ./python
# From the repository's root, so that `import orchard` is the installed
# package, not the source folder python/orchard.
ORCHARD_CLI="${CARGO_TARGET_DIR:-target}/release/orchard" RAY_DISABLE_USAGE_STATS=1 PYTHONDONTWRITEBYTECODE=1 \
  "$VENV/bin/python" -m pytest -q -p no:cacheprovider python/tests
