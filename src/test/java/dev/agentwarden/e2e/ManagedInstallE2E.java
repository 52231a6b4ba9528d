package dev.agentwarden.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agentwarden.e2e.ManagedEtc.Overlay;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 26 item 3 on a real host, the scenarios every host shares: {@code warden install --scope managed --host <id>},
 * run as root over an overlay on {@code /etc} ({@link ManagedEtc}), writes the host's managed file; the managed Warden
 * policy ({@link ManagedHost#managed}) denies one shell command. Each session runs in a mount namespace over the same
 * overlay, in the loopback-only sandbox. A subclass names its {@link ManagedHost}, arranges its project (its own
 * pre-tool hook leaving a {@code project-hook-ran} marker, and the project's switch that turns hooks off), runs a
 * session and says what a run that was denied, or not, looks like on its host; it adds the scenarios only its host has.
 *
 * @param <R> what one session of the host returns
 */
@Tag("e2e")
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
abstract class ManagedInstallE2E<R> {
    /** The marker the project's own pre-tool hook leaves. */
    static final String PROJECT_HOOK_RAN = "project-hook-ran";

    /**
     * What differs between hosts in the shared scenarios.
     *
     * @param install          the host's binary in the e2e cache
     * @param name             the host's name in messages
     * @param id               Warden's host id ({@code install --host})
     * @param label            the summary rows' host, before the version
     * @param reason           the managed deny's reason, which must reach the model
     * @param managed          the managed policy ({@code /etc/agent-warden/manifest.yaml})
     * @param managedFile      the host's file the managed install writes, relative to {@code /etc}
     * @param preToolEvent     the host's native pre-tool event, which the managed hook dispatches
     * @param hooksOff         the project's setting that turns its hooks off, as the summary names it
     * @param controlExpected  what the control (no managed install) expects
     * @param hooksOffExpected what a project with {@link #hooksOff} expects under the managed install
     * @param besideExpected   what a project with a hook of its own expects under the managed install
     */
    record ManagedHost(HostInstall.Host install, String name, String id, String label, String reason, String managed,
                       String managedFile, String preToolEvent, String hooksOff, String controlExpected,
                       String hooksOffExpected, String besideExpected) {
    }

    final ManagedHost facts;
    final E2eSummary summary = new E2eSummary();
    /** The folders of the scenarios that ran since the last {@link #awaitTheHostsHooks}. */
    private final List<Path> scenarioDirs = new java.util.ArrayList<>();
    String host;
    String unavailable;

    ManagedInstallE2E(ManagedHost facts) {
        this.facts = facts;
        this.host = facts.label();
    }

    @BeforeAll
    void setUp(@TempDir Path suiteDir) throws IOException {
        HostSuite suite = HostSuite.open(facts.install(), facts.name(), facts.label(), summary, suiteDir);
        host = suite.host();
        unavailable = suite.unavailable();
        if (suite.available()) {
            startSessions(suite);
        }
    }

    /**
     * A host may exit while hooks it started (a session-end hook in a cold JVM on a busy machine) still run in the
     * scenario's folder: waits for them, so that none writes there while JUnit deletes it.
     */
    @AfterEach
    void awaitTheHostsHooks() throws InterruptedException {
        synchronized (scenarioDirs) {
            for (Path dir : scenarioDirs) {
                List<Long> left = dev.agentwarden.testing.Scratch.awaitNoProcessWorkingIn(dir, java.time.Duration.ofSeconds(90));
                assertThat(left).as("processes still working in " + dir + " 90 s after the scenario").isEmpty();
            }
            scenarioDirs.clear();
        }
    }

    @AfterAll
    void printSummary() {
        System.out.println(summary.render());
    }

    /** Keeps what sessions on the available host need. */
    abstract void startSessions(HostSuite suite);

    /** The environment of Warden commands run beside the host ({@code install}, {@code uninstall}). */
    abstract Map<String, String> baseEnv();

    /** Gives {@code project} its own pre-tool hook (leaving {@link #PROJECT_HOOK_RAN}) and, when asked, {@link ManagedHost#hooksOff}. */
    abstract void arrangeProject(E2eProject project, boolean hooksOff) throws IOException;

    /** One host session in the overlay that asks for the command the managed policy denies. */
    abstract R session(Overlay etc, E2eProject project) throws IOException;

    /** Records {@code run} on {@code row} and asserts the command ran (no managed install). */
    abstract void assertCommandRan(R run, E2eProject project, E2eSummary.Row row);

    /** Records {@code run} on {@code row} and asserts the managed hook denied the command with {@link ManagedHost#reason}. */
    abstract void assertManagedDeny(R run, E2eProject project, E2eSummary.Row row);

    /** Whether {@link ManagedHost#hooksOff} also keeps the project's own hook from running (asserted where measured). */
    abstract boolean hooksOffSilencesTheProjectHook();

    /** Whether the scenario left {@code marker} (in the project unless a host keeps markers elsewhere). */
    boolean made(E2eProject project, String marker) {
        return project.exists(marker);
    }

    /** Asserts what the managed install wrote into {@link ManagedHost#managedFile}. */
    void assertInstalled(String written) {
        assertThat(written).contains(ManagedEtc.LAUNCHER + " dispatch --host " + facts.id() + " --native-event "
                + facts.preToolEvent());
    }

    /** The control: the project that turns hooks off, with no managed install, runs the command. */
    @Test
    void withoutTheManagedInstall_theCommandRuns(@TempDir Path dir) throws Exception {
        E2eSummary.Row row = summary.row(host, "managed install: control, none installed", facts.controlExpected());
        E2eProject project = project(dir, row, true);
        Overlay etc = overlay(dir);

        R run = session(etc, project);

        assertCommandRan(run, project, row);
        row.pass();
    }

    @Test
    void projectTurningHooksOff_andHavingNoWardenHooks_stillGetsTheManagedDeny(@TempDir Path dir) throws Exception {
        E2eSummary.Row row = summary.row(host, "managed install: project " + facts.hooksOff(), facts.hooksOffExpected());
        E2eProject project = project(dir, row, true);
        Overlay etc = overlay(dir);
        install(etc, project, List.of());

        R run = session(etc, project);

        assertManagedDeny(run, project, row);
        if (hooksOffSilencesTheProjectHook()) {
            assertThat(made(project, PROJECT_HOOK_RAN)).as(facts.hooksOff() + " turns the project's own hook off").isFalse();
        }
        row.pass();
    }

    @Test
    void projectsOwnHook_runsBesideTheManagedOne(@TempDir Path dir) throws Exception {
        E2eSummary.Row row = summary.row(host, "managed install: project hook beside", facts.besideExpected());
        E2eProject project = project(dir, row, false);
        Overlay etc = overlay(dir);
        install(etc, project, List.of());

        R run = session(etc, project);

        assertManagedDeny(run, project, row);
        assertThat(made(project, PROJECT_HOOK_RAN)).as("the project's own hook ran beside the managed one").isTrue();
        row.pass();
    }

    /**
     * {@code --managed-only} over an administrator's own managed file: the install pins managed hooks only
     * ({@code pinned} is in the file after it, at its start when {@code pinnedFirst}), the project's hook does not run,
     * the managed deny holds, and {@code uninstall --managed-only} gives the administrator's file back byte for byte.
     */
    void managedOnlyRound(Path dir, E2eSummary.Row row, String adminFile, String pinned, boolean pinnedFirst)
            throws Exception {
        E2eProject project = project(dir, row, false);
        Overlay etc = overlay(dir);
        Path file = etc.written(facts.managedFile());
        Files.createDirectories(file.getParent());
        Files.writeString(file, adminFile);
        install(etc, project, List.of("--managed-only"));
        String installed = Files.readString(file);
        if (pinnedFirst) {
            assertThat(installed).startsWith(pinned);
        } else {
            assertThat(installed).contains(pinned);
        }

        R run = session(etc, project);

        assertManagedDeny(run, project, row);
        assertThat(made(project, PROJECT_HOOK_RAN)).as(pinned + " turns the project's hook off").isFalse();
        Command.Result un = ManagedEtc.inNamespace(etc, project, baseEnv(), List.of(ManagedEtc.LAUNCHER, "uninstall",
                "--scope", "managed", "--host", facts.id(), "--managed-only"));
        assertThat(un.exitCode()).as(un.stdout() + un.stderr()).isZero();
        assertThat(Files.readString(file)).as("the administrator's file, byte for byte").isEqualTo(adminFile);
    }

    /** A scenario's project, arranged by the host ({@link #arrangeProject}). */
    E2eProject project(Path dir, E2eSummary.Row row, boolean hooksOff) throws IOException {
        E2eProject project = E2eProject.forScenario(dir, unavailable, row);
        synchronized (scenarioDirs) {
            scenarioDirs.add(dir);
        }
        arrangeProject(project, hooksOff);
        return project;
    }

    Overlay overlay(Path dir) throws Exception {
        return ManagedEtc.overlay(dir, facts.managed());
    }

    /** {@code warden install --scope managed --host <id> extra…} in the overlay, and what it wrote. */
    void install(Overlay etc, E2eProject project, List<String> extra) throws IOException {
        ManagedEtc.install(etc, project, baseEnv(), facts.id(), extra);
        assertInstalled(Files.readString(etc.written(facts.managedFile())));
    }
}
