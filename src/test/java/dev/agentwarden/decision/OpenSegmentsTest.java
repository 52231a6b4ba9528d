package dev.agentwarden.decision;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.agentwarden.io.UnsafeFileException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class OpenSegmentsTest {
    private static final String MONTH = "2026-12";

    @TempDir
    Path tmp;

    private Path project() throws IOException {
        return Files.createDirectories(tmp.resolve("project"));
    }

    private static Path segment(Path project) {
        return DecisionLog.dir(project.toString()).resolve(MONTH + ".jsonl");
    }

    private static byte[] line(String text) {
        return ("{\"line\":\"" + text + "\"}\n").getBytes(StandardCharsets.UTF_8);
    }

    @Test
    void secondLine_toAnExistingSegment_keepsItOpen() throws Exception {
        Path project = project();
        try (OpenSegments segments = new OpenSegments()) {
            segments.write(project.toString(), MONTH, line("a"));
            assertThat(segments.size()).as("a segment this call created is not kept").isZero();
            segments.write(project.toString(), MONTH, line("b"));
            segments.write(project.toString(), MONTH, line("c"));
            assertThat(segments.size()).isEqualTo(1);
        }
        assertThat(Files.readAllLines(segment(project))).containsExactly("{\"line\":\"a\"}", "{\"line\":\"b\"}",
                "{\"line\":\"c\"}");
    }

    @Test
    void heldSegment_removedWhileOpen_nextLineRecreatesIt() throws Exception {
        Path project = project();
        try (OpenSegments segments = new OpenSegments()) {
            segments.write(project.toString(), MONTH, line("a"));
            segments.write(project.toString(), MONTH, line("b"));
            Files.delete(segment(project));
            segments.write(project.toString(), MONTH, line("c"));
        }
        assertThat(Files.readAllLines(segment(project))).as("the line is not written to the removed file")
                .containsExactly("{\"line\":\"c\"}");
    }

    @Test
    void heldSegment_renamedWhileOpen_nextLineGoesToThePath() throws Exception {
        Path project = project();
        Path rotated = segment(project).resolveSibling("rotated.jsonl");
        try (OpenSegments segments = new OpenSegments()) {
            segments.write(project.toString(), MONTH, line("a"));
            segments.write(project.toString(), MONTH, line("b"));
            Files.move(segment(project), rotated);
            Files.writeString(segment(project), "");
            segments.write(project.toString(), MONTH, line("c"));
        }
        assertThat(Files.readAllLines(rotated)).containsExactly("{\"line\":\"a\"}", "{\"line\":\"b\"}");
        assertThat(Files.readAllLines(segment(project))).containsExactly("{\"line\":\"c\"}");
    }

    @Test
    void heldSegment_whoseDirectoryWasReplacedByALinkOutOfTheProject_isNotFollowed() throws Exception {
        Path project = project();
        Path outside = Files.createDirectories(tmp.resolve("outside"));
        Path decisions = DecisionLog.dir(project.toString());
        try (OpenSegments segments = new OpenSegments()) {
            segments.write(project.toString(), MONTH, line("a"));
            segments.write(project.toString(), MONTH, line("b"));
            assertThat(segments.size()).isEqualTo(1);
            // what a checkout that puts a committed link in its place does: remove, then link
            Files.delete(segment(project));
            Files.delete(decisions);
            Files.writeString(outside.resolve(MONTH + ".jsonl"), "");
            Files.createSymbolicLink(decisions, outside);

            assertThatThrownBy(() -> segments.write(project.toString(), MONTH, line("c")))
                    .isInstanceOf(UnsafeFileException.class).hasMessageContaining("symbolic link");
            assertThat(segments.size()).isZero();
        }
        assertThat(Files.readString(outside.resolve(MONTH + ".jsonl"))).as("nothing written through the link").isEmpty();
    }

    @Test
    void heldSegments_withAnotherWriterAppending_loseAndInterleaveNothing() throws Exception {
        Path project = project();
        String root = project.toString();
        DecisionLog.write(root, MONTH, line("first"));
        int writers = 4;
        int lines = 400;
        String pad = "x".repeat(900);
        CountDownLatch start = new CountDownLatch(1);
        List<Thread> threads = new ArrayList<>();
        List<Throwable> failures = java.util.Collections.synchronizedList(new ArrayList<>());
        try (OpenSegments segments = new OpenSegments()) {
            for (int w = 0; w < writers; w++) {
                int id = w;
                // writers 0 and 1 hold the segment open; 2 and 3 open it for each line, as another process does
                threads.add(new Thread(() -> {
                    try {
                        start.await();
                        for (int i = 0; i < lines; i++) {
                            byte[] l = line(id + ":" + i + ":" + pad);
                            if (id < 2) {
                                segments.write(root, MONTH, l);
                            } else {
                                DecisionLog.write(root, MONTH, l);
                            }
                        }
                    } catch (Throwable e) {
                        failures.add(e);
                    }
                }));
            }
            threads.forEach(Thread::start);
            start.countDown();
            for (Thread t : threads) {
                t.join(TimeUnit.MINUTES.toMillis(2));
            }
        }
        assertThat(failures).isEmpty();
        List<String> all = Files.readAllLines(segment(project));
        assertThat(all).hasSize(1 + writers * lines);
        Map<Integer, Integer> next = new HashMap<>();
        for (String l : all.subList(1, all.size())) {
            assertThat(l).startsWith("{\"line\":\"").endsWith(pad + "\"}");
            String[] parts = l.substring(9).split(":", 3);
            int id = Integer.parseInt(parts[0]);
            int i = Integer.parseInt(parts[1]);
            assertThat(i).as("writer " + id + " in order").isEqualTo(next.getOrDefault(id, 0));
            next.put(id, i + 1);
        }
    }

    @Test
    void linesWrittenThroughAHeldSegment_surviveTheProcessDyingWithoutClosingIt() throws Exception {
        Path project = project();
        Process child = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp", System.getProperty("java.class.path"), CrashingWriter.class.getName(), project.toString(), "200")
                .redirectErrorStream(true).start();
        assertThat(child.waitFor(2, TimeUnit.MINUTES)).isTrue();
        assertThat(child.exitValue()).as(new String(child.getInputStream().readAllBytes(), StandardCharsets.UTF_8))
                .isEqualTo(9);
        List<String> all = Files.readAllLines(segment(project));
        assertThat(all).hasSize(200);
        for (int i = 0; i < all.size(); i++) {
            assertThat(all.get(i)).isEqualTo("{\"line\":\"" + i + "\"}");
        }
    }

    /** Writes lines through held segments, then halts without closing them (as a killed server would). */
    static final class CrashingWriter {
        public static void main(String[] args) throws Exception {
            OpenSegments segments = new OpenSegments();
            int n = Integer.parseInt(args[1]);
            for (int i = 0; i < n; i++) {
                segments.write(args[0], MONTH, line(Integer.toString(i)));
            }
            Runtime.getRuntime().halt(9);
        }
    }
}
