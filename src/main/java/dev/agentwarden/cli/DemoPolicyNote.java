package dev.agentwarden.cli;

import dev.agentwarden.concern.ConcernSpec;
import dev.agentwarden.event.EventName;
import dev.agentwarden.host.Hosts;
import dev.agentwarden.manifest.Manifest;
import dev.agentwarden.manifest.ManifestException;
import dev.agentwarden.manifest.ManifestLoader;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The paragraph {@code warden demo} starts with: its session replay runs its own manifest
 * ({@code examples/demo/manifest.yaml}), not the default policy, so a user does not take the demo's
 * refusals (force-push, reading {@code .env}) for what an install enforces. Both chains are read from
 * the manifests themselves, so the note cannot drift from them.
 */
final class DemoPolicyNote {
    /** The demo's manifest, under Warden's home. */
    static final String DEMO_MANIFEST = "examples/demo/manifest.yaml";

    private DemoPolicyNote() {
    }

    /** The note, or a line saying why it could not be made (the demo still runs). */
    static String of(Path home, Map<String, String> env) {
        try {
            Manifest defaults = ManifestLoader.load(ManifestLoader.builtinDefault(), env);
            List<String> byDefault = preToolUse(defaults);
            String text = "Note: this demo runs its own manifest, " + DEMO_MANIFEST + ", not the default policy.";
            if (home != null) {
                Manifest demo = ManifestLoader.load(ManifestLoader.read(home.resolve(DEMO_MANIFEST)), env);
                List<String> added = new ArrayList<>(preToolUse(demo));
                added.removeAll(byDefault);
                if (!added.isEmpty()) {
                    text += " Its refusals from " + String.join(", ", added) + " (such as `git push --force` and"
                            + " reading .env) are the demo's own rules; the default allows those.";
                }
            }
            return text + " With no .warden/manifest.yaml, `warden install` enforces the default, whose "
                    + Hosts.demo().id() + " PreToolUse chain is: " + String.join(", ", byDefault)
                    + " (`warden manifest show --host " + Hosts.demo().id() + " --event PreToolUse` in a project"
                    + " without one lists it; `warden init` starts a manifest that extends it).";
        } catch (ManifestException e) {
            return "Note: this demo runs its own manifest, " + DEMO_MANIFEST + ", not the default policy"
                    + " (its chain could not be read: " + e.getMessage() + ").";
        }
    }

    /** {@code text} broken at spaces into lines of at most {@code width} characters (a longer word stands alone). */
    static List<String> lines(String text, int width) {
        List<String> out = new ArrayList<>();
        StringBuilder line = new StringBuilder();
        for (String word : text.split(" ")) {
            if (line.length() > 0 && line.length() + 1 + word.length() > width) {
                out.add(line.toString());
                line.setLength(0);
            }
            line.append(line.length() > 0 ? " " : "").append(word);
        }
        if (line.length() > 0) {
            out.add(line.toString());
        }
        return out;
    }

    private static List<String> preToolUse(Manifest m) {
        List<String> names = new ArrayList<>();
        for (ConcernSpec c : m.chain(Hosts.demo().id(), EventName.PRE_TOOL_USE, Manifest.DEFAULT_ROLE)) {
            names.add(c.name());
        }
        return names;
    }
}
