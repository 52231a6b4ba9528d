package dev.agentwarden.cli;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.Map;

/**
 * What a demo section runs with.
 *
 * @param out      where to print
 * @param workDir  a fresh, empty temporary project directory for this section
 * @param home     the Warden checkout ({@code examples/}, {@code bin/}), or {@code null} if unknown
 * @param launcher {@code bin/warden} when present, else {@code null} (sections then run in-process)
 * @param hostEnv  the environment a host gives Warden's hooks in this demo: this process's, with a
 *                 demo-private {@code WARDEN_CACHE_DIR} (and {@code XDG_STATE_HOME},
 *                 where the demo trusts its projects' manifests), so that the resident server the first
 *                 event starts is the demo's own and is stopped when the demo ends
 */
record DemoEnv(PrintWriter out, Path workDir, Path home, Path launcher, Map<String, String> hostEnv) {
}
