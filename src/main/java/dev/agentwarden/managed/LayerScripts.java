package dev.agentwarden.managed;

import dev.agentwarden.concern.ConcernSpec;
import dev.agentwarden.io.OwnedPath;
import dev.agentwarden.manifest.Manifest;
import dev.agentwarden.trust.ScriptTrust;
import java.io.IOException;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The process concerns of a layer under the project (the user's manifest, the administrator's):
 * where their scripts are and who must own them.
 * <ul>
 *   <li>a relative script path names a file under the layer's own directory
 *       ({@code ~/.config/agent-warden/}, {@code /etc/agent-warden/}), never the project's;</li>
 *   <li>such a script needs no {@code warden trust}: it runs while its file is the layer owner's alone,
 *       checked just before each start ({@link ScriptTrust.ScriptOwner}): a managed script by
 *       {@link RootOwned}, a user script by {@link OwnedPath} (or root's, as {@code /usr/bin} is).</li>
 * </ul>
 */
public final class LayerScripts {
    /** A managed script: root's alone, with every directory above it. */
    static final ScriptTrust.ScriptOwner ROOT = new RootScript();
    /** A user script: the user's (OpenSSH rule) or root's alone. */
    static final ScriptTrust.ScriptOwner USER = new UserScript();

    private LayerScripts() {
    }

    /**
     * {@code manifest} with every relative script path of a process concern made absolute under
     * {@code dir}; {@code null} when none was relative. A {@code dir} of {@code null} takes no
     * relative path.
     *
     * @throws IllegalArgumentException naming a concern whose script leads out of {@code dir}
     */
    static Manifest anchored(Manifest manifest, Path dir) {
        Map<String, ConcernSpec> concerns = null;
        for (ConcernSpec c : manifest.concerns().values()) {
            if (c.isBuiltin() || Path.of(c.script()).isAbsolute()) {
                continue;
            }
            if (dir == null) {
                throw new IllegalArgumentException("concern '" + c.name() + "' runs " + c.script() + ", a relative path,"
                        + " with no layer directory to resolve it under");
            }
            Path script = dir.resolve(c.script()).normalize();
            if (!script.startsWith(dir)) {
                throw new IllegalArgumentException("concern '" + c.name() + "' runs " + c.script()
                        + ", which leads out of " + dir);
            }
            if (concerns == null) {
                concerns = new LinkedHashMap<>(manifest.concerns());
            }
            concerns.put(c.name(), new ConcernSpec(c.name(), script.toString(), c.args(), c.failClosed(), c.posture(),
                    c.tools(), c.timeoutMs(), c.skipOnRefusalRetry(), c.nudgeRank(), c.settings(), c.payloadBodies()));
        }
        return concerns == null ? null : new Manifest(manifest.source(), manifest.sourceSha256(), manifest.aliases(),
                concerns, manifest.chains(), manifest.verbatimReasons(), manifest.skipped());
    }

    /**
     * {@code project}'s rule with the process concerns of {@code managed} and {@code user} (either may
     * be {@code null}) judged by their layer's owner instead.
     */
    public static ScriptTrust over(ScriptTrust project, Manifest managed, Manifest user) {
        Map<String, ScriptTrust.ScriptOwner> owners = new HashMap<>();
        if (user != null) {
            add(owners, user, USER);
        }
        if (managed != null) {
            add(owners, managed, ROOT);
        }
        return project.withLayers(owners);
    }

    private static void add(Map<String, ScriptTrust.ScriptOwner> owners, Manifest m, ScriptTrust.ScriptOwner owner) {
        for (ConcernSpec c : m.concerns().values()) {
            if (!c.isBuiltin()) {
                owners.put(c.name(), owner);
            }
        }
    }

    private static final class RootScript implements ScriptTrust.ScriptOwner {
        @Override
        public String layer() {
            return "managed";
        }

        @Override
        public String problem(Path script) throws IOException {
            return RootOwned.problem(script);
        }
    }

    private static final class UserScript implements ScriptTrust.ScriptOwner {
        @Override
        public String layer() {
            return "user";
        }

        @Override
        public String problem(Path script) throws IOException {
            if (!script.toFile().exists()) {
                throw new java.nio.file.NoSuchFileException(script.toString());
            }
            String mine = OwnedPath.problem(script);
            return mine == null || RootOwned.problem(script) == null ? null : mine;
        }
    }
}
