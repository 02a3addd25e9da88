"""Render a directory tree of MIDI files with Orchard across a Ray cluster.

One Ray task per file. The driver reads each MIDI file (they are small) and
hands its bytes to the task, so workers need no access to the inputs; each
task renders with the `orchard` package and writes its WAV to the output: a
folder every node can reach (a shared filesystem) or an object store URI
(``s3://bucket/renders``, ``gs://...``; needs ``pyarrow``). Outputs keep the
tree's sub-folders, ``a/b/song.mid`` -> ``OUT/a/b/song.wav``, and are the
bytes ``orchard render`` writes for the same file and options.

A file Orchard refuses (a corrupt MIDI file) fails alone and is reported with
its one-line reason; Ray retries a task whose worker died, and one that hit
an I/O error, up to ``--retries`` times. At the end: files rendered, skipped
and failed, hours of audio, wall time.

On a laptop (a local Ray instance on every core, or ``--num-cpus N``)::

    python python/examples/render_corpus_ray.py midi/ renders/

On a cluster (``ray start --head`` on one node, ``ray start --address
HEAD:6379`` on the others, the ``orchard`` package installed on every node)::

    python python/examples/render_corpus_ray.py midi/ /shared/renders --address auto
    python python/examples/render_corpus_ray.py midi/ s3://bucket/renders --address auto
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
import time
from pathlib import Path, PurePosixPath
from typing import Any, Dict, List, Optional, Tuple

import ray

import orchard

#: The endings of MIDI files looked for in the tree.
MIDI_SUFFIXES = (".mid", ".midi")


def parse_arguments(argv: Optional[List[str]] = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("source", type=Path, help="the folder of MIDI files (searched recursively)")
    parser.add_argument("out", help="the output folder, or an object store URI (s3://, gs://, ...)")
    parser.add_argument("--preset", default=orchard.DEFAULT_PRESET, help="a built-in preset or a preset file")
    parser.add_argument(
        "--set", action="append", default=[], metavar="PATH=VALUE", help="set a property (repeatable)"
    )
    parser.add_argument("--seed", type=int, default=None, help="seed for everything random in the instrument")
    parser.add_argument("--sample-rate", type=int, default=48_000, help="Hz (default 48000)")
    parser.add_argument("--format", choices=["int24", "float32"], default="int24", help="WAV sample format")
    parser.add_argument("--max-tail", type=float, default=20.0, help="longest ring-out after the last event, s")
    parser.add_argument("--resume", action="store_true", help="skip files whose output already exists")
    parser.add_argument("--retries", type=int, default=3, help="retries of a task whose worker died or hit an I/O error")
    parser.add_argument("--address", default=None, help="a running cluster's address (`auto` to find it); none starts Ray here")
    parser.add_argument("--num-cpus", type=int, default=None, help="CPUs of the local Ray instance (default: all)")
    parser.add_argument("--summary", type=Path, default=None, help="also write the summary as JSON to this file")
    return parser.parse_args(argv)


def settings_of(texts: List[str]) -> Dict[str, float]:
    """`PATH=VALUE` arguments as a dict (values as numbers)."""
    settings = {}
    for text in texts:
        path, equals, value = text.partition("=")
        if not equals:
            raise SystemExit(f"--set {text}: expected PATH=VALUE, e.g. tuning:a4_hz=442")
        try:
            settings[path.strip()] = float(value)
        except ValueError:
            raise SystemExit(f"--set {text}: `{value}` is not a number") from None
    return settings


def midi_files(source: Path) -> List[PurePosixPath]:
    """Every MIDI file under `source`, as paths relative to it, sorted."""
    found = []
    for folder, _, names in os.walk(source):
        for name in names:
            if name.lower().endswith(MIDI_SUFFIXES):
                found.append(PurePosixPath(Path(folder, name).relative_to(source).as_posix()))
    return sorted(found)


class Output:
    """Where the WAV files go: a folder, or a folder in an object store."""

    def __init__(self, location: str) -> None:
        self.location = location
        self.remote = "://" in location
        if self.remote:
            try:
                from pyarrow import fs
            except ImportError:
                raise SystemExit(f"{location}: object store outputs need pyarrow (pip install pyarrow)") from None
            self.filesystem, self.root = fs.FileSystem.from_uri(location)

    def path_of(self, relative: PurePosixPath) -> str:
        """The output for the MIDI file at `relative`: its name with `.wav`."""
        wav = relative.with_suffix(".wav")
        if self.remote:
            return f"{self.root.rstrip('/')}/{wav}"
        return str(Path(self.location, wav))

    def exists(self, path: str) -> bool:
        if self.remote:
            from pyarrow import fs

            return self.filesystem.get_file_info(path).type != fs.FileType.NotFound
        return Path(path).exists()

    def write(self, path: str, audio, sample_rate: int, format: str) -> None:
        """Writes `audio` as a WAV file: in place for a folder (the file
        appears only when complete); for an object store, written locally
        and then uploaded in one piece."""
        if not self.remote:
            Path(path).parent.mkdir(parents=True, exist_ok=True)
            orchard.write_wav(path, audio, sample_rate, format)
            return
        with tempfile.TemporaryDirectory() as scratch:
            local = Path(scratch, "render.wav")
            orchard.write_wav(local, audio, sample_rate, format)
            # Stores with real folders (a local or HDFS path) need the
            # parents; object stores take any key.
            self.filesystem.create_dir(path.rsplit("/", 1)[0], recursive=True)
            with self.filesystem.open_output_stream(path) as stream, open(local, "rb") as wav:
                while chunk := wav.read(1 << 20):
                    stream.write(chunk)


@ray.remote
def render_file(
    midi: bytes, output: Output, path: str, instrument: Dict[str, Any], sample_rate: int, format: str, max_tail: float
) -> float:
    """Renders one MIDI file's bytes to `path`; returns the seconds of audio."""
    audio = orchard.render(midi, sample_rate=sample_rate, max_tail=max_tail, **instrument)
    output.write(path, audio, sample_rate, format)
    return len(audio) / sample_rate


def main(argv: Optional[List[str]] = None) -> int:
    args = parse_arguments(argv)
    if not args.source.is_dir():
        raise SystemExit(f"{args.source}: no such folder")
    instrument = {"preset": args.preset, "set": settings_of(args.set), "seed": args.seed}
    # Refuse a bad preset or setting once, here, rather than once per file.
    try:
        orchard.instrument(**instrument)
    except orchard.OrchardError as error:
        raise SystemExit(f"orchard: error: {error}") from None
    output = Output(args.out)
    files = midi_files(args.source)
    started = time.monotonic()
    if args.address is not None:
        ray.init(address=args.address)
    else:
        ray.init(num_cpus=args.num_cpus)
    task = render_file.options(max_retries=args.retries, retry_exceptions=[OSError])

    skipped: List[str] = []
    running: Dict[Any, PurePosixPath] = {}
    for relative in files:
        path = output.path_of(relative)
        if args.resume and output.exists(path):
            skipped.append(str(relative))
            continue
        midi = (args.source / relative).read_bytes()
        reference = task.remote(midi, output, path, instrument, args.sample_rate, args.format, args.max_tail)
        running[reference] = relative

    seconds_of_audio = 0.0
    failed: List[Tuple[str, str]] = []
    done = 0
    pending = list(running)
    while pending:
        finished, pending = ray.wait(pending, num_returns=1)
        relative = running[finished[0]]
        done += 1
        try:
            seconds_of_audio += ray.get(finished[0])
        except ray.exceptions.RayTaskError as error:
            reason = str(error.cause) if error.cause is not None else str(error).splitlines()[-1]
            failed.append((str(relative), reason))
            print(f"{relative}: {reason}", file=sys.stderr)
        print(f"[{done}/{len(running)}] {relative}", file=sys.stderr)
    wall_s = time.monotonic() - started
    ray.shutdown()

    summary = {
        "files": len(files),
        "rendered": len(running) - len(failed),
        "skipped": len(skipped),
        "failed": len(failed),
        "failures": [{"input": name, "reason": reason} for name, reason in failed],
        "hours_of_audio": seconds_of_audio / 3600.0,
        "wall_time_s": wall_s,
        "output": args.out,
    }
    print(
        f"{summary['files']} files: {summary['rendered']} rendered, {summary['skipped']} skipped, "
        f"{summary['failed']} failed; {summary['hours_of_audio']:.3f} h of audio in {wall_s:.1f} s"
    )
    if args.summary is not None:
        args.summary.write_text(json.dumps(summary, indent=2) + "\n")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
