package dev.agentwarden.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CanonicalizeCommandTest {
    @TempDir
    Path tmp;

    @Test
    void canonicalize_file_printsCanonicalFormWithoutNewline() throws Exception {
        Path file = Files.writeString(tmp.resolve("in.json"), "{ \"b\": 2e23, \"a\": [1.0, \"\\u00e9\"] }\n");

        CliRun run = CliRun.of("canonicalize", file.toString());

        assertThat(run.exit()).isZero();
        assertThat(run.out()).isEqualTo("{\"a\":[1,\"\u00e9\"],\"b\":2e+23}");
    }

    @Test
    void canonicalize_sha256_printsHashOfCanonicalBytes() throws Exception {
        Path file = Files.writeString(tmp.resolve("in.json"), "{ \"a\" : 1 }");
        String expected = java.util.HexFormat.of().formatHex(java.security.MessageDigest.getInstance("SHA-256")
                .digest("{\"a\":1}".getBytes(StandardCharsets.UTF_8)));

        CliRun run = CliRun.of("canonicalize", "--sha256", file.toString());

        assertThat(run.exit()).isZero();
        assertThat(run.out()).isEqualTo(expected + System.lineSeparator());
    }

    @Test
    void canonicalize_duplicateKey_exit2WithCode() throws Exception {
        Path file = Files.writeString(tmp.resolve("dup.json"), "{\"a\":1,\"a\":2}");

        CliRun run = CliRun.of("canonicalize", file.toString());

        assertThat(run.exit()).isEqualTo(2);
        assertThat(run.out()).isEmpty();
        assertThat(run.err()).contains("json_duplicate_key").contains("dup.json");
    }

    @Test
    void canonicalize_missingFile_exit2() {
        CliRun run = CliRun.of("canonicalize", tmp.resolve("absent.json").toString());

        assertThat(run.exit()).isEqualTo(2);
        assertThat(run.err()).contains("input_unreadable");
    }
}
