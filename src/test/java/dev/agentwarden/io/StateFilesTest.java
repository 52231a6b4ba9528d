package dev.agentwarden.io;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import dev.agentwarden.testing.Fifo;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class StateFilesTest {
    /** Generous: only a refusal that never comes runs into it. */
    static final Duration NO_HANG = Duration.ofSeconds(30);

    @TempDir
    Path tmp;

    Path project() throws IOException {
        return Files.createDirectories(tmp.resolve("project"));
    }

    Path outside(String content) throws IOException {
        Path f = tmp.resolve("outside.txt");
        Files.writeString(f, content);
        return f;
    }

    @Test
    void openAppend_throughSymlinkedFile_isRefusedAndTargetUnchanged() throws IOException {
        Path project = project();
        Path victim = outside("precious\n");
        Path file = project.resolve(".warden/state/ledger/2026-05.jsonl");
        Files.createDirectories(file.getParent());
        Files.createSymbolicLink(file, victim);

        assertThatThrownBy(() -> StateFiles.openAppend(project, file))
                .isInstanceOfSatisfying(UnsafeFileException.class, e -> assertThat(e.code()).isEqualTo("state_symlink_refused"));
        assertThat(Files.readString(victim)).isEqualTo("precious\n");
    }

    @Test
    void openWrite_throughSymlinkedFile_isRefusedAndTargetNotTruncated() throws IOException {
        Path project = project();
        Path victim = outside("x".repeat(1000));
        Path head = project.resolve(".warden/state/ledger/head.json");
        Files.createDirectories(head.getParent());
        Files.createSymbolicLink(head, victim);

        assertThatThrownBy(() -> StateFiles.openWrite(project, head)).isInstanceOf(UnsafeFileException.class);
        assertThat(Files.size(victim)).isEqualTo(1000);
    }

    @Test
    void ensureDirectory_symlinkedComponentOutOfProject_isRefused() throws IOException {
        Path project = project();
        Path elsewhere = Files.createDirectories(tmp.resolve("elsewhere"));
        Files.createDirectories(project.resolve(".warden"));
        Files.createSymbolicLink(project.resolve(".warden/state"), elsewhere);

        assertThatThrownBy(() -> StateFiles.openAppend(project, project.resolve(".warden/state/ledger/x.jsonl")))
                .isInstanceOfSatisfying(UnsafeFileException.class, e -> assertThat(e.code()).isEqualTo("state_symlink_refused"));
        try (var list = Files.list(elsewhere)) {
            assertThat(list).isEmpty();
        }
    }

    @Test
    void openAppend_pathOutsideRoot_isRefused() throws IOException {
        Path project = project();
        assertThatThrownBy(() -> StateFiles.openAppend(project, project.resolve("../escape.txt")))
                .isInstanceOfSatisfying(UnsafeFileException.class, e -> assertThat(e.code()).isEqualTo("state_outside_project"));
        assertThat(tmp.resolve("escape.txt")).doesNotExist();
    }

    @Test
    void openAppend_fifo_isRefusedWithoutBlocking() throws Exception {
        Path project = project();
        Path fifo = Fifo.make(project.resolve(".warden/state/ledger/2026-05.jsonl"));

        assertTimeoutPreemptively(NO_HANG, () -> assertThatThrownBy(() -> StateFiles.openAppend(project, fifo))
                .isInstanceOfSatisfying(UnsafeFileException.class, e -> assertThat(e.code()).isEqualTo("state_not_regular")));
    }

    @Test
    void readAll_fifo_isRefusedWithoutBlocking() throws Exception {
        Path fifo = Fifo.make(tmp.resolve("pipe"));

        assertTimeoutPreemptively(NO_HANG, () -> {
            assertThatThrownBy(() -> StateFiles.readAll(fifo, 1024, false)).isInstanceOf(UnsafeFileException.class);
            assertThatThrownBy(() -> StateFiles.readAll(fifo, 1024, true)).isInstanceOf(UnsafeFileException.class);
        });
    }

    @Test
    void readAll_linkToDevZero_isRefusedFollowedOrNot() throws IOException {
        Path link = Files.createSymbolicLink(tmp.resolve("zero"), Path.of("/dev/zero"));

        assertTimeoutPreemptively(NO_HANG, () -> {
            assertThatThrownBy(() -> StateFiles.readAll(link, 1024, false))
                    .isInstanceOfSatisfying(UnsafeFileException.class, e -> assertThat(e.code()).isEqualTo("state_symlink_refused"));
            assertThatThrownBy(() -> StateFiles.readAll(link, 1024, true))
                    .isInstanceOfSatisfying(UnsafeFileException.class, e -> assertThat(e.code()).isEqualTo("state_not_regular"));
        });
    }

    @Test
    void readAll_overCap_isRefused() throws IOException {
        Path f = tmp.resolve("big");
        Files.write(f, new byte[101]);

        assertThat(StateFiles.readAll(f, 101, false)).hasSize(101);
        assertThatThrownBy(() -> StateFiles.readAll(f, 100, false))
                .isInstanceOfSatisfying(UnsafeFileException.class, e -> assertThat(e.code()).isEqualTo("file_too_large"));
    }

    @Test
    void readAll_followedLinkToRegularFile_reads() throws IOException {
        Path target = outside("agent file");
        Path link = Files.createSymbolicLink(tmp.resolve("agent.md"), target);

        assertThat(new String(StateFiles.readAll(link, 100, true), StandardCharsets.UTF_8)).isEqualTo("agent file");
    }

    @Test
    void openAppend_regularFile_appendsAndCreatesDirectories() throws IOException {
        Path project = project();
        Path file = project.resolve(".warden/state/ledger/2026-05.jsonl");
        for (String s : new String[] {"a\n", "b\n"}) {
            try (FileChannel ch = StateFiles.openAppend(project, file)) {
                StateFiles.writeFully(ch, ByteBuffer.wrap(s.getBytes(StandardCharsets.UTF_8)), -1);
            }
        }
        assertThat(Files.readString(file)).isEqualTo("a\nb\n");
    }

    @Test
    void replace_symlinkedTarget_isRefusedAndTargetUnchanged() throws IOException {
        Path project = project();
        Path victim = outside("precious");
        Path record = project.resolve(".warden/state/open/abc.json");
        Files.createDirectories(record.getParent());
        Files.createSymbolicLink(record, victim);

        assertThatThrownBy(() -> StateFiles.replace(project, record, new byte[] {1})).isInstanceOf(UnsafeFileException.class);
        assertThat(Files.readString(victim)).isEqualTo("precious");
    }

    @Test
    void delete_inSymlinkedDirectory_isRefusedAndOutsideFileKept() throws IOException {
        Path project = project();
        Path elsewhere = Files.createDirectories(tmp.resolve("elsewhere"));
        Files.writeString(elsewhere.resolve("abc.json"), "keep");
        Files.createDirectories(project.resolve(".warden/state"));
        Files.createSymbolicLink(project.resolve(".warden/state/open"), elsewhere);

        assertThatThrownBy(() -> StateFiles.delete(project, project.resolve(".warden/state/open/abc.json")))
                .isInstanceOf(UnsafeFileException.class);
        assertThat(elsewhere.resolve("abc.json")).exists();
    }

    @Test
    void openAppend_stateDirectoryCreated_holdsAGitignoreOfEverything() throws IOException {
        Path project = project();

        try (FileChannel ch = StateFiles.openAppend(project, project.resolve(".warden/state/decisions/2026-12.jsonl"))) {
            ch.write(ByteBuffer.wrap("{}\n".getBytes(StandardCharsets.UTF_8)));
        }

        assertThat(Files.readAllLines(project.resolve(".warden/state/.gitignore"))).contains("*");
    }

    @Test
    void openAppend_stateDirectoryThatExisted_getsNoGitignore() throws IOException {
        Path project = project();
        Files.createDirectories(project.resolve(".warden/state"));

        StateFiles.openAppend(project, project.resolve(".warden/state/decisions/2026-12.jsonl")).close();

        assertThat(project.resolve(".warden/state/.gitignore")).doesNotExist();
    }
}
