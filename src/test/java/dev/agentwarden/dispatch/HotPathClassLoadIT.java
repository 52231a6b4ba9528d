package dev.agentwarden.dispatch;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agentwarden.testing.EmptyMain;
import dev.agentwarden.testing.WardenProcess;
import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Named;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The dispatch hot path, pinned: one golden case of each kind ({@link GoldenCorpus#coldCases}: each
 * host, event, manifest and environment the corpus dispatches) runs through the packaged jar with
 * {@code -Xlog:class+load}, once under the default manifest (no {@code --manifest}) and once under the
 * corpus manifest, from a compiled manifest cache. A run fails when it loads a class of a
 * {@link #FORBIDDEN} family that a JVM running an empty main with the same flags does not load: what
 * the JDK loads at start-up regardless (from the CDS archive, the module system) is not dispatch's.
 *
 * <p>Named exceptions, each the cost of what the manifest binds rather than of dispatch:
 * <ul>
 *   <li>{@code java.util.regex} and lambda forms under the corpus manifest: its chains bind
 *       {@code deny-pattern}, whose patterns {@code java.util.regex} compiles with lambdas of its own;</li>
 *   <li>the warm-up dispatch that compiles each manifest into the cache (YAML) is not checked;</li>
 *   <li>the rule cases ({@code rules-manifest.yaml}) bind {@code builtin:rule}, which loads CEL: there the
 *       run must load {@code dev.cel} classes, which no other run may.</li>
 * </ul>
 *
 * <p>Each package with a class on the path under the default manifest says which in its
 * {@code package-info.java} ({@link HotPathLists}); the list is checked against the classes
 * loaded, so neither can drift. {@code -Dwarden.hotlist.write=true} rewrites the lists.
 *
 * <p>Each observation is a JVM of its own (what a class-load log shows is cumulative), started as
 * {@code bin/warden} starts it, from the class-data archive ({@link ClassDataArchive}: a class read
 * from it is logged as loaded all the same); the observations run on the parallel pool's threads.
 * The corpus-manifest observation is {@link GoldenRuns}' JVM, shared with the suites that check the
 * same run's output and decision line (GoldenRuns compiles that manifest into its cache first).
 */
@Execution(ExecutionMode.CONCURRENT)
class HotPathClassLoadIT {
    /**
     * Class-name families the hot path must not load: a name matches when it contains the text. Setup
     * ({@code dev.agentwarden.install}) is among them: {@code protect-warden} knows the files installers
     * write from the hosts' records ({@code Host#setupFiles}), never by building their installers.
     */
    static final List<String> FORBIDDEN = List.of("picocli.", "org.snakeyaml.", "java.util.regex.", "LambdaForm$",
            "$$Lambda", "java.util.stream.", "java.security.Provider", "java.security.Security", "sun.security.jca.",
            "sun.security.provider.", "java.security.MessageDigest", "dev.cel.", "com.google.", "dev.agentwarden.rule.",
            "dev.agentwarden.install.");

    @RegisterExtension
    static final GoldenCorpus.Project project = new GoldenCorpus.Project();

    private static Set<String> startup;
    /** Warden's top-level classes loaded by the default-manifest dispatches, by package. */
    private static final Map<String, Set<String>> HOT = new TreeMap<>();
    private static int defaultManifestRuns;
    private static final OncePerKey<Set<String>> DEFAULT_MANIFEST_LOADS = new OncePerKey<>();

    /** One case of each kind ({@link GoldenCorpus#coldCases}): a cold JVM per distinct hot path. */
    static Stream<Named<GoldenCorpus.Case>> cases() throws IOException {
        return GoldenCorpus.coldCases();
    }

    @BeforeAll
    static void warmUp() throws Exception {
        startup = emptyMainLoads();
        GoldenCorpus.Case any = GoldenCorpus.cases().findFirst().orElseThrow().getPayload();
        WardenProcess.run(ClassDataArchive.flags(), defaultManifest(any.argv()), project.env(any), any.stdin(), project.dir);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void dispatch_defaultManifest_loadsNoColdFamily(GoldenCorpus.Case c) throws Exception {
        Set<String> loaded = defaultManifestLoads(c);
        assertThat(forbidden(loaded, List.of())).as("classes %s loaded under the default manifest", c)
                .isEmpty();
    }

    /** Every hot package's {@code package-info.java} lists exactly its classes that the default-manifest dispatches loaded. */
    @AfterAll
    static void packageInfo_listsEachPackagesHotClasses() throws IOException {
        if (defaultManifestRuns != GoldenCorpus.coldCases().count()) {
            return; // a filtered run saw only some cases: the lists describe all of them
        }
        Path sources = WardenProcess.home().resolve("src/main/java");
        if (Boolean.getBoolean("warden.hotlist.write")) {
            HotPathLists.write(sources, HOT);
        }
        assertThat(HotPathLists.mismatches(sources, HOT)).as("package-info hot-path lists (rewrite them with"
                + " -Dwarden.hotlist.write=true)").isEmpty();
    }

    /**
     * The classes a cold dispatch of {@code c} under the default manifest loaded: run by the first test
     * to ask (and added to {@link #HOT}), awaited by the others, so the case is dispatched once.
     */
    private static Set<String> defaultManifestLoads(GoldenCorpus.Case c) throws Exception {
        return DEFAULT_MANIFEST_LOADS.get(c.name(), () -> {
            Set<String> loaded = loads(defaultManifest(c.argv()), c);
            remember(loaded);
            return loaded;
        });
    }

    private static synchronized void remember(Set<String> loaded) {
        defaultManifestRuns++;
        for (String name : loaded) {
            if (!name.startsWith("dev.agentwarden.")) {
                continue;
            }
            int dollar = name.indexOf('$');
            String top = dollar < 0 ? name : name.substring(0, dollar);
            int dot = top.lastIndexOf('.');
            HOT.computeIfAbsent(top.substring(0, dot), k -> new TreeSet<>()).add(top.substring(dot + 1));
        }
    }

    /** The first golden case of each host (a cold case: the first of its kind). */
    static Stream<Named<GoldenCorpus.Case>> oneCasePerHost() throws IOException {
        Set<String> seen = new TreeSet<>();
        return GoldenCorpus.coldCases().filter(c -> seen.add(c.getPayload().host())).toList().stream();
    }

    /**
     * Host records a dispatch of a host's event may build besides its own: Kilo's record is
     * {@code OpenCodeHost.pluginHost} with Kilo's facts, so OpenCode's holder class (and record) loads.
     */
    private static final Map<String, Set<String>> BUILT_WITH = Map.of("kilo", Set.of("opencode"));

    /**
     * A dispatch builds its own host's record only, and reads the default manifest from its constant:
     * building all twelve records (adapters, installers, tool tables) and rendering the manifest from
     * them at every start-up made the own-JVM path 1.13 x the jar before the host registry.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("oneCasePerHost")
    void dispatch_ofOneHostsEvent_buildsNoOtherHostsRecordNorRendersTheDefaultManifest(GoldenCorpus.Case c)
            throws Exception {
        Set<String> loaded = defaultManifestLoads(c);
        assertThat(loaded).as("classes loaded by %s", c).doesNotContain("dev.agentwarden.manifest.DefaultManifest");
        List<String> others = new ArrayList<>();
        for (String name : loaded) {
            Set<String> ids = recordIds(name);
            if (!ids.isEmpty() && !ids.contains(c.host())
                    && java.util.Collections.disjoint(ids, BUILT_WITH.getOrDefault(c.host(), Set.of()))) {
                others.add(name + " " + ids);
            }
        }
        assertThat(others).as("host-record classes (with the ids of their records) loaded by a dispatch of %s", c)
                .isEmpty();
    }

    /** The ids of the {@code Host} records a class under {@code dev.agentwarden.host.} holds in static fields. */
    private static Set<String> recordIds(String className) throws IllegalAccessException {
        Set<String> ids = new TreeSet<>();
        if (!className.startsWith("dev.agentwarden.host.") || className.contains("$")) {
            return ids;
        }
        Class<?> type;
        try {
            type = Class.forName(className);
        } catch (ClassNotFoundException e) {
            return ids;
        }
        for (java.lang.reflect.Field f : type.getDeclaredFields()) {
            if (java.lang.reflect.Modifier.isStatic(f.getModifiers()) && f.getType() == dev.agentwarden.host.Host.class) {
                f.setAccessible(true);
                ids.add(((dev.agentwarden.host.Host) f.get(null)).id());
            }
        }
        return ids;
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void dispatch_corpusManifest_loadsNoColdFamilyButRegex(GoldenCorpus.Case c) throws Exception {
        GoldenRuns.Run run = GoldenRuns.of(c);
        assertThat(run.result().exitCode()).as("%s exit code (stderr %s)", c, run.result().stderr()).isIn(0, 2);
        if (!c.manifest().equals(GoldenCorpus.manifest())) {
            // the rule cases' manifest binds builtin:rule: CEL (with Guava, protobuf and their streams and
            // lambdas) is the cost of what it binds, and it loads there and only there
            assertThat(run.loaded()).as("classes %s loaded under %s", c, c.manifest().getFileName())
                    .anyMatch(name -> name.startsWith("dev.cel."));
            return;
        }
        assertThat(forbidden(run.loaded(), List.of("java.util.regex.", "LambdaForm$", "$$Lambda"))).as("classes %s loaded under the corpus manifest", c)
                .isEmpty();
    }

    private static List<String> defaultManifest(List<String> argv) {
        List<String> out = new ArrayList<>(argv);
        int at = out.indexOf("--manifest");
        out.remove(at + 1);
        out.remove(at);
        return out;
    }

    private static List<String> forbidden(Set<String> loaded, List<String> excepted) {
        List<String> out = new ArrayList<>();
        for (String name : loaded) {
            if (startup.contains(name)) {
                continue;
            }
            for (String family : FORBIDDEN) {
                if (name.contains(family) && !excepted.contains(family)) {
                    out.add(name);
                    break;
                }
            }
        }
        return out;
    }

    private static Set<String> loads(List<String> argv, GoldenCorpus.Case c) throws IOException, InterruptedException {
        Path log = Files.createTempFile("warden-class-load", ".log");
        try {
            List<String> jvmArgs = new ArrayList<>(ClassDataArchive.flags());
            jvmArgs.add("-Xlog:class+load=info:file=" + log);
            WardenProcess.Result r = WardenProcess.run(jvmArgs, argv, project.env(c), c.stdin(),
                    project.dir);
            assertThat(r.exitCode()).as("%s exit code (stderr %s)", c, r.stderr()).isIn(0, 2);
            return classes(log);
        } finally {
            Files.deleteIfExists(log);
            // The JVM's logging moves the (empty) file it found aside as <name>.0 before it writes.
            Files.deleteIfExists(log.resolveSibling(log.getFileName() + ".0"));
        }
    }

    private static Set<String> emptyMainLoads() throws IOException, InterruptedException, URISyntaxException {
        Path log = Files.createTempFile("warden-class-load", ".log");
        try {
            List<String> command = new ArrayList<>(List.of(WardenProcess.java().toString()));
            command.addAll(WardenProcess.FLAGS);
            command.addAll(List.of("-Xlog:class+load=info:file=" + log, "-cp",
                    Path.of(EmptyMain.class.getProtectionDomain().getCodeSource().getLocation().toURI()).toString(),
                    EmptyMain.class.getName()));
            Process p = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
            assertThat(p.waitFor(WardenProcess.TIMEOUT_SECONDS, java.util.concurrent.TimeUnit.SECONDS)).as("empty main ran").isTrue();
            return classes(log);
        } finally {
            Files.deleteIfExists(log);
            // The JVM's logging moves the (empty) file it found aside as <name>.0 before it writes.
            Files.deleteIfExists(log.resolveSibling(log.getFileName() + ".0"));
        }
    }

    /** Class names from a {@code class+load} log: {@code [time][info][class,load] NAME source: ...}. */
    static Set<String> classes(Path log) throws IOException {
        Set<String> out = new LinkedHashSet<>();
        for (String line : Files.readAllLines(log, StandardCharsets.UTF_8)) {
            int tag = line.indexOf("[class,load] ");
            if (tag >= 0) {
                String rest = line.substring(tag + "[class,load] ".length());
                int space = rest.indexOf(' ');
                out.add(space < 0 ? rest : rest.substring(0, space));
            }
        }
        assertThat(out).as("class-load log %s", log).isNotEmpty();
        return out;
    }
}
