package dev.agentwarden.testing;

/**
 * Names of {@code @ResourceLock}s for process-wide state of Warden's own that unit classes, which run side by
 * side, touch (JUnit's {@code Resources} names the JVM's: system properties, {@code System.out}, the default
 * locale). Two classes that hold the same lock never run at the same time.
 */
public final class SharedLocks {
    /**
     * The process's {@code InventoryCache} (the kept MCP sessions of the {@code inventory-turns} concern):
     * a resident that starts marks the process as keeping, and one that stops ({@code Resident.close}) closes
     * every kept session, as does {@code InventoryCache.closeAll()}.
     */
    public static final String INVENTORY_CACHE = "dev.agentwarden.inventory.InventoryCache";

    /**
     * The {@code FakeMcpServer} processes this JVM starts: a class that starts them waits until none of this
     * JVM's children is one ({@code FakeMcpServer.awaitNoneRunning}), or asserts it, so it runs apart from the others.
     */
    public static final String FAKE_MCP_SERVERS = "dev.agentwarden.inventory.FakeMcpServer";

    private SharedLocks() {
    }
}
