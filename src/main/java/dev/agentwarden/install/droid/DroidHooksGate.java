package dev.agentwarden.install.droid;

import dev.agentwarden.install.HostTrustGate;
import dev.agentwarden.install.Installer;
import dev.agentwarden.json.Fields;
import dev.agentwarden.json.Json;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Droid's switches in front of hooks (measured on 0.225.2): the organisation file's
 * {@code allowManagedHooksOnly: true} drops every project and user hook; otherwise a project's or
 * the user's {@code hooks.json} with {@code "hooksDisabled": true} turns off every hook, Warden's
 * included. Also notes what Droid ignores: a {@code hooks} wrapper inside {@code hooks.json}, and
 * {@code hooks} in a {@code settings.json} beside an existing {@code hooks.json}.
 */
final class DroidHooksGate implements HostTrustGate {
    /** Largest settings file read. */
    static final int MAX_BYTES = 1024 * 1024;

    /** Where Droid reads the organisation's settings on Linux. */
    static final Path ORGANISATION_FILE = Path.of("/etc/factory/settings.json");

    /** The variable by which Droid reads the organisation's settings from another file. */
    static final String ORGANISATION_VARIABLE = "FACTORY_ORG_MANAGED_SETTINGS_LOCAL_PATH";

    private final Path organisationFile;

    DroidHooksGate() {
        this(ORGANISATION_FILE);
    }

    DroidHooksGate(Path organisationFile) {
        this.organisationFile = organisationFile;
    }

    @Override
    public List<Finding> check(Path hooksFile, boolean user, Path projectRoot, Map<String, String> env) {
        List<Finding> out = new ArrayList<>();
        String variable = env.get(ORGANISATION_VARIABLE);
        Path org = variable != null && !variable.isEmpty() ? Path.of(variable) : organisationFile;
        if (Boolean.TRUE.equals(read(org, out).get("allowManagedHooksOnly"))) {
            out.add(new Finding(true, org + " sets allowManagedHooksOnly: Droid runs only the organisation's hooks, not"
                    + " Warden's in " + hooksFile, "ask whoever manages " + org + " to add Warden's hooks there"));
            return out;
        }
        List<Path> switches = new ArrayList<>();
        switches.add(projectRoot.resolve(".factory").resolve("hooks.json"));
        switches.add(Installer.userHome(env).resolve(".factory").resolve("hooks.json"));
        for (Path file : switches) {
            if (Boolean.TRUE.equals(read(file, out).get("hooksDisabled"))) {
                out.add(new Finding(true, file + " sets \"hooksDisabled\": true: Droid runs no hook at all, Warden's"
                        + " included", "remove \"hooksDisabled\" from " + file));
            }
        }
        if (Fields.asMap(read(hooksFile, out).get("hooks")) != null) {
            out.add(new Finding(false, hooksFile + " has a \"hooks\" object, which Droid ignores in hooks.json (events"
                    + " belong at the top level)", null));
        }
        out.addAll(shadowedSettings(hooksFile));
        return out;
    }

    @Override
    public List<String> installNotes(Path hooksFile, boolean user, Path projectRoot, Map<String, String> env) {
        List<String> out = new ArrayList<>();
        for (Finding f : shadowedSettings(hooksFile)) {
            out.add(f.text());
        }
        return out;
    }

    /** A note when the {@code settings.json} beside {@code hooksFile} names hooks Droid no longer reads. */
    private static List<Finding> shadowedSettings(Path hooksFile) {
        Path settings = hooksFile.resolveSibling("settings.json");
        if (!Files.isRegularFile(hooksFile) || Fields.asMap(read(settings, new ArrayList<>()).get("hooks")) == null) {
            return List.of();
        }
        return List.of(new Finding(false, settings + " names hooks, which Droid reads only while " + hooksFile
                + " does not exist: move them into " + hooksFile + " (events at its top level) to keep them running",
                null));
    }

    /** The JSON object in {@code file}; empty when there is none, and a finding when it cannot be read. */
    private static Map<String, Object> read(Path file, List<Finding> findings) {
        if (!Files.isRegularFile(file)) {
            return Map.of();
        }
        try (InputStream in = Files.newInputStream(file)) {
            byte[] bytes = in.readNBytes(MAX_BYTES + 1);
            if (bytes.length > MAX_BYTES) {
                throw new IOException("over " + MAX_BYTES + " bytes");
            }
            return Json.parseObject(new String(bytes, StandardCharsets.UTF_8));
        } catch (IOException | RuntimeException e) {
            findings.add(new Finding(true, "cannot read Droid's " + file + ": " + e.getMessage(),
                    "fix " + file + " so that Droid can read it"));
            return Map.of();
        }
    }
}
