#!/usr/bin/env bash
# Latency the `warden launch --observe-prompt` model proxy adds to one model request: a Copilot-shaped
# Chat Completions request (a 22 KB system prompt holding an 83 KB Squad coordinator's body in
# <agent_instructions>, plus a user message) POSTed to a local SSE upstream, side by side:
#   - direct        to the upstream
#   - through proxy the same request through the proxy (parse, locate, SHA-256, six evidence lines
#                   with two fsyncs, forward over a fresh loopback connection, stream back)
# Requests alternate (direct, proxy, direct, ...) so both see the same machine noise. Each is timed to
# the first body byte and to the last; the upstream answers at once with a 3-event SSE stream.
# Prints p50 and p95 of each and the median difference.
#
#   bench/observe-prompt-latency.sh [REQUESTS]      default 200 of each
set -euo pipefail
source "$(dirname "$0")/lib.sh"
requests="${1:-200}"
cd "$work"
mkdir -p .github/agents
python3 - "$work/.github/agents/squad.agent.md" <<'PY'
import sys
lines = ['---', 'name: Squad', 'description: "Your AI team."', 'tools: ["*"]', '---',
         '<!-- SQUAD_COORDINATOR_CANARY_HEAD_b7d2 -->', '<!-- version: 0.13.1 -->']
i = 0
while sum(len(l) + 1 for l in lines) < 82900:
    lines.append('- Rule %04d: route the request to the team member who owns it, and record it.' % i)
    i += 1
lines.append('<!-- SQUAD_COORDINATOR_CANARY_a8f3 -->')
open(sys.argv[1], 'w').write('\n'.join(lines) + '\n')
PY
cat > "$work/upstream.py" <<'PY'
import http.server, sys
SSE = (b'data: {"id":"c","object":"chat.completion.chunk","choices":[{"index":0,"delta":{"content":"hi"}}]}\n\n'
       b'data: {"id":"c","object":"chat.completion.chunk","choices":[{"index":0,"delta":{},"finish_reason":"stop"}]}\n\n'
       b'data: [DONE]\n\n')
class H(http.server.BaseHTTPRequestHandler):
    protocol_version = 'HTTP/1.1'
    def log_message(self, *a): pass
    def do_POST(self):
        self.rfile.read(int(self.headers.get('content-length', 0)))
        self.send_response(200)
        self.send_header('content-type', 'text/event-stream')
        self.send_header('connection', 'close')
        self.end_headers()
        self.wfile.write(SSE); self.wfile.flush()
        self.close_connection = True
s = http.server.ThreadingHTTPServer(('127.0.0.1', 0), H)
print(s.server_address[1], flush=True)
s.serve_forever()
PY
cat > "$work/client.py" <<'PY'
import http.client, json, os, sys, time, urllib.parse
n, upstream, out = int(sys.argv[1]), sys.argv[2], sys.argv[3]
proxy = os.environ['WARDEN_PROXY_URL']
body_text = open('.github/agents/squad.agent.md').read().split('---\n', 2)[2].strip()
system = 'You are the GitHub Copilot CLI.\n' + 'x' * 22000 + '\n<agent_instructions>\nThe following instructions come from the selected agent\'s configuration.\n\n' + body_text + '\n</agent_instructions>\n'
req = json.dumps({'model': 'gpt-4.1', 'stream': True, 'messages': [{'role': 'system', 'content': system},
      {'role': 'user', 'content': 'say hi'}]}).encode()
def once(base):
    u = urllib.parse.urlsplit(base + '/chat/completions')
    t0 = time.perf_counter()
    c = http.client.HTTPConnection(u.hostname, u.port, timeout=30)
    c.request('POST', u.path, req, {'content-type': 'application/json', 'authorization': 'Bearer test'})
    r = c.getresponse()
    first = r.read(1)
    t1 = time.perf_counter()
    rest = r.read()
    t2 = time.perf_counter()
    c.close()
    assert r.status == 200 and first, (r.status, first + rest)
    return (t1 - t0) * 1000, (t2 - t0) * 1000
for _ in range(20):
    once(upstream); once(proxy)
with open(out, 'w') as f:
    for _ in range(n):
        d = once(upstream); p = once(proxy)
        f.write('%.3f %.3f %.3f %.3f\n' % (d[0], d[1], p[0], p[1]))
print('request bytes', len(req), file=sys.stderr)
PY
python3 "$work/upstream.py" > "$work/port" &
upstream_pid=$!
trap 'kill "$upstream_pid" 2>/dev/null || true; rm -rf "$work"' EXIT
for _ in $(seq 100); do [ -s "$work/port" ] && break; sleep 0.05; done
base="http://127.0.0.1:$(cat "$work/port")/v1"
"$home/bin/warden" launch --observe-prompt --upstream "$base" --agent-id squad --client-id copilot-cli \
    --client-version 1.0.102 --agent-version 0.13.1 -- python3 "$work/client.py" "$requests" "$base" "$work/times" \
    2> "$work/launch.err" || { tail -20 "$work/launch.err"; exit 1; }
awk '{print $1}' "$work/times" > "$work/d_first"; awk '{print $2}' "$work/times" > "$work/d_last"
awk '{print $3}' "$work/times" > "$work/p_first"; awk '{print $4}' "$work/times" > "$work/p_last"
awk '{print $4 - $2}' "$work/times" > "$work/diff"
grep -c 'forwarded; gate' "$work/launch.err" > "$work/gated"
sed -n 's/.*forwarded; gate \([0-9]*\) us$/\1/p' "$work/launch.err" | awk '{print $1 / 1000}' > "$work/gate_ms"
printf '%-28s %10s %10s\n' "request ($requests each)" "p50 ms" "p95 ms"
printf '%-28s %10s %10s\n' "direct, first byte" "$(pct "$work/d_first" 0.5 2)" "$(pct "$work/d_first" 0.95 2)"
printf '%-28s %10s %10s\n' "direct, last byte" "$(pct "$work/d_last" 0.5 2)" "$(pct "$work/d_last" 0.95 2)"
printf '%-28s %10s %10s\n' "through proxy, first byte" "$(pct "$work/p_first" 0.5 2)" "$(pct "$work/p_first" 0.95 2)"
printf '%-28s %10s %10s\n' "through proxy, last byte" "$(pct "$work/p_last" 0.5 2)" "$(pct "$work/p_last" 0.95 2)"
printf 'median added per request (last byte, paired): %s ms; requests gated and forwarded: %s\n' \
    "$(pct "$work/diff" 0.5 2)" "$(cat "$work/gated")"
printf 'of which the gate (parse, locate, SHA-256, evidence with its fsyncs): p50 %s ms, p95 %s ms\n' \
    "$(pct "$work/gate_ms" 0.5 2)" "$(pct "$work/gate_ms" 0.95 2)"
