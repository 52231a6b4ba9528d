#!/usr/bin/env bash
# Process concern: refuses reads and edits of dotenv files. Reads the envelope on stdin.
# Exit 0 allow, 1 block (stdout JSON carries the reason).
envelope="$(cat)"
if printf '%s' "$envelope" | grep -Eq '"file_path":"[^"]*/\.env(\.[a-z]+)?"'; then
  printf '{"reason":"%s"}\n' ".env files hold secrets; ask the user for the value you need"
  exit 1
fi
exit 0
