// Drives Warden's bridge plugin as OpenCode would, against a fake launcher; prints one JSON object.
// argv: <bridge with the fake launcher> <bridge with a missing launcher> <project directory>
// The fake launcher (written by the test) saves its stdin as $dir/calls/<n>.json and answers with
// $dir/answer (stdout), exits with $dir/exit, or sleeps when $dir/sleep exists.
import { rmSync, writeFileSync } from "node:fs";

const [bridgePath, missingPath, dir] = process.argv.slice(2);
const { WardenBridge } = await import(bridgePath);
const { WardenBridge: Missing } = await import(missingPath);
const aborted = [];
const client = { session: { abort: async ({ path }) => aborted.push(path.id) } };
const hooks = await WardenBridge({ directory: dir, client });
const missing = await Missing({ directory: dir, client });
const results = {};

function setAnswer(answer, exit) {
  writeFileSync(dir + "/answer", answer ?? "");
  writeFileSync(dir + "/exit", String(exit ?? 0));
}

async function outcome(run) {
  try {
    await run();
    return { threw: null };
  } catch (e) {
    return { threw: e.message };
  }
}

const before = (sessionID, command) => [{ tool: "bash", sessionID, callID: "c1" }, { args: { command } }];

setAnswer('{"decision":"deny","reason":"[warden] DENY-1"}');
results.deny = await outcome(() => hooks["tool.execute.before"](...before("ses_top", "touch x")));

setAnswer('{"decision":"deny","reason":"[warden] HALT-1","halt":true}');
results.halt = await outcome(() => hooks["tool.execute.before"](...before("ses_top", "touch y")));
results.halt.aborted = aborted.slice();

setAnswer("");
results.noOpinion = await outcome(() => hooks["tool.execute.before"](...before("ses_top", "echo ok")));

setAnswer('{"context":"[warden] CTX-1"}');
const toolOut = { title: "t", metadata: {}, output: "tool said hi" };
results.afterContext = await outcome(() =>
  hooks["tool.execute.after"]({ tool: "bash", sessionID: "ses_top", callID: "c1", args: {} }, toolOut));
results.afterContext.output = toolOut.output;

const msg = { message: { id: "msg_1" }, parts: [{ id: "prt_1", sessionID: "ses_top", messageID: "msg_1", type: "text", text: "hello" }] };
results.promptContext = await outcome(() => hooks["chat.message"]({ sessionID: "ses_top" }, msg));
results.promptContext.parts = msg.parts.map((p) => p.text);

setAnswer("", 2);
writeFileSync(dir + "/stderr", "warden: cannot run; refusing (WARDEN_FAIL_MODE=closed)");
results.exit2 = await outcome(() => hooks["tool.execute.before"](...before("ses_top", "echo two")));
writeFileSync(dir + "/stderr", "");

setAnswer("not json", 0);
results.garbled = await outcome(() => hooks["tool.execute.before"](...before("ses_top", "echo three")));

setAnswer("");
delete process.env.WARDEN_FAIL_MODE;
results.missingOpen = await outcome(() => missing["tool.execute.before"](...before("ses_top", "echo four")));
process.env.WARDEN_FAIL_MODE = "closed";
results.missingClosed = await outcome(() => missing["tool.execute.before"](...before("ses_top", "echo five")));
results.missingClosedAfter = await outcome(() =>
  missing["tool.execute.after"]({ tool: "bash", sessionID: "ses_top", args: {} }, { output: "x" }));
delete process.env.WARDEN_FAIL_MODE;

writeFileSync(dir + "/sleep", "");
results.timeout = await outcome(() => hooks["tool.execute.before"](...before("ses_top", "echo slow")));
process.env.WARDEN_FAIL_MODE = "closed";
results.timeoutClosed = await outcome(() => hooks["tool.execute.before"](...before("ses_top", "echo slower")));
delete process.env.WARDEN_FAIL_MODE;
rmSync(dir + "/sleep");

// A child session: created on the bus with parentID, then a tool call inside it.
setAnswer("");
await hooks.event({ event: { type: "session.created", properties: { sessionID: "ses_child",
  info: { id: "ses_child", parentID: "ses_top", agent: "general" } } } });
await hooks["tool.execute.before"](...before("ses_child", "echo child"));
await hooks.event({ event: { type: "session.idle", properties: { sessionID: "ses_child" } } });
// Not bound: no process.
await hooks.event({ event: { type: "message.updated", properties: { sessionID: "ses_top" } } });
await hooks["chat.params"]({ sessionID: "ses_top" }, {});

console.log(JSON.stringify(results));
