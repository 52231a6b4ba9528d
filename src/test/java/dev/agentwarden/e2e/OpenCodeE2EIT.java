package dev.agentwarden.e2e;

import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;
import org.junit.jupiter.api.parallel.ResourceAccessMode;
import org.junit.jupiter.api.parallel.ResourceLock;
import org.junit.jupiter.api.Order;

/**
 * {@link PluginHostE2E} on OpenCode ({@code opencode-ai}, {@link PluginHostFlavor#OPENCODE}).
 *
 * <p>How OpenCode 1.18.33 behaves, as observed with this harness:
 * <ul>
 *   <li>An error thrown by a plugin's {@code tool.execute.before} fails the tool call: its message
 *       is the tool result the model reads, the command does not run, and the session goes on.</li>
 *   <li>A change a plugin makes to {@code output.output} in {@code tool.execute.after} is what the
 *       model reads as the tool result.</li>
 *   <li>The {@code task} tool runs a subagent in a child session: its {@code session.created} bus
 *       event carries {@code parentID}, its own tool calls carry the child's session id, and it goes
 *       idle before the parent's {@code task} call returns.</li>
 *   <li>A plugin's stderr is OpenCode's stderr.</li>
 * </ul>
 */
@Execution(ExecutionMode.CONCURRENT)
// READ: its scenarios run side by side (see PluginHostE2E); HostSuiteConcurrencyTest keeps it the host's only such suite
@ResourceLock(value = HostSuite.LOCK_PREFIX + "opencode", mode = ResourceAccessMode.READ)
@Order(3) // a long host suite: it starts first, see junit-platform.properties
class OpenCodeE2EIT extends PluginHostE2E {
    OpenCodeE2EIT() {
        super(PluginHostFlavor.OPENCODE);
    }
}
