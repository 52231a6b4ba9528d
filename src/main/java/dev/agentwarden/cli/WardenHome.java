package dev.agentwarden.cli;

import dev.agentwarden.io.CacheDir;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

/**
 * Where this Warden lives: the directory holding {@code bin/warden}, found from Warden's own location,
 * never from the current directory. An installed release ({@code src/dist/make-dist.sh}) holds
 * {@code lib/warden.jar}, {@code runtime/} and {@code examples/}; a source checkout holds
 * {@code target/warden.jar} (or {@code target/classes}, from a test or an IDE). {@code -Dwarden.home},
 * which {@code bin/warden} sets, names it first.
 *
 * @param dir     the directory holding {@code bin/warden}
 * @param release whether it is an installed release rather than a source checkout
 */
record WardenHome(Path dir, boolean release) {
    /** This Warden's home, or {@code null} when neither {@code -Dwarden.home} nor the code's location holds {@code bin/warden}. */
    public static WardenHome locate() {
        String given = System.getProperty("warden.home");
        if (given != null && !given.isEmpty()) {
            WardenHome home = at(Path.of(given));
            if (home != null) {
                return home;
            }
        }
        Path code = codeLocation();
        // lib/warden.jar or target/warden.jar (its parent's parent), target/classes (the same)
        return code == null || code.getParent() == null || code.getParent().getParent() == null ? null
                : at(code.getParent().getParent());
    }

    /** The home at {@code dir} when it holds {@code bin/warden}, else {@code null}. */
    static WardenHome at(Path dir) {
        Path abs = dir.toAbsolutePath().normalize();
        if (!Files.isRegularFile(abs.resolve("bin/warden"))) {
            return null;
        }
        return new WardenHome(abs, Files.isRegularFile(abs.resolve("lib/warden.jar")));
    }

    /** The jar or classes directory this class was loaded from, or {@code null}. */
    private static Path codeLocation() {
        try {
            java.security.CodeSource source = WardenHome.class.getProtectionDomain().getCodeSource();
            return source == null ? null : Path.of(source.getLocation().toURI());
        } catch (URISyntaxException | IllegalArgumentException | SecurityException e) {
            return null;
        }
    }

    /** The launcher: {@code bin/warden}. */
    public Path launcher() {
        return dir.resolve("bin/warden");
    }

    /** What {@code demo}, {@code test} and {@code init} read: {@code examples/}. */
    public Path examples() {
        return dir.resolve("examples");
    }

    /** The jar {@code bin/warden} runs. */
    public Path jar() {
        return dir.resolve(release ? "lib/warden.jar" : "target/warden.jar");
    }

    /**
     * Where {@code bin/warden} keeps start-up archives: the user's cache ({@code cds/}) for a release,
     * whose own directory may be read-only; {@code target/cds} in a checkout.
     */
    public Path archiveDir(Map<String, String> env) {
        return release ? CacheDir.root(env).toAbsolutePath().resolve("cds") : dir.resolve("target/cds");
    }
}
