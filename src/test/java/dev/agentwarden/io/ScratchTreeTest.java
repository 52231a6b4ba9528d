package dev.agentwarden.io;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ScratchTreeTest {
    @Test
    void delete_removesTheTree_andALinkAsALink_neverWhatItPointsTo(@TempDir Path dir) throws IOException {
        Path outside = Files.createDirectories(dir.resolve("outside"));
        Path kept = Files.writeString(outside.resolve("kept.txt"), "not the scratch's");
        Path scratch = Files.createDirectories(dir.resolve("scratch/a/b"));
        Files.writeString(scratch.resolve("file"), "x");
        Files.createSymbolicLink(dir.resolve("scratch/a/link"), outside);

        ScratchTree.delete(dir.resolve("scratch"));

        assertThat(dir.resolve("scratch")).doesNotExist();
        assertThat(kept).hasContent("not the scratch's");
        assertThat(Files.exists(outside, LinkOption.NOFOLLOW_LINKS)).isTrue();
    }

    @Test
    void delete_ofNothing_isNoError(@TempDir Path dir) {
        ScratchTree.delete(dir.resolve("absent"));

        assertThat(dir.resolve("absent")).doesNotExist();
    }
}
