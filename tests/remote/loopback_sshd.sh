#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Starts an OpenSSH server (Debian openssh-server) on 127.0.0.1, on a free port, as the current user, with
# throwaway keys, all in DIR: the remote host of the remote-run tests and benchmark. Nothing leaves loopback.
#   loopback_sshd.sh start DIR   -> DIR/port, DIR/sshd.pid, DIR/client_key, DIR/ssh_options (one K=V a line)
#   loopback_sshd.sh stop DIR
# Exit 77 (with the reason on stderr) where no server can be started here.
set -euo pipefail
cmd=${1:?start|stop}
dir=${2:?DIR}
case "$cmd" in
stop)
  [ -f "$dir/sshd.pid" ] && kill "$(cat "$dir/sshd.pid")" 2>/dev/null || true
  exit 0
  ;;
start) ;;
*) echo "usage: $0 start|stop DIR" >&2; exit 2 ;;
esac
sshd=$(command -v sshd || echo /usr/sbin/sshd)
[ -x "$sshd" ] || { echo "no sshd (apt-get install openssh-server)" >&2; exit 77; }
command -v ssh-keygen >/dev/null || { echo "no ssh-keygen (apt-get install openssh-client)" >&2; exit 77; }
mkdir -p "$dir"
dir=$(cd "$dir" && pwd)
ssh-keygen -q -t ed25519 -N '' -f "$dir/host_key" <<<y >/dev/null
ssh-keygen -q -t ed25519 -N '' -f "$dir/client_key" <<<y >/dev/null
cp "$dir/client_key.pub" "$dir/authorized_keys"
# sshd run by root wants its privilege-separation directory; as another user it runs without one.
if [ "$(id -u)" -eq 0 ]; then mkdir -p /run/sshd; fi
sftp=$(ls /usr/lib/openssh/sftp-server /usr/libexec/openssh/sftp-server 2>/dev/null | head -n 1 || true)
for attempt in 1 2 3 4 5; do
  port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
  cat >"$dir/sshd_config" <<CONF
Port $port
ListenAddress 127.0.0.1
HostKey $dir/host_key
AuthorizedKeysFile $dir/authorized_keys
PidFile $dir/sshd.pid
StrictModes no
UsePAM no
PubkeyAuthentication yes
PasswordAuthentication no
KbdInteractiveAuthentication no
PermitRootLogin prohibit-password
AllowUsers $(id -un)
MaxSessions 50
AcceptEnv XDG_DATA_HOME
MaxStartups 50
LogLevel ERROR
${sftp:+Subsystem sftp $sftp}
CONF
  rm -f "$dir/sshd.pid"
  "$sshd" -f "$dir/sshd_config" -E "$dir/sshd.log" || { echo "sshd did not start: $(tail -n 3 "$dir/sshd.log")" >&2; exit 77; }
  for _ in $(seq 50); do
    if [ -s "$dir/sshd.pid" ] && (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null; then
      echo "$port" >"$dir/port"
      printf '%s\n' "StrictHostKeyChecking=no" "UserKnownHostsFile=$dir/known_hosts" "LogLevel=ERROR" \
        >"$dir/ssh_options"
      exit 0
    fi
    sleep 0.1
  done
  [ -f "$dir/sshd.pid" ] && kill "$(cat "$dir/sshd.pid")" 2>/dev/null || true
done
echo "sshd did not listen: $(tail -n 3 "$dir/sshd.log")" >&2
exit 77
