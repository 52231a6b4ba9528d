package dev.agentwarden.install.gemini;

import dev.agentwarden.install.HostTrustGate;
import dev.agentwarden.install.Installer;
import dev.agentwarden.install.claude.ClaudeSettings;
import dev.agentwarden.json.Fields;
import dev.agentwarden.json.Json;
import dev.agentwarden.json.JsonException;
import dev.agentwarden.json.JsonLimits;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Gemini CLI 0.61.0's gates in front of hooks, as its sources apply them:
 * <ul>
 *   <li>{@code hooksConfig.enabled: false} in a settings file switches every hook off, and a hook
 *       whose name is in {@code hooksConfig.disabled} does not run (Warden's is named {@code warden}).</li>
 *   <li>Folder trust: a project's {@code .gemini/settings.json} hooks run only in a trusted folder.
 *       {@code GEMINI_CLI_TRUST_WORKSPACE=false} (or {@code GEMINI_RESTRICTED_MODE=true}) distrusts,
 *       {@code GEMINI_CLI_TRUST_WORKSPACE=true} trusts; with {@code security.folderTrust.enabled:
 *       false} every folder is trusted; otherwise the longest matching rule of
 *       {@code ~/.gemini/trustedFolders.json} ({@code GEMINI_CLI_TRUSTED_FOLDERS_PATH}) decides
 *       ({@code TRUST_FOLDER}, {@code TRUST_PARENT}, {@code DO_NOT_TRUST}). Untrusted, project hooks
 *       are skipped, and a headless run exits 55 before anything runs.</li>
 *   <li>Hook fingerprints: {@code ~/.gemini/trusted_hooks.json} maps a project root to the
 *       {@code "<name>:<command>"} keys of the project hooks seen there. A project hook not in it is
 *       still run, after a warning that lists it, and then recorded: a note, not a problem.</li>
 * </ul>
 */
public final class GeminiHookTrust implements HostTrustGate {
    /** Largest Gemini settings or trust file read. */
    static final int MAX_FILE_BYTES = 1024 * 1024;

    /**
     * The user's {@code ~/.gemini/settings.json} ({@code hooksConfig}, {@code security.folderTrust}),
     * {@code trusted_hooks.json}, and the folder trust file {@code GEMINI_CLI_TRUSTED_FOLDERS_PATH} names
     * (else {@code ~/.gemini/trustedFolders.json}).
     */
    @Override
    public List<Path> decidingFiles(Map<String, String> env) {
        Path geminiDir = Installer.userHome(env).resolve(".gemini");
        return List.of(geminiDir.resolve("settings.json"), geminiDir.resolve("trusted_hooks.json"),
                trustedFolders(env, geminiDir));
    }

    @Override
    public List<Finding> check(Path hooksFile, boolean user, Path projectRoot, Map<String, String> env) {
        List<Finding> out = new ArrayList<>();
        Path geminiDir = Installer.userHome(env).resolve(".gemini");
        Map<String, Object> userSettings = readObject(geminiDir.resolve("settings.json"), out);
        Map<String, Object> projectSettings = user ? Map.of() : readObject(hooksFile, out);
        for (Map<String, Object> settings : List.of(userSettings, projectSettings)) {
            Map<String, Object> hooksConfig = Fields.objectOrEmpty(settings.get("hooksConfig"));
            if (Boolean.FALSE.equals(hooksConfig.get("enabled"))) {
                out.add(new Finding(true, "hooksConfig.enabled is false in " + (settings == userSettings
                        ? geminiDir.resolve("settings.json") : hooksFile) + ": Gemini runs no hooks",
                        "remove \"enabled\": false from hooksConfig"));
            }
            if (Fields.listOrEmpty(hooksConfig.get("disabled")).contains(ClaudeSettings.Handler.GEMINI.name())) {
                out.add(new Finding(true, "hooksConfig.disabled names \"" + ClaudeSettings.Handler.GEMINI.name()
                        + "\": Gemini skips Warden's hooks", "take \"warden\" out of hooksConfig.disabled"));
            }
        }
        if (user) {
            return out;
        }
        folderTrust(out, hooksFile, projectRoot, env, geminiDir, userSettings);
        fingerprints(out, hooksFile, projectRoot, geminiDir);
        return out;
    }

    /** What {@code warden install} says after writing Gemini hooks: the gates a person has to pass. */
    @Override
    public List<String> installNotes(Path hooksFile, boolean user, Path projectRoot, Map<String, String> env) {
        List<String> notes = new ArrayList<>();
        if (!user) {
            notes.add("Gemini runs project hooks only in a trusted folder (trust " + projectRoot + " in gemini, or"
                    + " GEMINI_CLI_TRUST_WORKSPACE=true for headless runs); its first start after this install warns"
                    + " that the project has hooks and records their fingerprints in ~/.gemini/trusted_hooks.json");
        }
        for (Finding f : check(hooksFile, user, projectRoot, env)) {
            if (f.problem()) {
                notes.add(f.text() + (f.fix() == null ? "" : " (fix: " + f.fix() + ")"));
            }
        }
        return notes;
    }

    private static void folderTrust(List<Finding> out, Path hooksFile, Path root, Map<String, String> env,
                                    Path geminiDir, Map<String, Object> userSettings) {
        String fix = "trust " + root + " when gemini asks (or in /permissions), add \"" + root
                + "\": \"TRUST_FOLDER\" to " + trustedFolders(env, geminiDir) + ", or run headless with"
                + " GEMINI_CLI_TRUST_WORKSPACE=true";
        if ("true".equals(env.get("GEMINI_RESTRICTED_MODE")) || "false".equals(env.get("GEMINI_CLI_TRUST_WORKSPACE"))) {
            out.add(new Finding(true, "this environment distrusts every folder (GEMINI_CLI_TRUST_WORKSPACE=false or"
                    + " GEMINI_RESTRICTED_MODE=true): Gemini skips " + hooksFile, "unset it"));
            return;
        }
        if ("true".equals(env.get("GEMINI_CLI_TRUST_WORKSPACE"))) {
            out.add(new Finding(false, "GEMINI_CLI_TRUST_WORKSPACE=true here trusts " + root
                    + "; a gemini started without it reads trustedFolders.json", null));
            return;
        }
        Map<String, Object> security = Fields.objectOrEmpty(userSettings.get("security"));
        if (Boolean.FALSE.equals(Fields.objectOrEmpty(security.get("folderTrust")).get("enabled"))) {
            out.add(new Finding(false, "folder trust is off (security.folderTrust.enabled: false): Gemini runs "
                    + hooksFile + " in every folder", null));
            return;
        }
        Path file = trustedFolders(env, geminiDir);
        Map<String, Object> rules = readObject(file, out);
        String level = longestMatch(rules, root);
        if ("DO_NOT_TRUST".equals(level)) {
            out.add(new Finding(true, file + " distrusts " + root + ": Gemini skips " + hooksFile, fix));
        } else if (level == null) {
            out.add(new Finding(true, "Gemini does not trust " + root + " (no rule in " + file + "): it skips "
                    + hooksFile + ", and a headless gemini exits 55", fix));
        } else {
            out.add(new Finding(false, file + " trusts " + root + " (" + level + ")", null));
        }
    }

    /** The trust level of the longest rule covering {@code root}, or {@code null}. */
    static String longestMatch(Map<String, Object> rules, Path root) {
        List<Path> locations = new ArrayList<>(List.of(root.toAbsolutePath().normalize()));
        try {
            locations.add(root.toRealPath());
        } catch (IOException e) {
            // the given path is all there is
        }
        String best = null;
        int bestLength = -1;
        for (Map.Entry<String, Object> rule : rules.entrySet()) {
            if (!(rule.getValue() instanceof String level) || rule.getKey().isEmpty()) {
                continue;
            }
            Path covered = Path.of(rule.getKey()).toAbsolutePath().normalize();
            if (level.equals("TRUST_PARENT") && covered.getParent() != null) {
                covered = covered.getParent();
            }
            for (Path location : locations) {
                if (location.startsWith(covered) && rule.getKey().length() > bestLength) {
                    best = level;
                    bestLength = rule.getKey().length();
                }
            }
        }
        return best;
    }

    private static void fingerprints(List<Finding> out, Path hooksFile, Path root, Path geminiDir) {
        byte[] settings = read(hooksFile, out);
        if (settings == null) {
            return;
        }
        List<Installer.Entry> entries = ClaudeSettings.wardenEntries(settings, "gemini");
        if (entries.isEmpty()) {
            return;
        }
        Path file = geminiDir.resolve("trusted_hooks.json");
        Map<String, Object> trusted = readObject(file, out);
        List<?> keys = Fields.listOrEmpty(trusted.get(root.toAbsolutePath().normalize().toString()));
        int missing = 0;
        for (Installer.Entry e : entries) {
            if (!keys.contains(ClaudeSettings.Handler.GEMINI.name() + ":" + e.target())) {
                missing++;
            }
        }
        if (missing > 0) {
            out.add(new Finding(false, missing + " of Warden's " + entries.size() + " hook(s) in " + hooksFile
                    + " are not yet fingerprinted in " + file + ": Gemini's next start in " + root
                    + " warns that the project has hooks, runs them, and records them", null));
        } else {
            out.add(new Finding(false, file + " records every one of Warden's hooks for " + root, null));
        }
    }

    private static Path trustedFolders(Map<String, String> env, Path geminiDir) {
        String path = env.get("GEMINI_CLI_TRUSTED_FOLDERS_PATH");
        return path != null && !path.isEmpty() ? Path.of(path) : geminiDir.resolve("trustedFolders.json");
    }

    /** The file's JSON object, {@code Map.of()} when it is absent; a problem when it cannot be read. */
    private static Map<String, Object> readObject(Path file, List<Finding> out) {
        if (!Files.isRegularFile(file)) {
            return Map.of();
        }
        byte[] bytes = read(file, out);
        if (bytes == null) {
            return Map.of();
        }
        try {
            return Fields.objectOrEmpty(Json.parse(bytes, JsonLimits.LENIENT));
        } catch (JsonException e) {
            out.add(new Finding(false, "cannot read " + file + " as JSON (" + e.getMessage()
                    + "); what it says about hooks and trust is not checked", null));
            return Map.of();
        }
    }

    private static byte[] read(Path file, List<Finding> out) {
        try (InputStream in = Files.newInputStream(file)) {
            byte[] bytes = in.readNBytes(MAX_FILE_BYTES + 1);
            if (bytes.length > MAX_FILE_BYTES) {
                out.add(new Finding(false, file + " is over " + MAX_FILE_BYTES + " bytes; not read", null));
                return null;
            }
            return bytes;
        } catch (IOException e) {
            out.add(new Finding(false, "cannot read " + file + ": " + e.getMessage(), null));
            return null;
        }
    }
}
