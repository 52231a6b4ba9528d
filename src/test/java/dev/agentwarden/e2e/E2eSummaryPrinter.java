package dev.agentwarden.e2e;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.platform.launcher.TestExecutionListener;
import org.junit.platform.launcher.TestPlan;

/**
 * Prints the one table of every e2e suite's rows ({@link E2eSummary#renderCombined}) when the test
 * plan (failsafe's whole run) has finished, if a suite of this run wrote any. Registered through
 * {@code META-INF/services/org.junit.platform.launcher.TestExecutionListener}; a run without e2e
 * suites prints nothing.
 */
public final class E2eSummaryPrinter implements TestExecutionListener {
    @Override
    public void testPlanExecutionFinished(TestPlan testPlan) {
        Path file = E2eSummary.combinedWritten();
        if (file == null || !Files.exists(file)) {
            return;
        }
        try {
            System.out.println(E2eSummary.renderCombined(Files.readAllLines(file, StandardCharsets.UTF_8)));
            System.out.println("(rows: " + file + ")");
        } catch (IOException e) {
            System.err.println("e2e summary: could not read " + file + ": " + e);
        }
    }
}
