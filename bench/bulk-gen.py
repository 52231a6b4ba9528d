#!/usr/bin/env python3
"""Writes a project with a generated ledger and decision log for bench/bulk-reads.sh.

    bench/bulk-gen.py PROJECT LINES

PROJECT/.warden/state/ledger/ gets LINES chain lines spread over monthly segments, shaped as
SubagentLedger and SpawnGuard write them (key order, compact JSON, v first and prev last), each
line's prev the SHA-256 of the line before it, and a head.json naming the last line, so that
`warden ledger verify` passes. PROJECT/.warden/state/decisions/ gets LINES decision lines in the
format of DecisionLine. The mix per subagent dispatch: one spawn_guard_shadow line, a
subagent_start and a subagent_stop; now and then a reaped record or an unidentified stop.
Deterministic (fixed seed).
"""
import hashlib
import json
import os
import random
import sys

project, total = sys.argv[1], int(sys.argv[2])
# BULK_ASKED=1: decision lines carry "asked" (bench/report.sh); without it they are as bench/bulk-reads.sh has always read them.
ASKED = os.environ.get("BULK_ASKED") == "1"
rnd = random.Random(12)
ledger_dir = os.path.join(project, ".warden", "state", "ledger")
decision_dir = os.path.join(project, ".warden", "state", "decisions")
os.makedirs(ledger_dir, exist_ok=True)
os.makedirs(decision_dir, exist_ok=True)

MONTHS = ["2026-06", "2026-07", "2026-08", "2026-09", "2026-10", "2026-11"]
TYPES = ["general-purpose", "Explore", "Plan", "code-reviewer", "test-runner"]
ENVELOPES = ["ok"] * 18 + ["no_envelope", "malformed"]
ARMS = [(300000, "5m"), (900000, "15m"), (1800000, "30m")]
CANDIDATES = [("tight", 2, 3), ("default", 3, 6), ("loose", 4, 10)]


def q(s):
    return "null" if s is None else json.dumps(s)


def ts(month, i, per_month):
    # Spread the month's lines over its first 28 days, strictly increasing.
    ms = i * (28 * 86400 * 1000 // max(1, per_month))
    day, rest = divmod(ms, 86400 * 1000)
    h, rest = divmod(rest, 3600 * 1000)
    m, rest = divmod(rest, 60 * 1000)
    s, milli = divmod(rest, 1000)
    return "%s-%02dT%02d:%02d:%02d.%03dZ" % (month, day + 1, h, m, s, milli)


def ref(n):
    return hashlib.sha256(b"agent-%d" % n).hexdigest()[:12]


def session(n):
    return "sess-%06d" % (n // 40)


def guard(t, sess, open_now, caller):
    depth = None if caller is None else 2
    cands = ",".join('{"label":"%s","max_depth":%d,"max_concurrent":%d,"would_deny":%s,"on":[%s]}'
                     % (label, md, mc, "true" if open_now >= mc else "false", '"concurrent"' if open_now >= mc else "")
                     for label, md, mc in CANDIDATES)
    return ('"event":"spawn_guard_shadow","ts":"%s","session_id":%s,"tool":"Task","posture":"shadow",'
            '"concurrent_open":%d,"concurrent_scope":"workspace","workspace_open":%d,"caller_ref":%s,'
            '"depth_basis":"%s","spawn_depth":%s,"depth_estimate":%d,'
            '"depth_estimate_basis":"deepest-open-record-plus-one","depth_usable_for_derivation":%s,'
            '"ledger_present":true,"stale_open_excluded":0,"invalid_open_excluded":0,"candidates":[%s]'
            % (t, q(sess), open_now, open_now, q(caller), "caller-open-record" if caller else "no-caller-agent-id",
               "null" if depth is None else depth, open_now + 1, "true" if caller else "false", cands))


def start(t, r, sess, typ, open_now):
    return ('"event":"subagent_start","ts":"%s","ref":"%s","session_id":%s,"agent_type":%s,"parent_ref":null,'
            '"depth":1,"depth_basis":"assumed-root","concurrent_open":%d,"session_open":%d'
            % (t, r, q(sess), q(typ), open_now, open_now))


def stop(t, r, sess, typ, duration, open_now):
    arms = ",".join('"%s"' % label for ms, label in ARMS if duration > ms)
    env = rnd.choice(ENVELOPES)
    problem = ',"envelope_problem":"missing_status"' if env == "malformed" else ""
    return ('"event":"subagent_stop","ts":"%s","ref":"%s","session_id":%s,"agent_type":%s,"depth":1,'
            '"depth_basis":"assumed-root","duration_ms":%d,"stop_loss_arms_exceeded":[%s],"start_seen":true,'
            '"envelope_parse":"%s"%s,"concurrent_open":%d,"session_open":%d'
            % (t, r, q(sess), q(typ), duration, arms, env, problem, open_now, open_now))


def reaped(t, r, sess, typ):
    return ('"event":"subagent_reaped","ts":"%s","ref":"%s","session_id":%s,"agent_type":%s,"depth":1,'
            '"depth_basis":"assumed-root","age_ms":14400512,"reason":"ttl_expired","ttl_ms":14400000'
            % (t, r, q(sess), q(typ)))


def unidentified(t, sess, typ):
    return ('"event":"subagent_stop","ref":null,"ts":"%s","unidentified":true,"session_id":%s,"agent_type":%s,'
            '"reason":"no_agent_id"' % (t, q(sess), q(typ)))


def ledger_bodies():
    """Line bodies (between v and prev), in order, forever."""
    n = 0
    while True:
        n += 1
        sess, typ, r = session(n), rnd.choice(TYPES), ref(n)
        open_now = rnd.choice([0, 0, 0, 1, 1, 2, 3, 5])
        caller = ref(n - 1) if n % 7 == 0 else None
        duration = int(rnd.lognormvariate(11.5, 1.1))
        kind = rnd.random()
        yield lambda t: guard(t, sess, open_now, caller)
        if kind < 0.01:
            yield lambda t: unidentified(t, sess, typ)
            continue
        yield lambda t: start(t, r, sess, typ, open_now + 1)
        if kind < 0.02:
            yield lambda t: reaped(t, r, sess, typ)
        else:
            yield lambda t: stop(t, r, sess, typ, duration, open_now)


def write_ledger():
    per_month = -(-total // len(MONTHS))
    prev = "0" * 64
    bodies = ledger_bodies()
    written = 0
    last_month, last_lines = None, 0
    for month in MONTHS:
        lines = min(per_month, total - written)
        if lines <= 0:
            break
        with open(os.path.join(ledger_dir, month + ".jsonl"), "wb") as out:
            buf = []
            for i in range(lines):
                body = next(bodies)(ts(month, i, lines))
                line = ('{"v":1,%s,"prev":"%s"}' % (body, prev)).encode()
                prev = hashlib.sha256(line).hexdigest()
                buf.append(line)
                if len(buf) == 10000:
                    out.write(b"\n".join(buf) + b"\n")
                    buf = []
            if buf:
                out.write(b"\n".join(buf) + b"\n")
        written += lines
        last_month, last_lines = month, lines
    head = '{"v":1,"segment":"%s","lines":%d,"hash":"%s"}' % (last_month, last_lines, prev)
    with open(os.path.join(ledger_dir, "head.json"), "w") as out:
        out.write(head + " " * (159 - len(head)) + "\n")


CONCERNS = [("block-no-verify", "blocking", ["Bash"]), ("protect-warden", "blocking", ["Bash", "Edit", "Write"]),
            ("spawn-guard", "shadow", ["Task", "Agent"]), ("sudo-shadow", "shadow", ["Bash"])]
EVENTS = [("pre_tool_use", "PreToolUse")] * 6 + [("post_tool_use", "PostToolUse")] * 2 + [
    ("subagent_stop", "SubagentStop"), ("user_prompt_submit", "UserPromptSubmit")]
TOOLS = ["Bash"] * 5 + ["Edit", "Read", "Write", "Task", "Grep"]
MANIFEST = '{"source":"/work/project/.warden/manifest.yaml","sha256":"%s"}' % hashlib.sha256(b"manifest").hexdigest()


def decision(t, n):
    event, native = rnd.choice(EVENTS)
    tool = rnd.choice(TOOLS) if event.endswith("tool_use") else None
    chain, verdict, emitted = [], "allow", "none"
    for name, posture, tools in CONCERNS if event == "pre_tool_use" else CONCERNS[:1]:
        us = rnd.randint(3, 900)
        if tool not in tools:
            chain.append('{"name":"%s","posture":"%s","outcome":"skipped","skipped":"tools_filter","effective":null,'
                         '"would_block":false,"reason":null,"reason_sha256":null,"note":null,"exit_code":null,'
                         '"elapsed_us":null}' % (name, posture))
            continue
        outcome = "block" if rnd.random() < 0.03 else "allow"
        would = posture == "shadow" and outcome == "block"
        if outcome == "block" and posture == "blocking":
            verdict, emitted = "block", "deny"
        chain.append('{"name":"%s","posture":"%s","outcome":"%s","skipped":null,"effective":"%s","would_block":%s,'
                     '"reason":null,"reason_sha256":%s,"note":null,"exit_code":null,"elapsed_us":%d}'
                     % (name, posture, outcome, "allow" if would or outcome == "allow" else "block",
                        "true" if would else "false",
                        q(hashlib.sha256(name.encode()).hexdigest()) if outcome == "block" else "null", us))
    asked = ""
    if ASKED:
        # what was asked (format since issue 31), from n alone so that the other fields stay as without it
        text = ("rm -rf build-%d" % (n % 500) if tool == "Bash" else "src/main/F%d.java" % (n % 2000) if tool
                else "prompt %d" % (n % 100) if event == "user_prompt_submit" else None)
        asked = ',"asked":%s' % q(text)
    return ('{"v":1,"ts":"%s","host":"claude","event":"%s","native_event":"%s","session_id":"%s","ref":%s,'
            '"tool":%s,"tool_input_sha256":%s%s,"transport":"resident","manifest":%s,"role":"","concerns":[%s],'
            '"verdict":"%s","emitted":"%s","downgrades":[],"fail_mode":null,"problem":null,"elapsed_us":%d}'
            % (t, event, native, session(n), q(ref(n) if n % 3 == 0 else None), q(tool),
               q(hashlib.sha256(b"%d" % n).hexdigest()) if tool else "null", asked, MANIFEST, ",".join(chain), verdict,
               emitted, rnd.randint(300, 4000)))


def write_decisions():
    per_month = -(-total // len(MONTHS))
    written = 0
    for month in MONTHS:
        lines = min(per_month, total - written)
        if lines <= 0:
            break
        with open(os.path.join(decision_dir, month + ".jsonl"), "w") as out:
            buf = []
            for i in range(lines):
                buf.append(decision(ts(month, i, lines), written + i))
                if len(buf) == 10000:
                    out.write("\n".join(buf) + "\n")
                    buf = []
            if buf:
                out.write("\n".join(buf) + "\n")
        written += lines


write_ledger()
write_decisions()
