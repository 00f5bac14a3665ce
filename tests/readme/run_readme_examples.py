#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Runs every command of README.md's fenced sh blocks as a new user would, and fails when one breaks.

The user it plays has cloned the repository and run the first set-up command: a fresh `git clone` of the source
tree (its uncommitted and untracked, not ignored, files laid over HEAD, so that what is tested is what a commit
would hold), the example models that scripts/setup.sh fetched (copied from the source tree's examples/, never
fetched here: the test needs no network), the binaries in build/release/app (a link to this build's, not rebuilt),
an empty HOME and no COSTSCOPE_*, RLX_* or XDG_* variables. The commands of all blocks run in order in one bash
session from the clone's root, each from /dev/null, so that `export`s and files written by one example (a run's
JSON, a calibrated profile) are there for the next, as when a user pastes them one by one. A command ends at an
unescaped end of line; a trailing backslash continues it.

Every command must exit 0, unless its last line ends in a comment `# exit N: TEXT` (the documented status of a
command that needs what the machine may lack, e.g. a GPU): it must then exit N and print TEXT.

A block opts out with an HTML comment on the line before its fence, which the rendered README does not show:
    <!-- readme-test: skip: REASON -->
Keep opt-outs for commands that build the project or install packages, which the suite itself stands for
(`.ci/run` runs the second set-up command); the reason is printed with every run. A block that runs costscope or
costscope-cli cannot opt out, and the scripts and CMake presets that skipped blocks name are still checked to exist.

A missing piece (the clone, the example models, the binaries) fails the test with what to do: it never skips.
usage: run_readme_examples.py --source DIR --bin-dir DIR [--timeout SECONDS] [--keep]
"""
import argparse
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time

SKIP = re.compile(r"^<!--\s*readme-test:\s*skip:\s*(?P<reason>.*?)\s*-->$")
EXPECT = re.compile(r"#\s*exit (?P<code>\d+): (?P<text>.+)$")
SHELL_FENCES = ("```sh", "```bash", "```shell")


class Failure(Exception):
    pass


def blocks(readme_text):
    """(first line number, skip reason or None, [(line number, command)]) for each sh block."""
    lines = readme_text.splitlines()
    found = []
    i = 0
    while i < len(lines):
        if lines[i].strip() in SHELL_FENCES:
            previous = lines[i - 1].strip() if i > 0 else ""
            skip = SKIP.match(previous)
            if previous.startswith("<!--") and "readme-test" in previous and not skip:
                raise Failure(f"README.md:{i}: unreadable marker {previous!r}; "
                              "expected <!-- readme-test: skip: REASON -->")
            if skip and not skip.group("reason"):
                raise Failure(f"README.md:{i}: a skip marker needs a reason")
            start = i + 1
            body = []
            i += 1
            while i < len(lines) and lines[i].strip() != "```":
                body.append((i + 1, lines[i]))
                i += 1
            if i == len(lines):
                raise Failure(f"README.md:{start}: the block is never closed")
            found.append((start, skip.group("reason") if skip else None, commands(body)))
        i += 1
    return found


def commands(body):
    result = []
    pending, first = "", None
    for number, line in body:
        if not pending and (not line.strip() or line.lstrip().startswith("#")):
            continue
        first = first or number
        if line.rstrip().endswith("\\"):
            pending += line.strip()[:-1].strip() + " "
            continue
        result.append((first, pending + line.strip()))
        pending, first = "", None
    if pending:
        raise Failure(f"README.md:{first}: a line continuation runs past the end of its block")
    return result


def expectation(command):
    """(exit status, text its output must hold or None) that a command documents; exit 0 unless it says."""
    expect = EXPECT.search(command)
    return (int(expect.group("code")), expect.group("text").strip().strip('"')) if expect else (0, None)


def check_skipped(source_root, block_start, reason, cmds):
    presets = json.load(open(os.path.join(source_root, "CMakePresets.json")))
    names = {p["name"] for kind in ("configurePresets", "buildPresets", "testPresets") for p in presets.get(kind, [])}
    for number, command in cmds:
        if re.search(r"(?:^|[\s;&|(/])costscope(?:-cli)?(?:\s|$)", command):
            raise Failure(f"README.md:{number}: a block that runs costscope or costscope-cli cannot opt out: "
                          "those are the examples this test is for")
        for script in re.findall(r"(?:^|[\s;&|(])\./(scripts/[\w.-]+)", command):
            path = os.path.join(source_root, script)
            if not (os.path.isfile(path) and os.access(path, os.X_OK)):
                raise Failure(f"README.md:{number}: {script} is not an executable file in the repository")
        for preset in re.findall(r"--preset[ =]([\w-]+)", command):
            if preset not in names:
                raise Failure(f"README.md:{number}: CMake preset {preset!r} is not in CMakePresets.json")
    print(f"  block at README.md:{block_start} not run ({len(cmds)} commands): {reason}")


def check_pictures(clone, readme):
    """Every picture README shows is in the clone and regenerated by scripts/render_screenshots.sh."""
    script = open(os.path.join(clone, "scripts", "render_screenshots.sh"), encoding="utf-8").read()
    for picture in re.findall(r"!\[[^\]]*\]\(([^)\s]+)\)", readme):
        if not os.path.isfile(os.path.join(clone, picture)):
            raise Failure(f"README.md shows {picture}, which is not in the repository")
        if os.path.basename(picture) not in script:
            raise Failure(f"README.md shows {picture}, which scripts/render_screenshots.sh does not regenerate")


def fresh_clone(source, dest):
    def git(*args, cwd=source, **kw):
        return subprocess.run(["git", *args], cwd=cwd, check=True, text=True, capture_output=True, **kw).stdout
    try:
        git("rev-parse", "--verify", "HEAD")
    except (OSError, subprocess.CalledProcessError) as e:
        raise Failure(f"{source} is not a git checkout with a commit (git: {e}); the README test clones it")
    git("clone", "--quiet", source, dest)
    # What a commit of the work tree would hold: tracked changes and untracked files that git does not ignore.
    diff = subprocess.run(["git", "diff", "HEAD", "--binary"], cwd=source, check=True, capture_output=True).stdout
    if diff:
        subprocess.run(["git", "apply", "--whitespace=nowarn"], cwd=dest, input=diff, check=True)
    untracked = git("ls-files", "--others", "--exclude-standard", "-z").split("\0")
    for rel in filter(None, untracked):
        os.makedirs(os.path.dirname(os.path.join(dest, rel)), exist_ok=True)
        shutil.copy2(os.path.join(source, rel), os.path.join(dest, rel))
    if diff or any(untracked):
        print("  the clone holds HEAD plus the work tree's uncommitted changes")


def prepare_user(source, bin_dir, work):
    clone = os.path.join(work, "costscope")
    fresh_clone(source, clone)
    fetched = os.path.join(source, "examples", "onnx")
    if not os.path.isfile(os.path.join(fetched, "FETCHED")):
        raise Failure(f"{fetched} is missing or incomplete: README's ONNX examples need the models that "
                      "scripts/fetch_examples.sh fetches (scripts/setup.sh runs it; it needs PyPI once). "
                      "Run it, then this test again.")
    shutil.copytree(fetched, os.path.join(clone, "examples", "onnx"))
    for exe in ("costscope-cli",):
        if not os.access(os.path.join(bin_dir, exe), os.X_OK):
            raise Failure(f"{bin_dir}/{exe} is missing: build it first")
    os.makedirs(os.path.join(clone, "build", "release"))
    os.symlink(os.path.abspath(bin_dir), os.path.join(clone, "build", "release", "app"))
    home = os.path.join(work, "home")
    os.makedirs(home)
    env = {k: v for k, v in os.environ.items()
           if not k.startswith(("COSTSCOPE_", "RLX_", "XDG_", "CTEST_", "DISPLAY", "WAYLAND_"))}
    # Only the README's own instructions may put costscope-cli on PATH (an installed .deb would hide a broken one).
    env["PATH"] = os.pathsep.join(d for d in env.get("PATH", "/usr/bin:/bin").split(os.pathsep)
                                  if d and not os.path.exists(os.path.join(d, "costscope-cli")))
    env.update(HOME=home, TMPDIR=work, QT_QPA_PLATFORM="offscreen", LC_ALL="C.UTF-8")
    env.pop("OLDPWD", None)
    return clone, env


def script_for(steps, status_file, log_dir):
    out = ["#!/usr/bin/env bash", f"exec 3>>{status_file}"]
    for index, (number, command, _) in enumerate(steps):
        out += [f"printf '%s %s start\\n' {index} \"$(date +%s.%N)\" >&3",
                "{", command, f"}} </dev/null >{log_dir}/{index}.log 2>&1",
                "readme_status=$?",
                f"printf '%s %s exit %s\\n' {index} \"$(date +%s.%N)\" \"$readme_status\" >&3"]
    return "\n".join(out) + "\n"


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--source", required=True)
    parser.add_argument("--bin-dir", required=True)
    parser.add_argument("--timeout", type=float, default=540)
    parser.add_argument("--keep", action="store_true", help="keep the temporary clone and HOME")
    args = parser.parse_args()
    source = os.path.abspath(args.source)
    work = tempfile.mkdtemp(prefix="costscope-readme-")
    try:
        clone, env = prepare_user(source, args.bin_dir, work)
        readme = open(os.path.join(clone, "README.md"), encoding="utf-8").read()
        ci_run = open(os.path.join(clone, ".ci", "run"), encoding="utf-8").read()
        if "./scripts/setup.sh && ./scripts/test.sh" not in ci_run:
            raise Failure(".ci/run no longer runs README's second set-up command ./scripts/setup.sh && ./scripts/test.sh")
        check_pictures(clone, readme)
        steps = []
        for start, reason, cmds in blocks(readme):
            if reason:
                check_skipped(clone, start, reason, cmds)
                continue
            steps += [(number, command, expectation(command)) for number, command in cmds]
        if not steps:
            raise Failure("README.md has no sh block to run")
        # The setup's second half as the clone sees it: the copied models are complete, nothing is fetched.
        fetch = subprocess.run(["scripts/fetch_examples.sh"], cwd=clone, env=env, capture_output=True, text=True)
        if fetch.returncode != 0 or "already" not in fetch.stdout:
            raise Failure(f"scripts/fetch_examples.sh in the clone did not find the models in place:\n"
                          f"{fetch.stdout}{fetch.stderr}")
        print(f"  running {len(steps)} commands in {clone} with HOME={env['HOME']}", flush=True)
        return run_steps(steps, clone, env, work, args.timeout)
    except Failure as e:
        print(f"README test FAILED: {e}")
        return 1
    finally:
        if args.keep:
            print(f"  kept {work}")
        else:
            shutil.rmtree(work, ignore_errors=True)


def run_steps(steps, cwd, env, work, timeout):
    """Runs the steps in order in one bash session; prints each verdict; 0 when all exited as documented."""
    log_dir, status = os.path.join(work, "logs"), os.path.join(work, "status")
    os.makedirs(log_dir)
    open(status, "w").close()
    with open(os.path.join(work, "readme.sh"), "w") as f:
        f.write(script_for(steps, status, log_dir))
    began = time.time()
    timed_out = False
    session = subprocess.Popen(["bash", os.path.join(work, "readme.sh")], cwd=cwd, env=env,
                               stdin=subprocess.DEVNULL, start_new_session=True)
    try:
        session.wait(timeout=timeout)
    except subprocess.TimeoutExpired:
        timed_out = True
        os.killpg(session.pid, signal.SIGKILL)  # the running example too, not only its shell
        session.wait()
    return report(steps, status, log_dir, timed_out, time.time() - began, timeout)


def report(steps, status_file, log_dir, timed_out, elapsed, limit):
    started, ended = {}, {}
    for line in open(status_file).read().splitlines():
        fields = line.split()
        if fields[2] == "start":
            started[int(fields[0])] = float(fields[1])
        else:
            ended[int(fields[0])] = (float(fields[1]), int(fields[3]))
    failed = 0
    for index, (number, command, (code, text)) in enumerate(steps):
        log = open(os.path.join(log_dir, f"{index}.log"), errors="replace").read() if index in started else ""
        if index not in ended:
            verdict = f"TIMED OUT (the whole README past {limit:.0f} s)" if index in started and timed_out \
                else "NOT RUN"
            ok = False
        else:
            seconds = ended[index][0] - started[index]
            rc = ended[index][1]
            ok = rc == code and (text is None or text in log)
            verdict = f"exit {rc} in {seconds:.1f} s" + ("" if ok else
                      f", expected exit {code}" + (f" and {text!r} in its output" if text else ""))
        print(f"{'ok  ' if ok else 'FAIL'} README.md:{number}: {command}\n      {verdict}")
        if not ok:
            failed += 1
            tail = log[-4000:]
            print("      output" + (" (last 4000 characters)" if len(log) > 4000 else "") + ":\n"
                  + "\n".join("      | " + line for line in tail.splitlines()))
    print(f"README commands: {len(steps) - failed} passed, {failed} failed in {elapsed:.0f} s")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
