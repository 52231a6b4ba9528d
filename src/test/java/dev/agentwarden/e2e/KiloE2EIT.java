package dev.agentwarden.e2e;

import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;
import org.junit.jupiter.api.parallel.ResourceAccessMode;
import org.junit.jupiter.api.parallel.ResourceLock;
import org.junit.jupiter.api.Order;

/**
 * {@link PluginHostE2E} on Kilo Code ({@code @kilocode/cli}, {@link PluginHostFlavor#KILO}): the
 * same bridge, scenarios and scripted model as {@link OpenCodeE2EIT}, with the plugin in
 * {@code .kilo/plugin/}.
 *
 * <p>How Kilo Code 7.7.7 behaves, as observed with this harness (and read from its shipped code):
 * <ul>
 *   <li>It loads {@code plugin/*.js} of each config directory ({@code ~/.config/kilo},
 *       {@code .kilo}, {@code .kilocode}) as OpenCode does: each exported function returns the hooks,
 *       and {@code tool.execute.before}, {@code tool.execute.after}, {@code chat.message} and
 *       {@code event} are called with OpenCode's arguments.</li>
 *   <li>Before loading them it installs {@code @kilocode/plugin} of its own version into that
 *       directory, unless {@code node_modules} and a lock naming the package are there; offline that
 *       waits about 80 s, and {@code @kilocode/plugin@7.7.7} is not on npm at all, so the seed comes
 *       from the newest published one.</li>
 *   <li>{@code kilo run} blocks on a question ("Snapshot is slow") when its git snapshot of the
 *       project is slow, which a loaded machine makes it; {@code snapshot: false} avoids it.</li>
 * </ul>
 */
@Execution(ExecutionMode.CONCURRENT)
// READ: its scenarios run side by side (see PluginHostE2E); HostSuiteConcurrencyTest keeps it the host's only such suite
@ResourceLock(value = HostSuite.LOCK_PREFIX + "kilocode", mode = ResourceAccessMode.READ)
@Order(2) // a long host suite: it starts first, see junit-platform.properties
class KiloE2EIT extends PluginHostE2E {
    KiloE2EIT() {
        super(PluginHostFlavor.KILO);
    }
}
