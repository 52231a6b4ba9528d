package dev.agentwarden.e2e;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/**
 * The e2e scenario base of a host that runs Warden as a command hook in one-shot sessions ({@link AuggieE2EIT},
 * {@link DroidE2EIT}, {@link QwenE2EIT}): the suite's life ({@link HostSuite} opened once before the scenarios, the
 * summary printed after them), and the moves a scenario makes ({@link #project}, {@link #manifest}, {@link #install},
 * {@link #session}), so that a suite holds only its host's facts and its scenarios.
 *
 * <p>One instance per suite ({@link TestInstance.Lifecycle#PER_CLASS}): its state is the suite's, never shared
 * with another suite. Every session has its own project, {@code HOME}, scratch folder, scripted model and sandbox
 * launch, and reads the host install without writing it, so a suite's scenarios may run side by side (a
 * {@code READ} lock of the host install, see {@link HostSuite#LOCK_PREFIX}) where that pays: measured for Auggie
 * and Droid, whose sessions wait on the host's own retries and shutdown; not for Qwen, whose sessions are all CPU.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
abstract class CommandHookSuite implements CommandHookScenarios.Host<CommandHookSuite.Run> {
    /** How one of the host's sessions starts. */
    interface Sessions {
        /** The environment of every host and Warden process of the suite, before per-run entries. */
        Map<String, String> baseEnv();

        /** One session in {@code project} against {@code server}, with {@code extraEnv} on top of the usual environment. */
        Command.Result run(E2eProject project, ScriptedModelServer server, String prompt, Map<String, String> extraEnv)
                throws IOException;
    }

    /**
     * What identifies a suite's host: the install ({@code name} as a person calls it, {@code label} for the summary
     * rows), Warden's id for it ({@code warden install --host wardenHost}, the manifest's platform key) and the hooks
     * file that install writes, relative to the project.
     */
    record Facts(HostInstall.Host install, String name, String label, String wardenHost, String hooksFile) {
    }

    /** What one session did: its process, and the requests it sent to the scripted model. */
    record Run(Command.Result process, ScriptedModelServer server) implements HostRun {
    }

    final E2eSummary summary = new E2eSummary();
    private final Facts facts;

    private HostSuite suite;
    private Sessions sessions;
    String host;

    CommandHookSuite(Facts facts) {
        this.facts = facts;
        this.host = facts.label();
    }

    /** How the host's sessions start, once the host is found in the e2e cache. */
    abstract Sessions sessions(HostSuite suite);

    /** The scripted model's wire form for one session. */
    abstract ModelApi modelApi();

    /** Opens the suite: sandbox helpers and the suite's Warden cache go under {@code suiteDir}, kept until it ends. */
    @BeforeAll
    void openSuite(@TempDir Path suiteDir) throws IOException {
        suite = HostSuite.open(facts.install(), facts.name(), facts.label(), summary, suiteDir);
        host = suite.host();
        if (suite.available()) {
            sessions = sessions(suite);
        }
    }

    @AfterAll
    void printSummary() {
        System.out.println(summary.render());
    }

    HostSuite suite() {
        return suite;
    }

    @Override
    public E2eProject project(Path dir, E2eSummary.Row... rows) throws IOException {
        return E2eProject.forScenario(dir, suite.unavailable(), rows);
    }

    /** A project manifest: the given concerns and the host's chains. */
    @Override
    public String manifest(String concerns, String chains) {
        return "schema_version: 1\nconcerns:\n" + concerns.indent(2) + "platforms:\n  " + facts.wardenHost() + ":\n"
                + chains.indent(4);
    }

    @Override
    public void install(E2eProject project) throws IOException {
        suite.install(project, sessions.baseEnv(), facts.wardenHost(), facts.hooksFile());
    }

    @Override
    public Run session(E2eProject project, String prompt, ModelScript script) throws IOException {
        return session(project, prompt, script, Map.of());
    }

    /** {@link #session(E2eProject, String, ModelScript)} with {@code extraEnv} on top ({@code PATH} without Warden). */
    Run session(E2eProject project, String prompt, ModelScript script, Map<String, String> extraEnv) throws IOException {
        try (ScriptedModelServer server = ScriptedModelServer.start(modelApi(), script)) {
            return new Run(sessions.run(project, server, prompt, extraEnv), server);
        }
    }

    /** {@code PATH} without this Warden's {@code bin/}: a machine where Warden is not installed. */
    static Map<String, String> withoutWarden() {
        return Map.of("PATH", System.getenv().getOrDefault("PATH", "/usr/bin:/bin"));
    }

    /** The tool result the host sent the model for the scripted call {@code scriptedId}. */
    @Override
    public abstract Optional<String> toolResult(Run run, String scriptedId);

    static String cut(String s) {
        return s.length() <= 80 ? s : s.substring(0, 80) + "…";
    }
}
