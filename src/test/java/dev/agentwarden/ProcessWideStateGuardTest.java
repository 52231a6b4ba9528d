package dev.agentwarden;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Unit classes run side by side (surefire's {@code configurationParameters} in pom.xml), so a unit class
 * that touches state the whole JVM shares must say so: {@code @Isolated} (it runs alone), or a
 * {@code @ResourceLock} that every other toucher of that state also holds. This scans the source of every
 * unit class ({@code *Test.java} under src/test/java) with plain text matching:
 * <ul>
 * <li>system properties set or cleared: {@code @Isolated}, or {@code @ResourceLock(Resources.SYSTEM_PROPERTIES)}
 * when every property is a literal that neither src/main/java nor the JDK reads ({@code user.*},
 * {@code java.*}, ...): a property Warden's own code reads is read by classes that hold no lock;</li>
 * <li>{@code System.setOut/setErr}: {@code SYSTEM_OUT}/{@code SYSTEM_ERR} (or {@code @Isolated});
 * {@code System.setIn}, the default uncaught-exception handler: {@code @Isolated};
 * {@code Locale/TimeZone.setDefault}: {@code LOCALE}/{@code TIME_ZONE};</li>
 * <li>the process's MCP inventory cache (an in-process {@code Resident} starting or stopping,
 * {@code InventoryCache.closeAll/keepInThisProcess}): {@code @ResourceLock(SharedLocks.INVENTORY_CACHE)};
 * {@code FakeMcpServer} processes (counted among all of this JVM's children): {@code SharedLocks.FAKE_MCP_SERVERS};</li>
 * <li>a program written by this JVM and made executable (in a class with a {@code #!} line or a
 * {@code setExecutable}; the mode a literal with the owner's execute bit): it must be written through
 * {@code WardenProcess.writeScript/writeExecutable/copyExecutable} (a {@code cp} of its own), since a
 * child another test thread forks while the write is open keeps the file busy ({@code ETXTBSY}) for the
 * moment the test runs it.</li>
 * </ul>
 */
class ProcessWideStateGuardTest {
    private static final Path TESTS = Path.of("src/test/java");
    private static final Pattern PROPERTY_WRITE = Pattern.compile(
            "System\\.(?:setProperty|clearProperty|setProperties)\\(|System\\.getProperties\\(\\)\\s*\\.\\s*(?:put|remove|clear|setProperty)\\(");
    private static final Pattern PROPERTY_NAME = Pattern.compile("System\\.(?:setProperty|clearProperty)\\(\\s*(\"[^\"]*\")?");
    private static final Pattern EXEC_MODE = Pattern.compile(
            "setPosixFilePermissions\\(\\s*([^,;]+?)\\s*,[^;]*?fromString\\(\\s*\"(r[w-]x[^\"]*)\"\\s*\\)");
    private static final Pattern SET_EXECUTABLE = Pattern.compile("([\\w.()\"/-]+?)\\.toFile\\(\\)\\s*\\.\\s*setExecutable\\(\\s*true");
    private static final Pattern WRITTEN = Pattern.compile("Files\\.write(?:String)?\\(\\s*([^,;]+?)\\s*,");
    private static final Pattern WRITTEN_INTO = Pattern.compile("(\\w+)\\s*=\\s*(?:java\\.nio\\.file\\.)?Files\\.write(?:String)?\\(");
    private static final String GUARD = "ProcessWideStateGuardTest.java";

    /** The string literals of src/main/java: a system property named by none of them is not read by Warden's code. */
    private static Set<String> mainLiterals;

    @BeforeAll
    static void readMainLiterals() throws IOException {
        Set<String> literals = new HashSet<>();
        Pattern literal = Pattern.compile("\"((?:[^\"\\\\\\n]|\\\\.)*)\"");
        try (Stream<Path> files = Files.walk(Path.of("src/main/java"))) {
            for (Path f : files.filter(p -> p.toString().endsWith(".java")).toList()) {
                Matcher m = literal.matcher(Files.readString(f, StandardCharsets.UTF_8));
                while (m.find()) {
                    literals.add(m.group(1));
                }
            }
        }
        mainLiterals = literals;
    }

    @Test
    void everyUnitClass_touchingProcessWideState_isIsolatedOrHoldsItsLock() throws IOException {
        List<String> problems = new ArrayList<>();
        int scanned = 0;
        try (Stream<Path> files = Files.walk(TESTS)) {
            for (Path f : files.filter(p -> p.getFileName().toString().endsWith("Test.java")).sorted().toList()) {
                if (f.getFileName().toString().equals(GUARD)) {
                    continue;
                }
                scanned++;
                for (String p : problems(Files.readString(f, StandardCharsets.UTF_8), mainLiterals)) {
                    problems.add(TESTS.relativize(f) + ": " + p);
                }
            }
        }
        assertThat(scanned).as("unit classes scanned").isGreaterThan(200);
        assertThat(problems).as("unit classes run side by side; see this class's doc").isEmpty();
    }

    @Test
    void propertyWrites_withoutIsolation_areFound_andAnAnnotationClearsThem() {
        String bad = "class A { @Test void t() { System.setProperty(\"warden.x\", \"1\"); } }";
        assertThat(problems(bad, Set.of())).singleElement().asString().contains("system properties");
        assertThat(problems("@Isolated\n" + bad, Set.of())).isEmpty();
        assertThat(problems("@ResourceLock(Resources.SYSTEM_PROPERTIES)\n" + bad, Set.of())).isEmpty();
        assertThat(problems("class A { void t() { System.getProperties().remove(\"k\"); } }", Set.of())).hasSize(1);
    }

    @Test
    void propertyWrites_ofAPropertyWardenReads_needIsolationNotALock() {
        String locked = "@ResourceLock(Resources.SYSTEM_PROPERTIES)\nclass A { void t() { System.setProperty(%s, \"1\"); } }";
        assertThat(problems(locked.formatted("\"warden.read.chunk.bytes\""), Set.of("warden.read.chunk.bytes")))
                .singleElement().asString().contains("@Isolated");
        assertThat(problems(locked.formatted("\"user.home\""), Set.of())).singleElement().asString().contains("@Isolated");
        assertThat(problems(locked.formatted("CHUNK_PROPERTY"), Set.of())).as("a name that is not a literal")
                .singleElement().asString().contains("@Isolated");
        assertThat(problems(locked.formatted("\"warden.e2e.summary\""), Set.of("warden.read.chunk.bytes"))).isEmpty();
    }

    @Test
    void streamsLocaleAndHandlers_withoutTheirLock_areFound() {
        assertThat(problems("class A { void t() { System.setOut(x); System.setErr(y); } }", Set.of())).hasSize(2);
        assertThat(problems("@ResourceLock(Resources.SYSTEM_OUT)\nclass A { void t() { System.setOut(x); } }", Set.of()))
                .isEmpty();
        assertThat(problems("@ResourceLock(Resources.SYSTEM_OUT)\nclass A { void t() { System.setErr(x); } }", Set.of()))
                .hasSize(1);
        assertThat(problems("class A { void t() { System.setIn(x); } }", Set.of())).hasSize(1);
        assertThat(problems("class A { void t() { Locale.setDefault(Locale.ROOT); } }", Set.of())).hasSize(1);
        assertThat(problems("class A { void t() { TimeZone.setDefault(z); } }", Set.of())).hasSize(1);
        assertThat(problems("class A { void t() { Thread.setDefaultUncaughtExceptionHandler(h); } }", Set.of()))
                .hasSize(1);
    }

    @Test
    void theInventoryCache_withoutItsLock_isFound() {
        String bad = "class A { void t() { Resident r = Resident.start(dir, KEY, env, clock); } }";
        assertThat(problems(bad, Set.of())).singleElement().asString().contains("SharedLocks.INVENTORY_CACHE");
        assertThat(problems("@ResourceLock(SharedLocks.INVENTORY_CACHE)\n" + bad, Set.of())).isEmpty();
        assertThat(problems("class A { void t() { InventoryCache.closeAll(); } }", Set.of())).hasSize(1);
        assertThat(problems("class A { void t() { FakeMcpServer.awaitNoneRunning(); } }", Set.of())).singleElement()
                .asString().contains("SharedLocks.FAKE_MCP_SERVERS");
    }

    @Test
    void aProgramThisJvmWritesAndMakesExecutable_isFound_butNotADirectoryOrACopy() {
        assertThat(problems("""
                class A { void t() throws Exception {
                    Path s = dir.resolve("run.sh");
                    Files.writeString(s, "#!/bin/sh\\nexit 0\\n");
                    Files.setPosixFilePermissions(s, PosixFilePermissions.fromString("rwxr-xr-x"));
                } }""", Set.of())).singleElement().asString().contains("WardenProcess.writeScript");
        assertThat(problems("""
                class A { void t() throws Exception {
                    Path s = Files.writeString(dir.resolve("run.sh"), "#!/bin/sh\\n");
                    Files.setPosixFilePermissions(s, PosixFilePermissions.fromString("r-x------"));
                    Files.write(bin.resolve("npm"), bytes);
                    bin.resolve("npm").toFile().setExecutable(true);
                } }""", Set.of())).hasSize(2);
        assertThat(problems("""
                class A { void t() throws Exception {
                    Path d = Files.createDirectories(dir.resolve("shared"));
                    Files.setPosixFilePermissions(d, PosixFilePermissions.fromString("rwxrwxrwx"));
                    Files.writeString(f, "data");
                    Files.setPosixFilePermissions(f, PosixFilePermissions.fromString("rw-rw-rw-"));
                    WardenProcess.writeScript(dir.resolve("run.sh"), "#!/bin/sh\\n", "rwxr-xr-x");
                } }""", Set.of())).as("a directory, a file that is not executable, a program written by cp").isEmpty();
        assertThat(problems("""
                class A { void t() throws Exception {
                    Files.writeString(file, "data");
                    Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rwxrwxrwx"));
                } }""", Set.of())).as("a class that writes no program (no #! anywhere)").isEmpty();
    }

    /** What {@code source} (one unit class) touches without the annotation that makes it safe side by side. */
    static List<String> problems(String source, Set<String> mainLiterals) {
        List<String> out = new ArrayList<>();
        boolean isolated = source.contains("@Isolated");
        if (PROPERTY_WRITE.matcher(source).find() && !isolated) {
            if (!source.contains("SYSTEM_PROPERTIES")) {
                out.add("sets system properties: @Isolated, or @ResourceLock(Resources.SYSTEM_PROPERTIES) for a property"
                        + " only tests read");
            } else {
                Matcher m = PROPERTY_NAME.matcher(source);
                while (m.find()) {
                    String name = m.group(1) == null ? null : m.group(1).substring(1, m.group(1).length() - 1);
                    if (name == null || mainLiterals.contains(name) || jdkProperty(name)) {
                        out.add("sets system property " + (name == null ? "(not a literal)" : name)
                                + ", which code that holds no lock reads: @Isolated");
                    }
                }
            }
        }
        lock(out, source, isolated, "System.setOut(", "SYSTEM_OUT", "replaces System.out");
        lock(out, source, isolated, "System.setErr(", "SYSTEM_ERR", "replaces System.err");
        lock(out, source, isolated, "System.setIn(", null, "replaces System.in");
        lock(out, source, isolated, "Locale.setDefault(", "LOCALE", "sets the default locale");
        lock(out, source, isolated, "TimeZone.setDefault(", "TIME_ZONE", "sets the default time zone");
        lock(out, source, isolated, "setDefaultUncaughtExceptionHandler(", null, "sets the default uncaught-exception handler");
        for (String touch : List.of("Resident.start(", "InventoryCache.closeAll(", "InventoryCache.keepInThisProcess(")) {
            if (lock(out, source, isolated, touch, "SharedLocks.INVENTORY_CACHE", "uses the process's MCP inventory cache")) {
                break;
            }
        }
        lock(out, source, isolated, "FakeMcpServer", "SharedLocks.FAKE_MCP_SERVERS",
                "starts FakeMcpServer processes, whose count in this JVM it waits on");
        out.addAll(programsWrittenHere(source));
        return out;
    }

    /** Adds a problem when {@code source} calls {@code call} holding neither {@code @Isolated} nor {@code lock}. */
    private static boolean lock(List<String> out, String source, boolean isolated, String call, String lock, String what) {
        if (!source.contains(call) || isolated || (lock != null && source.contains("@ResourceLock(" + lock))
                || (lock != null && source.contains("@ResourceLock(Resources." + lock))) {
            return false;
        }
        out.add(what + " (" + call + "): " + (lock == null ? "@Isolated" : "@ResourceLock(" + lock + ") or @Isolated"));
        return true;
    }

    private static List<String> programsWrittenHere(String source) {
        if (!source.contains("#!") && !source.contains("setExecutable(")) {
            return List.of(); // writes no program
        }
        Set<String> written = new HashSet<>();
        Matcher w = WRITTEN.matcher(source);
        while (w.find()) {
            written.add(w.group(1).replaceAll("\\s+", ""));
        }
        Matcher into = WRITTEN_INTO.matcher(source);
        while (into.find()) {
            written.add(into.group(1));
        }
        List<String> out = new ArrayList<>();
        Matcher x = EXEC_MODE.matcher(source);
        while (x.find()) {
            String target = x.group(1).replaceAll("\\s+", "");
            if (written.contains(target)) {
                out.add("makes " + target + ", which this JVM wrote, executable: write it with"
                        + " WardenProcess.writeScript/writeExecutable (ETXTBSY)");
            }
        }
        Matcher e = SET_EXECUTABLE.matcher(source);
        while (e.find()) {
            String target = e.group(1).replaceAll("\\s+", "");
            if (written.contains(target)) {
                out.add("makes " + target + ", which this JVM wrote, executable: write it with"
                        + " WardenProcess.writeScript/writeExecutable (ETXTBSY)");
            }
        }
        return out;
    }

    private static boolean jdkProperty(String name) {
        for (String prefix : List.of("user.", "java.", "jdk.", "sun.", "os.", "file.", "line.", "path.", "native.")) {
            if (name.startsWith(prefix)) {
                return true;
            }
        }
        return false;
    }
}
