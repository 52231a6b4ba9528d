package dev.agentwarden.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * What the suites of hosts that run Warden as a command hook in one-shot sessions ({@link AuggieE2EIT},
 * {@link DroidE2EIT}, {@link QwenE2EIT}) share: several scenarios asserted on one session, each on its own summary
 * row ({@link #check}, {@link #rethrow}), and the scenario bodies that are the same on every such host, written
 * once against the host's moves ({@link Host}, which {@link CommandHookSuite} makes for each of them).
 */
final class CommandHookScenarios {
    private CommandHookScenarios() {
    }

    /** One scenario's assertions: on success its row passes; a failure is kept for the method to rethrow. */
    interface Check {
        void run() throws Exception;
    }

    /** A host suite's moves, which a shared scenario body makes in its order. */
    interface Host<R extends HostRun> {
        /** A scenario's project, whose rows skip when the host is unavailable. */
        E2eProject project(Path dir, E2eSummary.Row... rows) throws IOException;

        /** A project manifest: the given concerns and the host's chains. */
        String manifest(String concerns, String chains);

        /** {@code warden install} of the host into {@code project}. */
        void install(E2eProject project) throws IOException;

        /** The scripted model's call of the host's shell tool running {@code command}. */
        Turn shell(String id, String command);

        /** One host session against the scripted model. */
        R session(E2eProject project, String prompt, ModelScript script) throws IOException;

        /** The tool result the host sent the model for the scripted call {@code scriptedId}. */
        Optional<String> toolResult(R run, String scriptedId);
    }

    /** Runs {@code check}: its row passes, or records the first line of its failure, which joins {@code failures}. */
    static void check(E2eSummary.Row row, List<AssertionError> failures, Check check) throws Exception {
        try {
            check.run();
            row.pass();
        } catch (AssertionError e) {
            row.observed("FAILED: " + e.getMessage().lines().findFirst().orElse(""));
            failures.add(e);
        }
    }

    /** Throws the first of {@code failures}, the others suppressed in it; nothing when there are none. */
    static void rethrow(List<AssertionError> failures) {
        if (!failures.isEmpty()) {
            AssertionError first = failures.get(0);
            for (int i = 1; i < failures.size(); i++) {
                first.addSuppressed(failures.get(i));
            }
            throw first;
        }
    }

    /**
     * One session, two failing concerns: each crashes only on its own command. The fail-open one lets its command
     * run; the fail-closed one refuses its command with Warden's reason (the whole tool result when
     * {@code reasonIsTheResult}, else within it).
     */
    static <R extends HostRun> void crashingConcerns(E2eSummary summary, String host, Path dir, Host<R> h,
                                                     boolean reasonIsTheResult) throws Exception {
        E2eSummary.Row open = summary.row(host, "fail-open: concern crashes, fail_closed: false", "its command runs");
        E2eSummary.Row closed = summary.row(host, "fail-closed: concern crashes, fail_closed: true",
                "tool_result names the concern and fail_closed; command not run");
        E2eProject project = h.project(dir, open, closed);
        for (String which : List.of("open", "closed")) {
            project.concern("crash-" + which + ".sh", "#!/bin/sh\ncase \"$(cat)\" in *" + which
                    + "-marker*) echo 'crashed on purpose' >&2; exit 3 ;; esac\nexit 0\n");
        }
        project.manifest(h.manifest("""
                crash-open:
                  script: .warden/concerns/crash-open.sh
                  severity: blocking
                  fail_closed: false
                  timeout_ms: 10000
                crash-closed:
                  script: .warden/concerns/crash-closed.sh
                  severity: blocking
                  fail_closed: true
                  timeout_ms: 10000
                """, "pre_tool_use: [crash-open, crash-closed]\n"));
        h.install(project);

        R run = h.session(project, "touch the markers", ModelScript.of(
                h.shell("open", "touch open-marker"),
                h.shell("closed", "touch closed-marker"),
                Turn.text("FINAL: done")));
        open.timing(run.process().millis(), run.firstModelCallMillis());
        closed.timing(run.process().millis(), run.firstModelCallMillis());
        List<AssertionError> failures = new ArrayList<>();
        check(open, failures, () -> {
            open.observed("marker " + (project.exists("open-marker") ? "created" : "ABSENT"));
            assertThat(run.process().exitCode()).as(run.describe()).isZero();
            assertThat(project.exists("open-marker")).as("fail-open: the command ran: " + run.describe()).isTrue();
        });
        check(closed, failures, () -> {
            Optional<String> result = h.toolResult(run, "closed");
            closed.observed("tool_result=" + result.orElse("(none)") + "; marker "
                    + (project.exists("closed-marker") ? "CREATED" : "absent"));
            assertThat(result).as("tool_result: " + run.describe()).hasValueSatisfying(r -> {
                assertThat(r).contains("[warden] crash-closed could not run").contains("fail_closed refuses");
                if (reasonIsTheResult) {
                    assertThat(r).startsWith("[warden] crash-closed could not run");
                }
            });
            assertThat(project.exists("closed-marker")).as("the refused command ran").isFalse();
        });
        rethrow(failures);
    }
}
