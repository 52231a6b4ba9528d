#!/usr/bin/env python3
"""The resident's own share of a compiled-hook event: connect to <key>.sock, send the request the
compiled hook sends (warden-forward/1 records of this process, the payload with its cwd set to
PROJECT), read to EOF. Prints the p50 of each window of event numbers, so a resident's warm-up shows.

    bench/hook-roundtrip.py RESIDENT_DIR PROJECT PAYLOAD [EVENTS]     default 1000 events
"""
import glob
import json
import os
import socket
import sys
import time


def request(token, project, payload):
    body = bytearray(b"warden-forward/1\0")
    for kind, text in [("d", project)] + [("a", a) for a in
                                         ["dispatch", "--host", "claude", "--native-event", "PreToolUse"]]:
        body += (kind + text).encode() + b"\0"
    for name, value in os.environ.items():
        if name.replace("_", "a").isalnum() and not name[0].isdigit():
            body += ("e" + name + "=" + value).encode() + b"\0"
    body += b"\0" + payload
    head = ("POST /forward HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer %s\r\n"
            "Content-Type: application/octet-stream\r\nContent-Length: %d\r\n"
            "X-Warden-Sent: %d\r\nConnection: close\r\n\r\n") % (token, len(body), time.monotonic_ns())
    return head.encode() + bytes(body)


def main():
    rdir, project, payload_file = sys.argv[1:4]
    events = int(sys.argv[4]) if len(sys.argv) > 4 else 1000
    endpoint = glob.glob(os.path.join(rdir, "*.endpoint"))[0]
    token = open(endpoint).read().split()[1]
    sock = endpoint[:-len(".endpoint")] + ".sock"
    p = json.load(open(payload_file))
    p["cwd"] = project
    payload = json.dumps(p).encode()
    times = []
    for _ in range(events):
        r = request(token, project, payload)
        s = time.perf_counter()
        c = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        c.connect(sock)
        c.sendall(r)
        answer = b""
        while True:
            b = c.recv(65536)
            if not b:
                break
            answer += b
        c.close()
        times.append((time.perf_counter() - s) * 1000)
        if not answer.startswith(b"HTTP/1.1 200 "):
            sys.exit("the resident answered: %r" % answer[:200])
    edges = [0, 100, 300, 1000, 2000, 4000, 8000]
    print("events   p50 ms   (round trip connect..EOF)")
    for a, b in zip(edges, edges[1:]):
        w = sorted(times[a:b])
        if w:
            print("%5d-%-5d %6.3f" % (a + 1, min(b, len(times)), w[len(w) // 2]))


main()
