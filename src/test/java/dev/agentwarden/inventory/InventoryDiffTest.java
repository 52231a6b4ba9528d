package dev.agentwarden.inventory;

import static dev.agentwarden.inventory.Inventories.failed;
import static dev.agentwarden.inventory.Inventories.server;
import static dev.agentwarden.inventory.Inventories.snapshot;
import static dev.agentwarden.inventory.Inventories.tool;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class InventoryDiffTest {
    @Test
    void between_namesAddedRemovedAndChangedFields() {
        Map<String, Object> changed = tool("b", "new words");
        changed.put("annotations", Map.of("readOnlyHint", true));
        InventorySnapshot before = snapshot(0, server("s", List.of(tool("a", "x"), tool("b", "old words"))),
                server("gone", List.of(tool("z", "z"))));
        InventorySnapshot after = snapshot(1, server("s", List.of(changed, tool("c", "y"))),
                failed("gone", ServerStatus.TIMEOUT));
        InventoryDiff d = InventoryDiff.between(before, after);
        assertThat(d.added()).containsExactly("claude/s/c");
        assertThat(d.removed()).containsExactly("claude/gone/z", "claude/s/a");
        assertThat(d.changed()).containsExactly(Map.entry("claude/s/b", List.of("annotations", "description")));
        assertThat(d.serverStatus()).containsExactly(Map.entry("claude/gone", "OK -> TIMEOUT"));
    }

    @Test
    void between_onlyVolatileMetaChanged_isEmptyAndHashesAgree() {
        Map<String, Object> withMeta = tool("a", "x");
        withMeta.put("_meta", Map.of("progressToken", 7L));
        InventorySnapshot before = snapshot(0, server("s", List.of(tool("a", "x"))));
        InventorySnapshot after = snapshot(1, server("s", List.of(withMeta)));
        assertThat(InventoryDiff.between(before, after).empty()).isTrue();
        assertThat(after.sha256()).isEqualTo(before.sha256());
    }
}
