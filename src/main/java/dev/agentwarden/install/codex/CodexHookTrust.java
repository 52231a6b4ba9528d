package dev.agentwarden.install.codex;

import dev.agentwarden.install.HostTrustGate;
import dev.agentwarden.json.Fields;
import dev.agentwarden.toml.MiniToml;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Codex's gate in front of hooks, read from {@code $CODEX_HOME/config.toml}
 * (hosts.md, Codex): hooks can be switched off ({@code [features] hooks = false}); a project's
 * {@code .codex/hooks.json} loads only for a trusted project ({@code [projects."<root>"]
 * trust_level = "trusted"}); and a hook that is not managed runs only once the user reviewed it in
 * {@code /hooks}, which records {@code [hooks.state."<key>"] trusted_hash}. Warden never computes
 * that hash (it is Codex's, and changes with Codex): it reports whether any trust is recorded for
 * the file, and whether the file changed after the configuration was last written.
 */
public final class CodexHookTrust implements HostTrustGate {
    /** Largest {@code config.toml} read. */
    static final int MAX_CONFIG_BYTES = 1024 * 1024;

    @Override
    public List<Finding> check(Path hooksFile, boolean user, Path projectRoot, Map<String, String> env) {
        List<Finding> out = new ArrayList<>();
        Path config = codexHome(env).resolve("config.toml");
        Map<String, Object> toml;
        try {
            toml = Files.isRegularFile(config) ? MiniToml.parse(read(config)) : Map.of();
        } catch (IOException | IllegalArgumentException e) {
            out.add(new Finding(true, "cannot read Codex's " + config + ": " + e.getMessage(),
                    "fix or move " + config + " so that Codex can read it"));
            return out;
        }
        if (Boolean.FALSE.equals(table(toml, "features").get("hooks"))
                || Boolean.FALSE.equals(table(toml, "features").get("codex_hooks"))) {
            out.add(new Finding(true, config + " switches hooks off ([features] hooks = false): Codex runs none",
                    "remove `hooks = false` from [features] in " + config));
        }
        if (!user) {
            Object level = projectTrust(table(toml, "projects"), projectRoot);
            if (!"trusted".equals(level)) {
                out.add(new Finding(true, "Codex loads " + hooksFile + " only in a trusted project, and " + config
                        + (level == null ? " does not trust " : " sets trust_level = \"" + level + "\" for ") + projectRoot,
                        "start codex in " + projectRoot + " and trust the project, or add [projects.\"" + projectRoot
                                + "\"] trust_level = \"trusted\" to " + config));
            }
        }
        int trusted = 0;
        String file = hooksFile.toAbsolutePath().normalize().toString();
        for (Map.Entry<String, Object> e : table(table(toml, "hooks"), "state").entrySet()) {
            if (e.getKey().contains(file) && Fields.objectOrEmpty(e.getValue()).get("trusted_hash") != null) {
                trusted++;
            }
        }
        String review = "run codex in " + projectRoot + ", open /hooks and trust Warden's entries"
                + " (needed again after an install that changes them)";
        if (trusted == 0) {
            out.add(new Finding(true, "Codex has recorded no trust for the hooks in " + hooksFile
                    + ": it skips them until they are reviewed", review));
        } else if (modifiedAfter(hooksFile, config)) {
            out.add(new Finding(true, hooksFile + " changed after Codex last recorded hook trust in " + config
                    + ": Codex skips changed hooks until they are reviewed again", review));
        } else {
            out.add(new Finding(false, "Codex records trust for " + trusted + " hook(s) of " + hooksFile
                    + "; whether it covers each current entry only Codex can tell (/hooks)", null));
        }
        return out;
    }

    /** {@code $CODEX_HOME/config.toml}: hooks on or off, which projects are trusted, which hooks were reviewed. */
    @Override
    public List<Path> decidingFiles(Map<String, String> env) {
        return List.of(codexHome(env).resolve("config.toml"));
    }

    /** {@code $CODEX_HOME}, else {@code ~/.codex}. */
    static Path codexHome(Map<String, String> env) {
        String home = env.get("CODEX_HOME");
        if (home != null && !home.isEmpty()) {
            return Path.of(home);
        }
        String user = env.get("HOME");
        return Path.of(user != null && !user.isEmpty() ? user : System.getProperty("user.home"), ".codex");
    }

    private static Object projectTrust(Map<String, Object> projects, Path root) {
        List<String> names = new ArrayList<>(List.of(root.toString()));
        try {
            names.add(root.toRealPath().toString());
        } catch (IOException e) {
            // the given path is all there is
        }
        for (String name : names) {
            Object level = table(projects, name).get("trust_level");
            if (level != null) {
                return level;
            }
        }
        return null;
    }

    /** The TOML table at {@code key}, or an empty one when {@code key} is absent or holds another value. */
    private static Map<String, Object> table(Map<String, Object> parent, String key) {
        return Fields.objectOrEmpty(parent.get(key));
    }

    private static boolean modifiedAfter(Path a, Path b) {
        try {
            return Files.getLastModifiedTime(a).compareTo(Files.getLastModifiedTime(b)) > 0;
        } catch (IOException e) {
            return false;
        }
    }

    private static String read(Path file) throws IOException {
        try (InputStream in = Files.newInputStream(file)) {
            byte[] bytes = in.readNBytes(MAX_CONFIG_BYTES + 1);
            if (bytes.length > MAX_CONFIG_BYTES) {
                throw new IOException("over " + MAX_CONFIG_BYTES + " bytes");
            }
            return new String(bytes, StandardCharsets.UTF_8);
        }
    }
}
