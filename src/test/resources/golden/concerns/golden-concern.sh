#!/bin/sh
# Process concern of the golden corpus. $1 is the binding's name (gate or advisor). It reads the
# envelope (one line of JSON) on stdin and acts on the payload field "warden_golden": "<name>:<action>":
#   block   → exit 1 with a JSON reason        warn  → exit 2, the message on stderr
#   context → exit 2 with additional_context   crash → exit 3 with a note on stderr
#   opening → exit 0 with a session_start context block ({"context": …})
# (as agent-config reads a concern: stdout that is not a JSON object is never the message, and an
# exit 0 emits nothing but session_start's context, so a concern that adds context elsewhere warns)
# Anything else (including no field, the real captured payloads) → exit 0, no output.
# Shell built-ins only: nothing forks, so the corpus stays fast.
IFS= read -r envelope
case "$envelope" in
  *"\"warden_golden\":\"$1:block\""*) printf '{"reason":"golden %s block"}\n' "$1"; exit 1 ;;
  *"\"warden_golden\":\"$1:warn\""*) printf 'golden %s warning\n' "$1" >&2; exit 2 ;;
  *"\"warden_golden\":\"$1:context\""*) printf '{"additional_context":"golden %s context"}\n' "$1"; exit 2 ;;
  *"\"warden_golden\":\"$1:crash\""*) echo "golden $1 crashed" >&2; exit 3 ;;
  *"\"warden_golden\":\"$1:opening\""*) printf '{"context":"golden %s opening context"}\n' "$1"; exit 0 ;;
esac
exit 0
