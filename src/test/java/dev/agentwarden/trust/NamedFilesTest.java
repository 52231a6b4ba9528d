package dev.agentwarden.trust;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agentwarden.digest.Sha256;
import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The hash a trust record keeps for a named file, small (plain Java) or large (the JDK's digest). */
class NamedFilesTest {
    @TempDir
    Path root;

    @Test
    void hashOrAbsent_smallAndLargeFiles_areTheirSha256() throws Exception {
        byte[] small = "#!/bin/sh\nexit 0\n".getBytes();
        byte[] large = new byte[NamedFiles.SMALL_BYTES * 3 + 7];
        Arrays.fill(large, (byte) 'x');
        Files.write(root.resolve("small.sh"), small);
        Files.write(root.resolve("large.bin"), large);

        assertThat(NamedFiles.hashOrAbsent(root, "small.sh")).isEqualTo(Sha256.hex(small));
        assertThat(NamedFiles.hashOrAbsent(root, "large.bin")).isEqualTo(Sha256.hex(large));
    }

    @Test
    void hashOrAbsent_missingOrDirectory_isAbsent() throws Exception {
        Files.createDirectory(root.resolve("dir"));

        assertThat(NamedFiles.hashOrAbsent(root, "nope.sh")).isEqualTo(TrustRecord.ABSENT);
        assertThat(NamedFiles.hashOrAbsent(root, "dir")).isEqualTo(TrustRecord.ABSENT);
        assertThat(NamedFiles.hashOrAbsent(root, "bad\0name")).isEqualTo(TrustRecord.ABSENT);
    }

    @Test
    void hashOrAbsent_hugeSparseFile_isTooLargeWithoutReadingIt() throws Exception {
        try (RandomAccessFile f = new RandomAccessFile(root.resolve("huge.sh").toFile(), "rw")) {
            f.setLength(3L * 1024 * 1024 * 1024);
        }

        assertThat(NamedFiles.hashOrAbsent(root, "huge.sh")).isEqualTo(NamedFiles.TOO_LARGE);
        assertThat(NamedFiles.unhashable(NamedFiles.TOO_LARGE)).isTrue();
    }
}
