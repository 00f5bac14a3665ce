#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""The README test's own parts: a harness that misreads README.md would pass on examples it never ran."""
import os
import shutil
import tempfile
import unittest

import run_readme_examples as harness

README = """# Title

```sh
# a comment line is not a command
costscope-cli info a.json
costscope-cli run a.json --runs 2 \\
    --json > out.json
```

```json
{"not": "shell"}
```

<!-- readme-test: skip: builds everything -->
```sh
./scripts/setup.sh && ./scripts/test.sh
```

```bash
costscope-cli calibrate --backend cuda   # exit 3: no CUDA device
```
"""


class Parsing(unittest.TestCase):
    def test_blocks_commands_markers_and_continuations(self):
        found = harness.blocks(README)
        self.assertEqual([(start, reason) for start, reason, _ in found],
                         [(3, None), (15, "builds everything"), (19, None)])
        self.assertEqual(found[0][2], [(5, "costscope-cli info a.json"),
                                       (6, "costscope-cli run a.json --runs 2 --json > out.json")])
        self.assertEqual(harness.expectation(found[2][2][0][1]), (3, "no CUDA device"))
        self.assertEqual(harness.expectation(found[0][2][0][1]), (0, None))

    def test_a_marker_without_reason_or_misspelt_fails(self):
        for marker in ("<!-- readme-test: skip: -->", "<!-- readme-test skip because -->"):
            with self.assertRaises(harness.Failure):
                harness.blocks(f"{marker}\n```sh\ntrue\n```\n")

    def test_skipped_blocks_may_not_hold_examples_and_name_what_exists(self):
        root = tempfile.mkdtemp(prefix="readme-skip-")
        self.addCleanup(shutil.rmtree, root)
        with open(os.path.join(root, "CMakePresets.json"), "w") as f:
            f.write('{"configurePresets": [{"name": "dev"}]}')
        os.makedirs(os.path.join(root, "scripts"))
        with open(os.path.join(root, "scripts", "ok.sh"), "w") as f:
            f.write("#!/bin/sh\n")
        os.chmod(os.path.join(root, "scripts", "ok.sh"), 0o755)
        harness.check_skipped(root, 1, "reason", [(2, "cmake --preset dev && ./scripts/ok.sh")])
        for command in ("costscope-cli info x.json", "./build/release/app/costscope --screenshot a.png x.json",
                        "cmake --preset nope", "./scripts/missing.sh"):
            with self.assertRaises(harness.Failure, msg=command):
                harness.check_skipped(root, 1, "reason", [(2, command)])

    def test_unclosed_block_and_dangling_continuation_fail(self):
        with self.assertRaises(harness.Failure):
            harness.blocks("```sh\ntrue\n")
        with self.assertRaises(harness.Failure):
            harness.blocks("```sh\ntrue \\\n```\n")


class Running(unittest.TestCase):
    def setUp(self):
        self.work = tempfile.mkdtemp(prefix="readme-harness-")

    def tearDown(self):
        shutil.rmtree(self.work)

    def run_steps(self, commands, timeout=60):
        steps = [(n, c, harness.expectation(c)) for n, c in enumerate(commands, 1)]
        session = tempfile.mkdtemp(dir=self.work)
        return harness.run_steps(steps, session, dict(os.environ), session, timeout)

    def test_state_carries_over_and_redirections_are_the_commands_own(self):
        self.assertEqual(self.run_steps(["export GREETING=hi", "cd /", "echo \"$GREETING\" > $OLDPWD/said.txt",
                                         "test \"$(cat $OLDPWD/said.txt)\" = hi"]), 0)

    def test_a_wrong_exit_or_missing_text_fails(self):
        self.assertEqual(self.run_steps(["false"]), 1)
        self.assertEqual(self.run_steps(["sh -c 'echo no device; exit 3'   # exit 3: no device"]), 0)
        self.assertEqual(self.run_steps(["sh -c 'echo other; exit 3'   # exit 3: no device"]), 1)
        self.assertEqual(self.run_steps(["true   # exit 3: no device"]), 1)

    def test_a_command_that_ends_the_session_fails_the_rest(self):
        self.assertEqual(self.run_steps(["exit 0", "true"]), 1)

    def test_a_hanging_command_is_killed_and_fails(self):
        self.assertEqual(self.run_steps(["sleep 30"], timeout=1), 1)


if __name__ == "__main__":
    unittest.main()
