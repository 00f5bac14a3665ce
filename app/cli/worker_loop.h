// SPDX-License-Identifier: MIT
#pragma once
// The host side of engine/remote/remote_worker.h: requests of newline-delimited JSON, each a command line of this
// CLI run in a child (no login shell), answered on the same stream:
//   request  {"token": T, "args": ["run", FILE, ...], "required": [FILE, ...]}
//   answers  {"err": LINE} as the command writes to stderr, {"alive": true} each second of silence, and last
//            {"exit": N, "out": STDOUT, "version": V} (with "signal" when it died of one, "missing" with exit 87
//            when required files are not there) or {"error": "busy"|"stale"|"token"|"request"}.
// The request is killed when its stream reaches end of file (the client, or its connection, gone).
#include <string>

namespace costscope::cli {

// Serves requests on stdin, answers on stdout, one at a time, until stdin closes; each runs in a fork of this one.
int serveStdin();

// Serves requests from 127.0.0.1 connections on `listener` (one each, the token required, one at a time: another
// connection meanwhile is answered "busy"), each by running `watched` (the CLI file that started it, as the one-shot
// way runs it), until that file is replaced ("stale"), or after `idleS` seconds without a request.
int serveListener(int listener, const std::string& token, const std::string& watched, int idleS);

// The identity of a file (device, inode, size, times): another one after a reinstall. "" when it is not there.
std::string fileIdentity(const std::string& path);

} // namespace costscope::cli
