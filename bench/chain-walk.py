#!/usr/bin/env python3
"""Walks a Warden ledger's hash chain with hashlib, by Warden's chain rule (LedgerLine, LedgerVerifier):

    bench/chain-walk.py PROJECT [--hash-only]

Segments are the .warden/state/ledger/YYYY-MM.jsonl files, oldest first, read as physical lines
(split at b"\\n"; a last line without one still counts). A chain line is a physical line of at most
64 KiB that starts with "{" and reads as one JSON object under Warden's strict limits: valid UTF-8,
no duplicate key at any level, nesting at most 32 deep, no lone surrogate, no NaN/Infinity. Any
other line (torn) is skipped and the chain runs across it. Each chain line's "prev" must be the
lowercase hex SHA-256 of the previous chain line's exact bytes (without the newline), the first
one's 64 zeros; a "ledger_gap" line is an error; and head.json must name the last physical line of
its segment with that line's hash. Prints chain lines, errors and the last hash; exits 1 when the
chain is broken.

--hash-only hashes every physical line and parses nothing: the floor of any chain walk.
"""
import hashlib
import json
import os
import re
import sys

MAX_LINE = 64 * 1024
MAX_DEPTH = 32
GENESIS = "0" * 64
MONTH = re.compile(rb"^\d{4}-\d{2}\.jsonl$")


class Invalid(Exception):
    pass


def no_duplicates(pairs):
    d = {}
    for k, v in pairs:
        if k in d:
            raise Invalid("duplicate key")
        d[k] = v
    return d


def no_constant(name):
    raise Invalid(name)


def depth(v):
    if isinstance(v, dict):
        return 1 + max((depth(x) for x in v.values()), default=0)
    if isinstance(v, list):
        return 1 + max((depth(x) for x in v), default=0)
    return 0


def lone_surrogate(v):
    if isinstance(v, str):
        return any(0xD800 <= ord(c) <= 0xDFFF for c in v)
    if isinstance(v, dict):
        return any(lone_surrogate(k) or lone_surrogate(x) for k, x in v.items())
    if isinstance(v, list):
        return any(lone_surrogate(x) for x in v)
    return False


decoder = json.JSONDecoder(object_pairs_hook=no_duplicates, parse_constant=no_constant)
fast_decoder = json.JSONDecoder(parse_constant=no_constant)
compact = json.JSONEncoder(separators=(",", ":"), ensure_ascii=False, allow_nan=False)


def chain_object(line):
    """The line's JSON object, or None when it is not a chain line."""
    if len(line) > MAX_LINE or not line.startswith(b"{"):
        return None
    try:
        text = line.decode("utf-8")
        o = fast_decoder.decode(text)
        # Text that re-encodes to itself holds no duplicate key (a duplicate would be lost) and no
        # escape; anything else is parsed again with every check.
        if not isinstance(o, dict) or compact.encode(o) != text:
            o = decoder.decode(text)
    except (ValueError, Invalid, RecursionError):
        return None
    if not isinstance(o, dict):
        return None
    if line.count(b"{") + line.count(b"[") > MAX_DEPTH and depth(o) > MAX_DEPTH:
        return None
    if b"\\u" in line and lone_surrogate(o):
        return None
    return o


def main():
    project = sys.argv[1]
    hash_only = "--hash-only" in sys.argv
    ledger = os.path.join(project, ".warden", "state", "ledger")
    segments = sorted(n for n in os.listdir(ledger) if MONTH.match(n.encode()))
    expected, chain, errors = GENESIS, 0, 0
    physical = {}
    line_hash = {}
    with open(os.path.join(ledger, "head.json"), "rb") as f:
        head = json.loads(f.read())
    for name in segments:
        month = name[:-len(".jsonl")]
        n = 0
        with open(os.path.join(ledger, name), "rb") as f:
            for raw in f:
                n += 1
                line = raw[:-1] if raw.endswith(b"\n") else raw
                if hash_only:
                    expected = hashlib.sha256(line).hexdigest()
                    chain += 1
                    continue
                if month == head["segment"] and n == head["lines"]:
                    line_hash[month] = hashlib.sha256(line).hexdigest()
                o = chain_object(line)
                if o is None:
                    continue
                if o.get("prev") != expected:
                    errors += 1
                if o.get("event") == "ledger_gap":
                    errors += 1
                expected = hashlib.sha256(line).hexdigest()
                chain += 1
        physical[month] = n
    if not hash_only:
        if head["segment"] not in physical or physical[head["segment"]] < head["lines"] \
                or line_hash.get(head["segment"]) != head["hash"]:
            errors += 1
    print("chain_lines=%d errors=%d last=%s" % (chain, errors, expected))
    return 1 if errors else 0


sys.exit(main())
