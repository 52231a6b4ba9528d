package dev.agentwarden.inventory;

import static dev.agentwarden.inventory.Inventories.server;
import static dev.agentwarden.inventory.Inventories.snapshot;
import static dev.agentwarden.inventory.Inventories.tool;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SnapshotStoreTest {
    @TempDir
    Path dir;

    @Test
    void write_thenRead_keepsManifestAndHash() throws IOException {
        SnapshotStore store = new SnapshotStore(dir.resolve(".warden"));
        InventorySnapshot s = snapshot(2, server("s", List.of(tool("a", "é \u2028 \"q\""))));
        Path file = store.write(s);
        assertThat(file.getParent()).isEqualTo(dir.resolve(".warden/state/inventory"));
        InventorySnapshot back = SnapshotStore.read(file);
        assertThat(back.sha256()).isEqualTo(s.sha256());
        assertThat(back.turnIndex()).isEqualTo(2);
        assertThat(store.findByHash(s.sha256())).isNotNull();
    }

    @Test
    void write_throughSymlinkedInventoryDir_isRefused() throws IOException {
        Path outside = Files.createDirectory(dir.resolve("outside"));
        Files.createDirectories(dir.resolve(".warden/state"));
        Files.createSymbolicLink(dir.resolve(".warden/state/inventory"), outside);
        SnapshotStore store = new SnapshotStore(dir.resolve(".warden"));
        assertThatThrownBy(() -> store.write(snapshot(0))).hasMessageContaining("symbolic link");
        try (var files = Files.list(outside)) {
            assertThat(files.count()).isZero();
        }
    }

    @Test
    void write_throughSymlinkedStateHome_isRefused() throws IOException {
        Path outside = Files.createDirectory(dir.resolve("elsewhere"));
        Files.createSymbolicLink(dir.resolve(".warden"), outside);
        assertThatThrownBy(() -> new SnapshotStore(dir.resolve(".warden")).write(snapshot(0)))
                .hasMessageContaining("symbolic link");
        assertThat(outside.resolve("state")).doesNotExist();
    }

    @Test
    void read_ofSymlinkedFile_isRefused() throws IOException {
        Path real = new SnapshotStore(dir.resolve(".warden")).write(snapshot(0));
        Path link = Files.createSymbolicLink(dir.resolve("link.json"), real);
        assertThatThrownBy(() -> SnapshotStore.read(link)).hasMessageContaining("symbolic link");
    }
}
