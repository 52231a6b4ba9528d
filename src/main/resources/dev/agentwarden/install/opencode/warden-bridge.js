// Agent Warden's bridge for @@HOST_NAME@@, written by `warden install --host @@HOST@@`; `warden uninstall` removes it.
// It hands each bound plugin callback to `warden dispatch` and enforces the answer. Edit it and
// uninstall leaves it in place as yours.
import { spawn } from "node:child_process";
import { accessSync, constants, statSync } from "node:fs";
import { join } from "node:path";

// Fixed at install time: the launcher by absolute path (a user's bridge), or null in a project's
// bridge, which is committed and names no path of this machine: it runs `warden` from PATH, and
// where there is none answers per IF_MISSING ("block": refuse tool calls and prompts, saying what
// to install; "warn" and "allow": let them through with a note). Then the host id and the native
// events the manifest binds (no other callback starts a process).
const LAUNCHER = @@LAUNCHER@@;
const IF_MISSING = @@IF_MISSING@@;
const MISSING = @@MISSING@@;
const HOST = @@HOST_JSON@@;
const BOUND = new Set(@@BOUND@@);
// Native events whose refusal stops the action: a deny there is thrown back at the host.
const BLOCKABLE = new Set(["tool.execute.before", "chat.message"]);

const TIMEOUT_MS = positive(process.env.WARDEN_BRIDGE_TIMEOUT_MS, 60000);
const MAX_STDOUT_BYTES = 1 << 20;
const MAX_STDERR_BYTES = 64 * 1024;
// Longest tool output handed to Warden; the rest is cut (Warden's payload cap is larger).
const MAX_TOOL_OUTPUT_CHARS = 100000;

function positive(text, fallback) {
  const n = /^[0-9]{1,9}$/.test(text ?? "") ? Number(text) : 0;
  return n > 0 ? n : fallback;
}

function failClosed() {
  return process.env.WARDEN_FAIL_MODE === "closed";
}

function note(text) {
  process.stderr.write(text.endsWith("\n") ? text : text + "\n");
}

/** The first executable regular file `name` in a directory of PATH, or null. */
function onPath(name) {
  for (const dir of (process.env.PATH ?? "").split(":")) {
    if (!dir.startsWith("/")) continue;
    const file = join(dir, name);
    try {
      accessSync(file, constants.X_OK);
      if (statSync(file).isFile()) return file;
    } catch (e) {
      // not here
    }
  }
  return null;
}

/** Runs `warden dispatch` with the envelope on stdin; resolves {code, stdout, stderr, failure} or {missing}. */
function dispatch(nativeEvent, envelope, cwd) {
  return new Promise((resolve) => {
    const program = LAUNCHER ?? onPath("warden");
    if (program === null) {
      resolve({ missing: true });
      return;
    }
    let child;
    try {
      child = spawn(program, ["dispatch", "--host", HOST, "--native-event", nativeEvent], {
        cwd,
        env: process.env,
        stdio: ["pipe", "pipe", "pipe"],
      });
    } catch (e) {
      resolve({ failure: "cannot start " + program + ": " + e.message });
      return;
    }
    const out = [];
    const err = [];
    let outBytes = 0;
    let errBytes = 0;
    let settled = false;
    const finish = (result) => {
      if (!settled) {
        settled = true;
        clearTimeout(timer);
        resolve(result);
      }
    };
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      finish({ failure: "no answer within " + TIMEOUT_MS + " ms (WARDEN_BRIDGE_TIMEOUT_MS)" });
    }, TIMEOUT_MS);
    child.on("error", (e) => finish({ failure: "cannot run " + program + ": " + e.message }));
    child.stdout.on("data", (d) => {
      outBytes += d.length;
      if (outBytes <= MAX_STDOUT_BYTES) out.push(d);
    });
    child.stderr.on("data", (d) => {
      errBytes += d.length;
      if (errBytes <= MAX_STDERR_BYTES) err.push(d);
    });
    child.on("close", (code) => {
      const stderr = Buffer.concat(err).toString("utf8").trim();
      if (outBytes > MAX_STDOUT_BYTES) {
        finish({ failure: "answer over " + MAX_STDOUT_BYTES + " bytes", stderr });
        return;
      }
      finish({ code, stdout: Buffer.concat(out).toString("utf8").trim(), stderr });
    });
    child.stdin.on("error", () => {});
    child.stdin.end(JSON.stringify(envelope));
  });
}

/**
 * Warden's answer for one callback: null (no opinion), {deny, halt}, or {context}. A deny on an
 * event that can be refused is thrown; a failure follows the fail mode, loudly.
 */
async function ask(nativeEvent, envelope, cwd) {
  const r = await dispatch(nativeEvent, envelope, cwd);
  if (r.missing) {
    if (IF_MISSING === "block" && BLOCKABLE.has(nativeEvent)) {
      note("warden: refused: " + MISSING);
      return { deny: "[warden] " + MISSING, halt: false };
    }
    note("warden: not checked: " + MISSING);
    return null;
  }
  if (r.stderr) note(r.stderr);
  let answer = null;
  let failure = r.failure;
  if (!failure && r.code === 2) {
    // The launcher's refusal when Warden cannot run under WARDEN_FAIL_MODE=closed: its stderr says why.
    return { deny: r.stderr || "[warden] refused (WARDEN_FAIL_MODE=closed)", halt: false };
  }
  if (!failure && r.code !== 0) failure = "warden dispatch exited " + r.code;
  if (!failure && r.stdout) {
    try {
      answer = JSON.parse(r.stdout);
    } catch (e) {
      failure = "unreadable answer (" + e.message + ")";
    }
  }
  if (failure) {
    if (failClosed() && BLOCKABLE.has(nativeEvent)) {
      note("[warden] bridge: " + failure + " on " + nativeEvent + "; refusing (WARDEN_FAIL_MODE=closed)");
      return { deny: "[warden] Warden cannot evaluate policy (" + failure + "); refused (fail_closed)", halt: false };
    }
    note("[warden] bridge: " + failure + " on " + nativeEvent + "; allowing (fail-open; WARDEN_FAIL_MODE=closed refuses)");
    return null;
  }
  if (answer === null || typeof answer !== "object") return null;
  if (answer.decision === "deny") return { deny: String(answer.reason ?? "[warden] blocked"), halt: answer.halt === true };
  if (typeof answer.context === "string") return { context: answer.context };
  return null;
}

function clip(value) {
  return typeof value === "string" && value.length > MAX_TOOL_OUTPUT_CHARS
    ? value.slice(0, MAX_TOOL_OUTPUT_CHARS) + " […cut by warden's bridge]"
    : value;
}

export const WardenBridge = async ({ directory, client }) => {
  // Subagents are child sessions: child session id -> parent session id, from session.created.
  const parents = new Map();
  const lineage = (sessionID) => {
    const parentID = parents.get(sessionID);
    if (!parentID) return {};
    let rootID = parentID;
    for (let hops = 0; parents.has(rootID) && hops < 64; hops++) rootID = parents.get(rootID);
    return { parentID, rootID };
  };
  const envelope = (hook, input, output, sessionID) =>
    Object.assign({ hook, cwd: directory, input, output }, lineage(sessionID));
  // OpenCode reports a refused prompt to the user only as "Unexpected server error": say why here too.
  const refuse = async (hook, answer, sessionID) => {
    note("[warden] refused " + hook + ": " + answer.deny);
    if (answer.halt && sessionID && client?.session?.abort) {
      try {
        await client.session.abort({ path: { id: sessionID } });
      } catch (e) {
        note("[warden] bridge: could not stop session " + sessionID + ": " + e.message);
      }
    }
    throw new Error(answer.deny);
  };

  return {
    event: async ({ event }) => {
      const info = event?.properties?.info;
      if (event?.type === "session.created" && info?.parentID) parents.set(info.id, info.parentID);
      const sessionID = event?.properties?.sessionID ?? info?.id;
      const child = parents.has(sessionID);
      let hook = "event." + event?.type;
      if (child && event.type === "session.created") hook = "event.subagent.created";
      if (child && event.type === "session.idle") hook = "event.subagent.idle";
      if (!BOUND.has(hook)) return;
      const answer = await ask(hook, envelope(hook, event, null, sessionID), directory);
      if (answer?.deny) note("[warden] " + hook + " cannot be refused: " + answer.deny);
    },
    "tool.execute.before": async (input, output) => {
      const hook = "tool.execute.before";
      if (!BOUND.has(hook)) return;
      const answer = await ask(hook, envelope(hook, input, output, input.sessionID), directory);
      if (answer?.deny) await refuse(hook, answer, input.sessionID);
    },
    "tool.execute.after": async (input, output) => {
      const hook = "tool.execute.after";
      if (!BOUND.has(hook)) return;
      const sent = Object.assign({}, output, { output: clip(output?.output) });
      const answer = await ask(hook, envelope(hook, input, sent, input.sessionID), directory);
      const text = answer?.context ?? answer?.deny;
      if (text && typeof output?.output === "string") output.output = output.output + "\n\n" + text;
    },
    "chat.message": async (input, output) => {
      const hook = "chat.message";
      if (!BOUND.has(hook)) return;
      const answer = await ask(hook, envelope(hook, input, output, input.sessionID), directory);
      if (answer?.deny) await refuse(hook, answer, input.sessionID);
      const first = output?.parts?.[0];
      if (answer?.context && first && Array.isArray(output.parts)) {
        output.parts.push({
          id: first.id + "w",
          sessionID: first.sessionID,
          messageID: first.messageID,
          type: "text",
          text: answer.context,
          synthetic: true,
        });
      }
    },
    "chat.params": async (input, output) => {
      const hook = "chat.params";
      if (!BOUND.has(hook)) return;
      await ask(hook, envelope(hook, input, output, input.sessionID), directory);
    },
  };
};
