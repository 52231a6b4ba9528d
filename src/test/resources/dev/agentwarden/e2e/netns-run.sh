#!/usr/bin/env bash
# Runs a command inside the (already unshared) loopback-only network namespace this script starts in:
# brings up lo, starts the loopback forwarder (127.0.0.1:PORT -> SOCKET, a Unix socket the test
# serves from outside), runs the command with stdin from /dev/null, stops the forwarder and exits
# with the command's status.
#
#   netns-run.sh IP PORT SOCKET FORWARDER -- COMMAND [ARG...]
set -u
ip_cmd="$1" port="$2" socket="$3" forwarder="$4"
shift 5
"$ip_cmd" link set lo up || { echo "netns-run: cannot bring up lo" >&2; exit 97; }
exec 3< <(exec node "$forwarder" "$port" "$socket")
forwarder_pid=$!
if ! read -r -t 30 ready <&3 || [ "$ready" != "ready" ]; then
  echo "netns-run: loopback forwarder did not start" >&2
  kill "$forwarder_pid" 2>/dev/null
  exit 98
fi
exec 3<&-
"$@" </dev/null
status=$?
kill "$forwarder_pid" 2>/dev/null
wait "$forwarder_pid" 2>/dev/null
exit "$status"
