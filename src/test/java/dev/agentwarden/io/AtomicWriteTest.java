package dev.agentwarden.io;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class AtomicWriteTest {
    @TempDir
    Path dir;

    @Test
    void write_replacesTheFileWhole_andLeavesNoTemporaryFile() throws Exception {
        Path file = dir.resolve("state.json");
        AtomicWrite.write(file, "old".getBytes(StandardCharsets.UTF_8));
        AtomicWrite.write(file, "new".getBytes(StandardCharsets.UTF_8));

        assertThat(Files.readString(file)).isEqualTo("new");
        assertThat(names()).containsExactly("state.json");
    }

    @Test
    void write_withPermissions_givesExactlyThose_whateverTheOldFileHad() throws Exception {
        Path file = dir.resolve("secret");
        Files.writeString(file, "old");
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rwxrwxrwx"));

        AtomicWrite.write(file, "token".getBytes(StandardCharsets.UTF_8), PosixFilePermissions.fromString("rw-------"));

        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(file))).isEqualTo("rw-------");
        AtomicWrite.write(file, "shared".getBytes(StandardCharsets.UTF_8), PosixFilePermissions.fromString("rw-r--r--"));
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(file))).isEqualTo("rw-r--r--");
        assertThat(Files.readString(file)).isEqualTo("shared");
    }

    @Test
    void concurrentWriters_eachLeaveAWholeVersion_neverAMix() throws Exception {
        Path file = dir.resolve("open.json");
        ExecutorService pool = Executors.newFixedThreadPool(8);
        try {
            List<Future<?>> writes = new ArrayList<>();
            for (int i = 0; i < 200; i++) {
                String text = Integer.toString(i).repeat(5000);
                writes.add(pool.submit(() -> {
                    AtomicWrite.write(file, text.getBytes(StandardCharsets.UTF_8));
                    return null;
                }));
            }
            for (Future<?> w : writes) {
                w.get();
            }
        } finally {
            pool.shutdown();
        }
        String text = Files.readString(file);
        assertThat(text).matches("(\\d+)\\1{4999}");
        assertThat(names()).containsExactly("open.json");
    }

    private List<String> names() throws Exception {
        try (Stream<Path> files = Files.list(dir)) {
            return files.map(p -> p.getFileName().toString()).toList();
        }
    }
}
