#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Runs .clang-tidy's checks (clang-tidy 14, Debian's clang-tidy package) on the C++ lines changed since .clang-tidy
was added, committed or not, as check_format.sh does for .clang-format: new code follows it, old code once touched.

The set of files changed since then only grows; what keeps the check cheap is a cache of clean results. A file's key
is the SHA-256 of everything clang-tidy's verdict on it depends on: clang-tidy's version, .clang-tidy, the file's
compile command, its changed lines, and the path and content of every file it includes (the build's own dependency
record, `ninja -t deps`). A file is looked up only where its object is newer than all of those, i.e. where that
record is current; otherwise it is checked and not stored. Only clean results are stored, so a finding is reported
on every run until it is fixed. So a run checks the files whose code or includes changed since the last run: a
change to a header most files include re-checks them all, one to a few sources takes seconds. The cache lives in
$XDG_CACHE_HOME/costscope/clang-tidy (default ~/.cache); entries unused for 30 days are removed. Only sources the
build compiles are checked (headers through them); CUDA sources (nvcc command lines) are left out.

usage: scripts/check_tidy.py [BUILD_DIR] [--source-root DIR] [--jobs N]
BUILD_DIR defaults to $COSTSCOPE_TIDY_BUILD, else build/ci; it needs compile_commands.json and a Ninja build.
"""

import argparse
import concurrent.futures
import hashlib
import json
import os
import shlex
import shutil
import subprocess
import sys
import time
from pathlib import Path

CACHE_DAYS = 30
# GCC's warning flags in the compile commands are unknown to clang: not a finding.
EXTRA_ARGS = ["--extra-arg=-Wno-unknown-warning-option"]


def cache_dir():
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "costscope" / "clang-tidy"


def ninja_deps(build):
    """Object path (relative to the build, as Ninja names it) -> included files, for objects whose record is valid."""
    out = subprocess.run(["ninja", "-C", str(build), "-t", "deps"], capture_output=True, text=True, check=False)
    deps, current = {}, None
    for line in out.stdout.splitlines():
        if not line.strip():
            current = None
        elif not line.startswith(" "):
            obj, _, state = line.partition(": #deps")
            current = obj if state.rstrip().endswith("(VALID)") else None
            if current is not None:
                deps[current] = []
        elif current is not None:
            deps[current].append(line.strip())
    return deps


def changed_lines(root):
    """Source path -> [[first, last], ...] of the lines added or changed since .clang-tidy was added, or None."""
    def git(*args):
        return subprocess.run(["git", "-C", str(root), *args], capture_output=True, text=True, check=True).stdout

    added = git("log", "--diff-filter=A", "--format=%H", "--", ".clang-tidy").split()
    if not added:
        return None
    ranges, current = {}, None
    for line in git("diff", "-U0", "--no-color", "--diff-filter=AM", added[-1], "--", "*.cpp").splitlines():
        if line.startswith("+++ "):
            current = (root / line[6:]).resolve() if line.startswith("+++ b/") else None
        elif line.startswith("@@") and current is not None:
            # "@@ -a,b +c,d @@": d lines from c (d defaults to 1; 0 is a pure deletion).
            new = line.split()[2][1:].split(",")
            first, count = int(new[0]), int(new[1]) if len(new) > 1 else 1
            if count > 0:
                ranges.setdefault(current, []).append([first, first + count - 1])
    return ranges


def object_of(entry):
    args = entry["arguments"] if "arguments" in entry else shlex.split(entry["command"])
    return args[args.index("-o") + 1] if "-o" in args else None


class Hasher:
    """SHA-256 of file contents, each file read once per run (a header is included by hundreds of sources)."""

    def __init__(self):
        self.known = {}

    def __call__(self, path):
        if path not in self.known:
            self.known[path] = hashlib.sha256(path.read_bytes()).hexdigest()
        return self.known[path]


def cache_key(entry, lines, root, build, deps, hasher, salt):
    """The key of a source, or None where the build's dependency record of it is missing or older than its files.
    Paths in the tree are written relative to it, so that a clone elsewhere (CI's clean clone) shares the cache."""
    obj = object_of(entry)
    if obj is None or obj not in deps:
        return None
    obj_path = build / obj
    try:
        obj_mtime = obj_path.stat().st_mtime_ns
        files = [(build / d).resolve() for d in deps[obj]]
        if any(f.stat().st_mtime_ns > obj_mtime for f in files):
            return None
        h = hashlib.sha256(salt)
        h.update(json.dumps([entry, lines], sort_keys=True).replace(str(root), "<root>").encode())
        for f in sorted(set(files)):
            h.update(f"{str(f).replace(str(root), '<root>')}\0{hasher(f)}\n".encode())
    except OSError:  # a dependency that is gone: the record is stale
        return None
    return h.hexdigest()


def run_tidy(tidy, build, source, lines):
    line_filter = json.dumps([{"name": str(source), "lines": lines}])
    proc = subprocess.run([tidy, "-p", str(build), "--quiet", f"--line-filter={line_filter}", *EXTRA_ARGS,
                           str(source)], capture_output=True, text=True, check=False)
    text = proc.stdout + proc.stderr
    noise = ("warnings generated.", "warning generated.", "Suppressed ", "Use -header-filter")
    shown = "\n".join(l for l in text.splitlines() if not any(n in l for n in noise))
    clean = proc.returncode == 0 and "warning: " not in text and "error: " not in text
    return clean, shown


def prune(cache):
    cutoff = time.time() - CACHE_DAYS * 86400
    for entry in cache.glob("*"):
        if entry.stat().st_mtime < cutoff:
            entry.unlink(missing_ok=True)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("build", nargs="?", default=os.environ.get("COSTSCOPE_TIDY_BUILD", "build/ci"))
    parser.add_argument("--source-root", default=str(Path(__file__).resolve().parent.parent))
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    args = parser.parse_args()
    root = Path(args.source_root).resolve()
    build = (root / args.build).resolve() if not Path(args.build).is_absolute() else Path(args.build).resolve()
    tidy = shutil.which("clang-tidy") or shutil.which("clang-tidy-14")
    if not tidy:
        print("check_tidy: clang-tidy is not installed (scripts/setup.sh installs it)")
        return 1
    commands = build / "compile_commands.json"
    if not commands.is_file():
        print(f"check_tidy: no {commands} (configure first)")
        return 1
    config = root / ".clang-tidy"
    if not config.is_file():
        print(f"check_tidy: no {config}")
        return 1

    changed = changed_lines(root)
    if changed is None:
        print(f"check_tidy: {config} is not committed")
        return 1
    entries, seen = [], set()
    for e in json.loads(commands.read_text()):
        source = Path(e["directory"], e["file"]).resolve()
        if source.suffix != ".cpp" or source in seen or source not in changed:
            continue
        seen.add(source)
        entries.append((source, e))

    version = subprocess.run([tidy, "--version"], capture_output=True, text=True, check=False).stdout
    salt = hashlib.sha256(version.encode() + config.read_bytes() + " ".join(EXTRA_ARGS).encode()).digest()
    deps, hasher, cache = ninja_deps(build), Hasher(), cache_dir()
    cache.mkdir(parents=True, exist_ok=True)
    todo, cached = [], 0
    for source, e in entries:
        key = cache_key(e, changed[source], root, build, deps, hasher, salt)
        if key and (cache / key).exists():
            (cache / key).touch()
            cached += 1
        else:
            todo.append((source, key))

    failed = []
    with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
        results = pool.map(lambda item: (item, run_tidy(tidy, build, item[0], changed[item[0]])), todo)
        for (source, key), (clean, shown) in results:
            if clean:
                if key:
                    (cache / key).write_text(f"{source}\n")
            else:
                failed.append(source)
                print(shown)
    prune(cache)
    uncached = sum(1 for _, key in todo if key is None)
    print(f"check_tidy: {len(entries)} C++ file(s) changed since .clang-tidy was added: {cached} clean in the cache ({cache}), {len(todo)} checked"
          + (f" ({uncached} without a current dependency record, not stored)" if uncached else "")
          + f", {len(failed)} with findings")
    if failed:
        print("check_tidy: the findings above are on lines changed since .clang-tidy was added (see .clang-tidy for why)")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
