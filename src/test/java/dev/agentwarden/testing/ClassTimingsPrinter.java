package dev.agentwarden.testing;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.platform.engine.TestExecutionResult;
import org.junit.platform.engine.support.descriptor.ClassSource;
import org.junit.platform.launcher.TestExecutionListener;
import org.junit.platform.launcher.TestIdentifier;
import org.junit.platform.launcher.TestPlan;

/**
 * Prints, when a test plan (surefire's or failsafe's whole run) has finished, the wall time of its
 * slowest test classes, from a class's start to its end (classes that run beside others overlap, so
 * the times add up to more than the run), and writes every class's time to
 * {@code target/class-timings-<first class's phase>.tsv}. Registered through
 * {@code META-INF/services/org.junit.platform.launcher.TestExecutionListener}.
 */
public final class ClassTimingsPrinter implements TestExecutionListener {
    /** How many of the slowest classes are printed. */
    static final int SHOWN = 15;

    private final Map<String, Long> started = new ConcurrentHashMap<>();
    private final Map<String, Long> took = new ConcurrentHashMap<>();
    private volatile long planStarted;

    @Override
    public void testPlanExecutionStarted(TestPlan testPlan) {
        planStarted = System.nanoTime();
    }

    @Override
    public void executionStarted(TestIdentifier id) {
        String name = className(id);
        if (name != null) {
            started.put(name, System.nanoTime());
        }
    }

    @Override
    public void executionFinished(TestIdentifier id, TestExecutionResult result) {
        String name = className(id);
        Long start = name == null ? null : started.remove(name);
        if (start != null) {
            took.put(name, System.nanoTime() - start);
        }
    }

    @Override
    public void testPlanExecutionFinished(TestPlan testPlan) {
        if (took.isEmpty()) {
            return;
        }
        List<Map.Entry<String, Long>> rows = new ArrayList<>(took.entrySet());
        rows.sort((a, b) -> Long.compare(b.getValue(), a.getValue()));
        long wall = System.nanoTime() - planStarted;
        String phase = rows.get(0).getKey().endsWith("IT") ? "it" : "unit";
        StringBuilder out = new StringBuilder("slowest test classes (" + phase + ", " + rows.size()
                + " classes, " + seconds(wall) + " s wall):\n");
        for (int k = 0; k < Math.min(SHOWN, rows.size()); k++) {
            out.append(String.format("%8s s  %s%n", seconds(rows.get(k).getValue()), rows.get(k).getKey()));
        }
        System.out.print(out);
        write(phase, rows);
    }

    private static void write(String phase, List<Map.Entry<String, Long>> rows) {
        StringBuilder tsv = new StringBuilder("seconds\tclass\n");
        for (Map.Entry<String, Long> row : rows) {
            tsv.append(seconds(row.getValue())).append('\t').append(row.getKey()).append('\n');
        }
        Path file = Path.of("target", "class-timings-" + phase + ".tsv");
        try {
            Files.createDirectories(file.getParent());
            Files.writeString(file, tsv, StandardCharsets.UTF_8);
        } catch (IOException e) {
            System.err.println("class timings: could not write " + file + ": " + e);
        }
    }

    /** The class a class container stands for, or {@code null} for any other node (a method, the engine). */
    private static String className(TestIdentifier id) {
        if (!id.isContainer()) {
            return null;
        }
        return id.getSource().filter(ClassSource.class::isInstance).map(s -> ((ClassSource) s).getClassName())
                .orElse(null);
    }

    private static String seconds(long nanos) {
        return String.format("%.1f", nanos / 1e9);
    }
}
