package dev.agentwarden.cli;

import dev.agentwarden.cli.DoctorCommand.Finding;
import dev.agentwarden.cli.DoctorCommand.Section;
import dev.agentwarden.manifest.ManifestCompiler;
import dev.agentwarden.manifest.ManifestException;
import dev.agentwarden.manifest.ManifestLoader;
import dev.agentwarden.manifest.ManifestProblem;
import dev.agentwarden.trust.ProjectManifest;
import dev.agentwarden.trust.TrustRecord;
import dev.agentwarden.trust.TrustStore;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** Doctor's check of the manifest in force: that it loads, that the project's lints clean, and that it is trusted as it is now. */
final class ManifestCheck {
    private ManifestCheck() {
    }

    /** The manifest in force, whether the project's lints clean and is trusted as it is now. */
    static Section run(Path root, Map<String, String> env) {
        List<Finding> found = new ArrayList<>();
        Section section = new Section("manifest", found);
        ProjectManifest.Resolution resolution;
        try {
            resolution = ProjectManifest.resolve(null, root.toString(), env);
        } catch (ManifestException e) {
            found.add(Finding.problem("the manifest in force does not load: " + e.getMessage(), "warden manifest lint"));
            return section;
        }
        ManifestLoader.Source inForce = resolution.source();
        String sha = inForce.sha256() != null ? inForce.sha256() : ManifestLoader.sha256(inForce.bytes());
        found.add(Finding.ok("in force: " + shortName(inForce.name(), root) + " (sha256:" + sha.substring(0, 12) + "…)"));
        for (String note : resolution.notes()) {
            found.add(Finding.problem(note.replaceFirst("^warden: ", ""), "review " + TrustStore.PROJECT_MANIFEST
                    + ", then run `warden trust` in " + root));
        }
        Path file = root.resolve(TrustStore.PROJECT_MANIFEST);
        if (!Files.isRegularFile(file)) {
            found.add(Finding.note("no " + TrustStore.PROJECT_MANIFEST + ": the built-in default manifest is in force"));
            return section;
        }
        try {
            ManifestLoader.Source source = ManifestLoader.read(file);
            ManifestCompiler.Result result = ManifestCompiler.compileAndCheckScripts(source.name(),
                    new String(source.bytes(), StandardCharsets.UTF_8), source.sha256(), root);
            List<ManifestProblem> errors = new ArrayList<>();
            for (ManifestProblem p : result.problems()) {
                if (p.isError()) {
                    errors.add(p);
                }
            }
            if (errors.isEmpty()) {
                found.add(Finding.ok(TrustStore.PROJECT_MANIFEST + " lints clean" + (result.problems().isEmpty() ? ""
                        : " (" + result.problems().size() + " warning(s): `warden manifest lint`)")));
            } else {
                found.add(Finding.problem(TrustStore.PROJECT_MANIFEST + " has " + errors.size() + " lint error(s), first: "
                        + errors.get(0), "warden manifest lint " + file + " (then fix what it names)"));
            }
        } catch (ManifestException e) {
            found.add(Finding.problem(TrustStore.PROJECT_MANIFEST + " does not load: " + e.getMessage(),
                    "warden manifest lint " + file));
        }
        TrustStore.Lookup lookup = TrustStore.forEnv(env).lookup(TrustStore.realRoot(root.toString()));
        TrustRecord record = lookup.record();
        if (record != null && resolution.notes().isEmpty()) {
            List<String> changed = new ArrayList<>();
            for (Map.Entry<String, String> f : record.files().entrySet()) {
                String now = TrustStore.currentHash(root, f.getKey());
                if (now != null && !now.equals(f.getValue())) {
                    changed.add(f.getKey());
                }
            }
            if (changed.isEmpty()) {
                found.add(Finding.ok("trusted as it is now (" + record.files().size() + " script file(s); `warden trust --show`)"));
            } else {
                found.add(Finding.problem("script(s) changed since trusted, so they do not run: " + String.join(", ", changed),
                        "review them, then run `warden trust` in " + root));
            }
        }
        return section;
    }

    /** A manifest source as shown: relative to the project root when it lies under it. */
    static String shortName(String source, Path root) {
        Path p = Path.of(source);
        return p.isAbsolute() && p.startsWith(root) ? root.relativize(p).toString() : source;
    }
}
