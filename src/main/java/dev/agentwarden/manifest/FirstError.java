package dev.agentwarden.manifest;

import dev.agentwarden.io.OwnedPath;
import dev.agentwarden.io.StateFiles;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Map;

/**
 * The first error of a manifest that is not in force (a project's file edited since it was
 * trusted), for the note that says why the last good one still is. The answer is kept beside the
 * compiled cache, keyed by the source's SHA-256 ({@code manifest-<sha>-v<format>.error}), so an
 * edited manifest is parsed once, not on every event; a compiled form already cached means it
 * compiles. What is kept there is a message only, never policy, and is read only when private.
 */
public final class FirstError {
    /** Longest first-error text kept or read. */
    static final int MAX_CHARS = 2000;

    private FirstError() {
    }

    /** The first error of {@code source} as {@code file:line: error: key: message}, or {@code null} when it compiles. */
    public static String of(ManifestLoader.Source source, Map<String, String> env) {
        String sha = source.sha();
        Path dir = ManifestLoader.cacheDir(env);
        Path compiled = dir.resolve("manifest-" + sha + "-v" + ManifestCodec.FORMAT + ".json");
        Path kept = dir.resolve("manifest-" + sha + "-v" + ManifestCodec.FORMAT + ".error");
        if (Files.exists(compiled, LinkOption.NOFOLLOW_LINKS) && OwnedPath.problem(compiled) == null) {
            return null;
        }
        if (Files.exists(kept, LinkOption.NOFOLLOW_LINKS) && OwnedPath.problem(kept) == null) {
            try {
                String text = new String(StateFiles.readAll(kept, MAX_CHARS * 4L, false), StandardCharsets.UTF_8).strip();
                if (!text.isEmpty()) {
                    return text;
                }
            } catch (IOException unreadable) {
                // compile again
            }
        }
        String first;
        try {
            ManifestLoader.load(source, env, new ArrayList<>());
            return null;
        } catch (ManifestException e) {
            first = describe(e);
        }
        ManifestLoader.writePrivately(dir, kept, first);
        return first;
    }

    /** The first error of a manifest that did not load, in one line. */
    static String describe(ManifestException e) {
        for (ManifestProblem p : e.problems()) {
            if (p.isError()) {
                return clip(p.toString());
            }
        }
        return clip(e.getMessage());
    }

    private static String clip(String s) {
        String line = s.replace('\n', ' ');
        return line.length() <= MAX_CHARS ? line : line.substring(0, MAX_CHARS) + "…";
    }
}
