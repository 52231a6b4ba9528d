package dev.agentwarden.cli;

import dev.agentwarden.digest.Sha256;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The class-data archive {@code bin/warden} would use for this jar with this JVM, named as the
 * launcher names it: {@code <archive dir>/warden-<jar sha256, 16 hex>-jdk<feature><java home,
 * '/' as '_'>.aot} on JDK 25 and later ({@code .static.jsa} before, the static archive it dumps),
 * in {@link WardenHome#archiveDir}; current when its modification time is the jar's; given up after {@link #MAX_FAILURES} failures recorded in
 * {@code .failed-<sum>-jdk<feature>} until {@code bin/warden train-archive} runs.
 *
 * @param archive  the archive file
 * @param state    what is there
 * @param failures trainings or runs that failed with it
 */
record StartupArchive(Path archive, State state, int failures) {
    /** As {@code max_failures} in bin/warden. */
    static final int MAX_FAILURES = 3;

    enum State { CURRENT, MISSING, STALE, GIVEN_UP }

    /** The archive of {@code jar} in {@code dir} for the JVM running this code. */
    static StartupArchive of(Path dir, Path jar) throws IOException {
        String sum = jarSum(jar);
        int feature = Runtime.version().feature();
        Path javaHome = Path.of(System.getProperty("java.home"));
        try {
            javaHome = javaHome.toRealPath();
        } catch (IOException e) {
            // as given
        }
        String jdkId = javaHome.toString().replace('/', '_');
        Path archive = dir.resolve("warden-" + sum + "-jdk" + feature + jdkId + suffix(feature));
        int failures = failures(dir.resolve(".failed-" + sum + "-jdk" + feature));
        State state;
        if (Files.isRegularFile(archive)) {
            state = Files.getLastModifiedTime(archive).equals(Files.getLastModifiedTime(jar)) ? State.CURRENT : State.STALE;
        } else {
            state = failures >= MAX_FAILURES ? State.GIVEN_UP : State.MISSING;
        }
        return new StartupArchive(archive, state, failures);
    }

    /**
     * The commands' archive beside it ({@code <name>.commands.static.jsa}, JDK 17-24 only, or null on
     * JDK 25 and later): what bin/warden starts every command but dispatch with when current; a
     * {@code .failed} marker beside it means a training failed and is not retried until train-archive.
     */
    static StartupArchive commandsOf(Path dir, Path jar) throws IOException {
        if (Runtime.version().feature() >= 25) {
            return null;
        }
        StartupArchive dispatch = of(dir, jar);
        String name = dispatch.archive().getFileName().toString();
        Path archive = dispatch.archive().resolveSibling(name.substring(0, name.length() - ".static.jsa".length())
                + ".commands.static.jsa");
        State state;
        if (Files.isRegularFile(archive)) {
            state = Files.getLastModifiedTime(archive).equals(Files.getLastModifiedTime(jar)) ? State.CURRENT : State.STALE;
        } else {
            state = Files.exists(archive.resolveSibling(archive.getFileName() + ".failed")) ? State.GIVEN_UP : State.MISSING;
        }
        return new StartupArchive(archive, state, state == State.GIVEN_UP ? 1 : 0);
    }

    /** The archive's file suffix as bin/warden names it: an AOT cache from JDK 25, else a static AppCDS archive. */
    static String suffix(int feature) {
        return feature >= 25 ? ".aot" : ".static.jsa";
    }

    /** The first 16 hex digits of the jar's SHA-256, as bin/warden caches it beside the jar. */
    private static String jarSum(Path jar) throws IOException {
        Path cached = jar.resolveSibling(jar.getFileName() + ".sha256");
        if (Files.isRegularFile(cached) && !Files.getLastModifiedTime(jar).toInstant()
                .isAfter(Files.getLastModifiedTime(cached).toInstant())) {
            String line = Files.readString(cached, StandardCharsets.US_ASCII).strip();
            if (line.matches("[0-9a-f]{16}")) {
                return line;
            }
        }
        return Sha256.hex(Files.readAllBytes(jar)).substring(0, 16);
    }

    private static int failures(Path marker) {
        if (!Files.isRegularFile(marker)) {
            return 0;
        }
        try {
            String text = Files.readString(marker, StandardCharsets.US_ASCII).strip();
            return text.matches("[0-9]{1,4}") ? Integer.parseInt(text) : 1;
        } catch (IOException e) {
            return 1;
        }
    }

    /** One line for a person. */
    String describe() {
        switch (state) {
            case CURRENT:
                return "start-up archive " + archive + ": present and current";
            case STALE:
                return "start-up archive " + archive + " is stale (trained for another build of the jar)";
            case GIVEN_UP:
                return "no start-up archive: training failed " + failures + " times and bin/warden gave up (see "
                        + archive.getParent().resolve("train.log") + ")";
            default:
                return "no start-up archive " + archive + (failures > 0 ? " (" + failures + " failed training(s))" : "");
        }
    }
}
