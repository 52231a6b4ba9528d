package dev.agentwarden.install.copilot;

import dev.agentwarden.install.HostTrustGate;
import dev.agentwarden.json.Fields;
import dev.agentwarden.json.Json;
import dev.agentwarden.json.JsonException;
import dev.agentwarden.json.JsonLimits;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Copilot CLI's folder trust in front of repository hooks (hosts.md, "Copilot CLI 1.0.102,
 * measured"): in {@code -p} mode Copilot loads {@code .github/hooks/*.json} only for a trusted
 * folder ({@code trustedFolders} in {@code $COPILOT_HOME/config.json}, {@code --trust-folder},
 * {@code COPILOT_ALLOW_ALL=true} or {@code GITHUB_COPILOT_PROMPT_MODE_REPO_HOOKS=true}) and skips
 * them silently otherwise; an interactive session asks to trust the folder first. User hooks
 * ({@code $COPILOT_HOME/hooks/}) always load. A folder counts as trusted when it or one of its
 * parents is listed.
 */
public final class CopilotFolderTrust implements HostTrustGate {
    /** Largest {@code config.json} read. */
    static final int MAX_CONFIG_BYTES = 1024 * 1024;

    /** {@code $COPILOT_HOME/config.json}: its {@code trustedFolders} decide whether repository hooks load. */
    @Override
    public List<Path> decidingFiles(Map<String, String> env) {
        return List.of(CopilotHome.of(env).resolve("config.json"));
    }

    @Override
    public List<Finding> check(Path hooksFile, boolean user, Path projectRoot, Map<String, String> env) {
        List<Finding> out = new ArrayList<>();
        if (user) {
            out.add(new Finding(false, "Copilot loads the user's hooks (" + hooksFile + ") in every folder", null));
            return out;
        }
        Path config = CopilotHome.of(env).resolve("config.json");
        List<String> trusted;
        try {
            trusted = trustedFolders(config);
        } catch (IOException | JsonException e) {
            out.add(new Finding(true, "cannot read Copilot's " + config + ": " + e.getMessage(),
                    "fix or move " + config + " so that Copilot can read it"));
            return out;
        }
        String listed = listed(trusted, projectRoot);
        if (listed != null) {
            out.add(new Finding(false, "Copilot trusts " + listed + " (trustedFolders in " + config
                    + "), so it loads " + hooksFile, null));
        } else if ("true".equals(env.get("GITHUB_COPILOT_PROMPT_MODE_REPO_HOOKS")) || "true".equals(env.get("COPILOT_ALLOW_ALL"))) {
            out.add(new Finding(false, "this environment lets Copilot load repository hooks in -p mode"
                    + " (GITHUB_COPILOT_PROMPT_MODE_REPO_HOOKS or COPILOT_ALLOW_ALL is true); " + config
                    + " does not trust " + projectRoot, null));
        } else {
            out.add(new Finding(true, "Copilot skips " + hooksFile + " without a word until it trusts " + projectRoot
                    + " (not in trustedFolders of " + config + ")",
                    "start copilot in " + projectRoot + " and trust the folder, add it to trustedFolders in " + config
                            + ", or run copilot -p with --trust-folder (or GITHUB_COPILOT_PROMPT_MODE_REPO_HOOKS=true)"));
        }
        return out;
    }

    /** The entry of {@code trusted} that is {@code root} or one of its parents (either as given or resolved), or {@code null}. */
    static String listed(List<String> trusted, Path root) {
        List<Path> names = new ArrayList<>(List.of(root.toAbsolutePath().normalize()));
        try {
            names.add(root.toRealPath());
        } catch (IOException e) {
            // the given path is all there is
        }
        for (String entry : trusted) {
            Path folder;
            try {
                folder = Path.of(entry).toAbsolutePath().normalize();
            } catch (RuntimeException e) {
                continue;
            }
            for (Path name : names) {
                if (name.startsWith(folder)) {
                    return entry;
                }
            }
        }
        return null;
    }

    /** {@code trustedFolders} of Copilot's {@code config.json}; none when the file is absent. */
    static List<String> trustedFolders(Path config) throws IOException {
        if (!Files.isRegularFile(config)) {
            return List.of();
        }
        byte[] bytes;
        try (InputStream in = Files.newInputStream(config)) {
            bytes = in.readNBytes(MAX_CONFIG_BYTES + 1);
        }
        if (bytes.length > MAX_CONFIG_BYTES) {
            throw new IOException("over " + MAX_CONFIG_BYTES + " bytes");
        }
        // Copilot writes the file with `//` comment lines above the object ("This file is managed automatically").
        StringBuilder json = new StringBuilder(bytes.length);
        for (String line : new String(bytes, StandardCharsets.UTF_8).split("\n", -1)) {
            if (!line.strip().startsWith("//")) {
                json.append(line).append('\n');
            }
        }
        Object parsed = Json.parse(json.toString(), JsonLimits.LENIENT);
        List<String> out = new ArrayList<>();
        for (Object o : Fields.listOrEmpty(Fields.objectOrEmpty(parsed).get("trustedFolders"))) {
            if (o instanceof String s && !s.isEmpty()) {
                out.add(s);
            }
        }
        return out;
    }
}
