package dev.agentwarden.e2e;

import java.time.Duration;
import java.util.Map;

/**
 * What differs between hosts that load OpenCode plugins, as {@link PluginHostE2E} and
 * {@link OpenCodeSession} drive them: OpenCode and its fork Kilo Code run the same bridge, the same
 * scenarios and the same scripted model; their binary, config directories, environment prefix and
 * a few settings differ.
 *
 * @param hostId        Warden's host id ({@code warden install --host})
 * @param name          the host's name in messages
 * @param install       the npm package and cache folder of the binary
 * @param sdkPrefix     the e2e cache folder holding the plugin SDK the host installs into each config
 *                      directory with plugins (seeded so that no run waits on npm)
 * @param sdkPackage    that SDK's npm package
 * @param projectDir    the host's config directory in a project ({@code .opencode})
 * @param userConfigDir the user's config directory below {@code HOME} ({@code .config/opencode})
 * @param envPrefix     the prefix of the host's environment flags ({@code OPENCODE_})
 * @param extraEnv      environment beyond the {@code <prefix>DISABLE_*} flags every run sets
 * @param extraConfig   top-level settings added to the project's config file
 * @param limit         how long one run may take
 * @param rootIdleWait  how long a scenario that reports the root session's {@code session.idle} waits for it
 *                      after the run has exited (no assertion depends on it: it is best effort, see below)
 *
 * <p>Neither host's one-shot {@code run} reliably waits for the plugins' handlers of the root
 * session's {@code session.idle} before it exits, so Warden's stop chain is best effort on such runs.
 */
record PluginHostFlavor(String hostId, String name, HostInstall.Host install, String sdkPrefix, String sdkPackage,
                        String projectDir, String userConfigDir, String envPrefix, Map<String, String> extraEnv,
                        Map<String, Object> extraConfig, Duration limit, Duration rootIdleWait) {

    /**
     * OpenCode 1.18 ({@code opencode-ai}), its SDK {@code @opencode-ai/plugin}. Its limit was 180 s
     * until its suite ran beside Kilo's: at load 27 on 2 cores a session took longer than that.
     * {@code opencode run} usually waits for the plugins' handlers of the root session's idle, but in
     * CI (session 7, 1.18.33, the long host suites side by side) it exited once before the bridge's
     * dispatch of it reached Warden: idle is best effort on one-shot runs here too.
     */
    static final PluginHostFlavor OPENCODE = new PluginHostFlavor("opencode", "OpenCode", HostInstall.OPENCODE,
            "opencode-plugin", "@opencode-ai/plugin", ".opencode", ".config/opencode", "OPENCODE_", Map.of(), Map.of(),
            Duration.ofSeconds(420), Duration.ofSeconds(20));

    /**
     * Kilo Code 7.7 ({@code @kilocode/cli}), its SDK {@code @kilocode/plugin}. {@code snapshot: false}
     * because Kilo asks "Snapshot is slow … disable?" and waits for an answer that {@code kilo run}
     * never gives when its git snapshot of the project takes long (a loaded machine);
     * {@code KILO_TELEMETRY_LEVEL=off} keeps it from retrying PostHog. Its start-up costs about 20 s
     * of CPU, so a run may take minutes on a loaded 2-core machine. {@code kilo run} exits at the root
     * session's idle without waiting for the plugins' handlers of it: in CI at load about 5 the
     * bridge's dispatch of {@code session.idle} did not reach Warden while every other event did, so a scenario
     * waits for it only as long as one dispatch already under way takes to land (5 s), not OpenCode's 20 s.
     */
    static final PluginHostFlavor KILO = new PluginHostFlavor("kilo", "Kilo Code", HostInstall.KILO,
            "kilocode-plugin", "@kilocode/plugin", ".kilo", ".config/kilo", "KILO_",
            Map.of("KILO_TELEMETRY_LEVEL", "off"), Map.of("snapshot", Boolean.FALSE), Duration.ofSeconds(420),
            Duration.ofSeconds(5));

    /** The plugin directory below a project root, where {@code warden install} puts the bridge. */
    String pluginDir() {
        return projectDir + "/plugin";
    }
}
