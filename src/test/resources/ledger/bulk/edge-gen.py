#!/usr/bin/env python3
"""Writes the edge-case fixtures of BulkReadEquivalenceTest (run once; the outputs are frozen):

    python3 src/test/resources/ledger/bulk/edge-gen.py

ledger/bulk/edge/2026-10.jsonl: the clean segment with odd lines put between Warden's: malformed,
truncated, unicode escapes (good and lone surrogates), escaped and duplicate keys, raw UTF-8 (valid
and not), numbers at and past the edges, deep nesting, whitespace and CRLF, an overlong line, and a
last line with no newline. decision/bulk-edge/2026-10.jsonl: the same kinds of line for the
decision log, plus fields of unexpected types (the test puts a line over the reader's limit before
them). The expected outputs (edge-*.json) are what the
readers before the word scanner printed.
"""
import os

here = os.path.dirname(os.path.abspath(__file__))
root = os.path.dirname(os.path.dirname(here))

STOP = ('{"v":1,"event":"subagent_stop","ts":"2026-10-02T00:00:00.000Z","ref":"aaaaaaaaaaaa","session_id":"%s",'
        '"agent_type":"%s","depth":1,"depth_basis":"assumed-root","duration_ms":%s,"stop_loss_arms_exceeded":%s,'
        '"start_seen":true,"envelope_parse":"%s","concurrent_open":1,"session_open":1,"prev":"%s"}')
PREV = "0" * 64
SHADOW = ('{"v":1,"event":"spawn_guard_shadow","ts":"%s","session_id":"s","tool":"Task","posture":"%s",'
          '"concurrent_open":%s,"spawn_depth":%s,"depth_usable_for_derivation":%s,"candidates":%s,"prev":"%s"}')

odd_ledger = [
    b'{"v":1,"event":"subagent_stop"',                                         # truncated
    b'not json at all',
    b'',
    b'[1,2,3]',
    b'{"v":1,"event":"subagent_stop",}',                                       # trailing comma
    (STOP % ("s\\u00e9ance", "Expl\\u006fre", "1000", '["5m"]', "ok", PREV)).encode(),    # good \u escapes
    (STOP % ("s\\ud800", "Plan", "1000", '[]', "ok", PREV)).encode(),                   # lone surrogate
    (STOP % ("s", "Plan", "2000", '["5m","1\\u0035m"]', "ok", PREV)).encode(),          # escape in an array
    (STOP % ("s", "Plan", "3000", "[]", "ok", PREV)).encode().replace(b'"depth":1,', b'"depth":1,"depth":2,'),
    (STOP % ("s", "Plan", "4000", '[]', "ok", PREV)).encode().replace(b'"agent_type"', b'"agent_typ\\u0065"'),
    (STOP % ("s", "Plan", "5000", '[]', "ok", PREV)).encode().replace(b'"event":"subagent_stop"',
                                                                     b'"event":"subagent_stop","ev\\u0065nt":"x"'),
    (STOP % ("séance", "Plan", "6000", '[]', "ok", PREV)).encode("utf-8"),             # raw UTF-8
    (STOP % ("s", "Plan", "7000", '[]', "ok", PREV)).encode().replace(b'"s"', b'"s\xff\xfe"'),  # bad UTF-8
    (STOP % ("s", "Plan", "8000", '[]', "ok", PREV)).encode().replace(b'"s"', b'"s\x01"'),      # control byte
    (STOP % ("s", "Plan", "1e400", '[]', "ok", PREV)).encode(),
    (STOP % ("s", "Plan", "12345678901234567890", '[]', "ok", PREV)).encode(),
    (STOP % ("s", "Plan", "123456789012345678", '[]', "ok", PREV)).encode(),
    (STOP % ("s", "Plan", "-0", '[]', "ok", PREV)).encode(),
    (STOP % ("s", "Plan", "9000.0", '[]', "ok", PREV)).encode(),
    (STOP % ("s", "Plan", "01", '[]', "ok", PREV)).encode(),
    (STOP % ("s", "Plan", "1.5e3", '[]', "ok", PREV)).encode(),
    (STOP % ("s", "Plan", "true", '"5m"', "ok", PREV)).encode(),
    (STOP % ("s", "Plan", "10000", '[' * 40 + ']' * 40, "ok", PREV)).encode(),         # too deep
    (STOP % ("s", "Plan", "11000", '[["5m"],"15m",{"a":"b"}]', "ok", PREV)).encode(),
    b' \t' + (STOP % ("s", "Plan", "12000", '[ "5m" , "30m" ]', "ok", PREV)).encode().replace(b',', b' , ') + b' \r',
    (STOP % ("s", "Plan", "13000", '[]', "ok\\n", PREV)).encode(),
    (STOP % ("s", "x" * 70000, "14000", '[]', "ok", PREV)).encode(),                  # overlong
    (STOP % ("s", "Plan", "15000", '[]', "ok", PREV)).encode().replace(b'"v":1,', b'"v":1,' + b'"k":0,' * 80),
    (SHADOW % ("2026-10-03T00:00:00.000Z", "shadow", "4", "2", "true",
               '[{"label":"tight","max_depth":2,"max_concurrent":3,"would_deny":true,"on":["concurrent"]},'
               '{"label":"t\\u0069ght","max_depth":2,"max_concurrent":3,"would_deny":true,"on":[]},'
               '{"label":"loose","label":"dup","would_deny":false},7,null,'
               '{"label":"wide","max_depth":1.5,"max_concurrent":[1],"would_deny":"yes"}]', PREV)).encode(),
    (SHADOW % ("2026-10-03T00:00:01Z", "enforce", "3", "null", "false", '[]', PREV)).encode(),
    (SHADOW % ("not a time", "shadow", "3", "1", "true", '[]', PREV)).encode(),
    (SHADOW % ("2026-02-30T00:00:00.000Z", "shadow", "3", "1", "true", '[]', PREV)).encode(),
    (SHADOW % ("2026-10-03T00:00:02.000Z", "shadow", "2.0", "1", "true", '[]', PREV)).encode(),
    b'{"v":1,"event":"subagent_start","ts":"2026-10-04T00:00:00.000Z","agent_type":7,"session_id":{"a":1},"prev":"x"}',
    b'{"v":1,"event":"subagent_reaped","agent_type":null,"session_id":null,"unidentified":false}',
    b'{"v":1,"event":"subagent_stop","unidentified":true,"agent_type":"Plan","session_id":"u"}',
    b'{"v":1,"event":"ledger_gap","detail":"x"}',
    b'{"v":1,"event":"subagent_\\u0073top","agent_type":"Plan","duration_ms":1}',
]


def ledger():
    with open(os.path.join(here, "clean", "2026-10.jsonl"), "rb") as f:
        clean = f.read().split(b"\n")[:-1]
    out = []
    for i, line in enumerate(clean):
        out.append(line)
        if i % 5 == 2 and odd_ledger:
            out.append(odd_ledger.pop(0))
    out.extend(odd_ledger)
    body = b"\n".join(out) + b"\n" + clean[-1][:40]                               # torn last line
    with open(os.path.join(here, "edge", "2026-10.jsonl"), "wb") as f:
        f.write(body)


DEC = ('{"v":1,"ts":"2026-10-01T00:00:%02d.000Z","host":%s,"event":%s,"native_event":%s,"session_id":"s","ref":null,'
       '"tool":"Bash","manifest":{"source":"/m","sha256":"00"},"role":"","concerns":%s,"verdict":%s,"emitted":"none",'
       '"downgrades":[],"fail_mode":null,"problem":null,"elapsed_us":1}')
C = '{"name":%s,"posture":%s,"outcome":%s,"skipped":null,"would_block":%s,"reason":null,"elapsed_us":3}'


def d(*fields):
    return DEC % fields


def decisions():
    good = C % ('"sudo-shadow"', '"shadow"', '"block"', 'true')
    lines = [
        d(1, '"claude"', '"pre_tool_use"', '"PreToolUse"', '[' + good + ']', '"allow"'),
        d(2, '"claude"', '"pre_tool_use"', 'null', '[' + good + ']', '"block"'),
        d(3, '"claude"', '"pre_tool_use"', '"null"', '[]', '"allow"'),
        d(4, '5', '{"a":1}', '[1]', '[' + good + ',7]', 'true'),
        d(5, '"cl\\u0061ude"', '"pre_tool_use"', '"PreToolUse"', '[' + good + ']', '"allow"'),
        d(6, '"claude"', '"pre_tool_use"', '"PreToolUse"',
               '[' + C % ('"a"', '"shadow"', '"skipped"', 'true') + ',' + C % ('null', '"sh\\u0061dow"', '5', 'true') + ']',
               '"warn"'),
        d(7, '"claude"', '"pre_tool_use"', '"PreToolUse"',
               '[' + good.replace('"name"', '"name":"dup","name"') + ']', '"allow"'),
        d(8, '"claude"', '"e"', '"E"', '[' + good + ']', '"allow"').replace('"role"', '"host":"codex","role"'),
        d(9, '"séance"', '"e"', '"E"', '{"name":"x"}', '"allow"'),
        (DEC % (10, '"s"', '"e"', '"E"', '[]', '"allow"')).replace('"s"', '"s\udcff"'),
        d(11, '"claude"', '"e"', '"E"', '[' + good + ']', '"allow"')[:-30],
        '{"v":1}',
        '[]',
        'garbage',
        '',
        d(12, '"claude"', '"e"', '"E"', '[' + '[' * 300 + ']' * 300 + ']', '"allow"'),
        d(13, '"claude"', '"e\\t"', '"E\\t"', '[' + good + ']', '"allow"'),
        d(14, '"claude"', '"e"', '"E"', '[' + good + ']', '"allow"').replace('"tool"', '"t\\u006fol"'),
        d(15, '"claude"', '"e"', '"E"', '[' + good + ']', '"allow"').replace(',', ' , '),
        d(16, '"claude"', '"e"', '"E"', '[' + (C % ('"n"', '"shadow"', '"allow"', 'false')) * 1 + ']', '"allow"')
        + ' \r',
        d(17, '"claude"', '"e"', '"E"', '["x" , ' + good + ']', '"allow"'),
    ]
    data = "\n".join(lines).encode("utf-8", "surrogateescape") + b"\n" + b'{"v":1,"ts":"2026'
    with open(os.path.join(root, "decision", "bulk-edge", "2026-10.jsonl"), "wb") as f:
        f.write(data)


ledger()
decisions()
