#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""A stand-in for Ray's Jobs REST API on 127.0.0.1, for the sweep-runs test where no Ray is installed: the calls
costscope-cli makes (POST /api/jobs/, GET /api/jobs/<id>, GET /api/jobs/<id>/logs, POST /api/jobs/<id>/stop), each job
a shell command run here, as Ray's job supervisor would. --fail-first N fails the first N submissions without running
them, to exercise the retries. Prints its port on stdout, then serves until killed."""
import argparse
import json
import os
import signal
import subprocess
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

jobs = {}
lock = threading.Lock()
submissions = 0


def run_job(job_id, entrypoint):
    # A session of its own, so that stop ends the shell's children too (as Ray stops a job's process group); killing
    # the shell alone left costscope-cli running on.
    proc = subprocess.Popen(entrypoint, shell=True, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                            start_new_session=True)
    with lock:
        jobs[job_id]["proc"] = proc
        jobs[job_id]["status"] = "RUNNING"
    out, _ = proc.communicate()
    with lock:
        job = jobs[job_id]
        job["logs"] = out
        if job["status"] != "STOPPED":
            job["status"] = "SUCCEEDED" if proc.returncode == 0 else "FAILED"
            job["message"] = "" if proc.returncode == 0 else f"exit code {proc.returncode}"


class Handler(BaseHTTPRequestHandler):
    fail_first = 0

    def log_message(self, *args):
        pass

    def reply(self, code, body):
        data = json.dumps(body).encode()
        self.send_response(code)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def job(self):
        parts = self.path.strip("/").split("/")  # api jobs <id> [logs|stop]
        with lock:
            return (jobs.get(parts[2]) if len(parts) >= 3 else None), parts[3] if len(parts) > 3 else ""

    def do_POST(self):
        global submissions
        body = json.loads(self.rfile.read(int(self.headers.get("Content-Length", 0))) or b"{}")
        if self.path.rstrip("/") == "/api/jobs":
            job_id = body.get("submission_id")
            with lock:
                if job_id in jobs:
                    return self.reply(400, {"detail": f"Job with submission_id {job_id} already exists."})
                submissions += 1
                fail = submissions <= Handler.fail_first
                jobs[job_id] = {"status": "FAILED" if fail else "PENDING", "logs": "injected failure\n" if fail else "",
                                "message": "injected failure" if fail else "", "entrypoint": body["entrypoint"]}
            if not fail:
                threading.Thread(target=run_job, args=(job_id, body["entrypoint"]), daemon=True).start()
            return self.reply(200, {"job_id": job_id, "submission_id": job_id})
        job, action = self.job()
        if job is None or action != "stop":
            return self.reply(404, {"detail": "no such job"})
        with lock:
            job["status"] = "STOPPED"
            if job.get("proc"):
                try:
                    os.killpg(job["proc"].pid, signal.SIGKILL)
                except ProcessLookupError:  # the job had ended
                    pass
        return self.reply(200, {"stopped": True})

    def do_GET(self):
        job, action = self.job()
        if job is None:
            return self.reply(404, {"detail": "no such job"})
        if action == "logs":
            return self.reply(200, {"logs": job["logs"]})
        return self.reply(200, {"status": job["status"], "message": job["message"], "entrypoint": job["entrypoint"]})


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--fail-first", type=int, default=0)
    Handler.fail_first = parser.parse_args().fail_first
    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    print(server.server_address[1], flush=True)
    server.serve_forever()


if __name__ == "__main__":
    main()
