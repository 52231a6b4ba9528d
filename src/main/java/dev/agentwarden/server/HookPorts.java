package dev.agentwarden.server;

import dev.agentwarden.io.HookPortFile;
import dev.agentwarden.io.PeerUid;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;

/**
 * {@code http-hooks} in the private resident directory: {@code PORT TOKEN}, one line, mode 0600,
 * written by {@code warden install --transport http}. The resident serves host HTTP hooks on
 * 127.0.0.1:PORT ({@link WardenServer.HookPort}) when the file is there; the host sends the token
 * as {@code Authorization: Bearer $WARDEN_HOOK_TOKEN}, taken from its own environment, so the token
 * is written nowhere but this file.
 */
public final class HookPorts {
    public static final String FILE = HookPortFile.NAME;
    /** The environment variable the host's HTTP hook headers interpolate. */
    public static final String TOKEN_VARIABLE = HookPortFile.TOKEN_VARIABLE;
    /** Ports below Linux's ephemeral range (32768..60999), so outgoing connections do not take them. */
    static final int FIRST_PORT = 27000;
    static final int SPAN = 5000;

    private HookPorts() {
    }

    /** The configured hook port, or {@code null} when none is (or the file is not this user's alone). */
    public static WardenServer.HookPort read(Path residentDir) {
        HookPortFile.Entry e = HookPortFile.read(residentDir);
        return e == null ? null : new WardenServer.HookPort(e.port(), e.token(), residentDir);
    }

    /**
     * The configured hook port, or a new one (a port free now, chosen from the user id, and a fresh
     * token) written to the file.
     */
    public static WardenServer.HookPort ensure(Path residentDir) throws IOException {
        WardenServer.HookPort chosen = choose(residentDir);
        write(residentDir, chosen);
        return chosen;
    }

    /**
     * The configured hook port, or a new one (a port free now, chosen from the user id, and a fresh
     * token) that nothing has recorded yet: {@link #write} records it. Writes nothing, so an install
     * refused after choosing leaves no trace.
     */
    public static WardenServer.HookPort choose(Path residentDir) throws IOException {
        WardenServer.HookPort existing = read(residentDir);
        if (existing != null) {
            return existing;
        }
        if (Files.exists(residentDir, LinkOption.NOFOLLOW_LINKS)) {
            Resident.requirePrivate(residentDir);
        }
        int first = FIRST_PORT + Math.floorMod(PeerUid.self(), SPAN);
        for (int i = 0; i < 64; i++) {
            int port = FIRST_PORT + (first - FIRST_PORT + i * 7) % SPAN;
            if (free(port)) {
                return new WardenServer.HookPort(port, ServeState.newToken(), residentDir);
            }
        }
        throw new IOException("no free port for HTTP hooks among 64 tried in " + FIRST_PORT + ".." + (FIRST_PORT + SPAN - 1));
    }

    /** Records {@code chosen} in the file (creating the private directory), unless the file already names it. */
    public static void write(Path residentDir, WardenServer.HookPort chosen) throws IOException {
        if (!Files.exists(residentDir, LinkOption.NOFOLLOW_LINKS)) {
            Files.createDirectories(residentDir, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
        }
        Resident.requirePrivate(residentDir);
        WardenServer.HookPort existing = read(residentDir);
        if (existing != null && existing.port() == chosen.port() && existing.token().equals(chosen.token())) {
            return;
        }
        ServeState.writeOwnerOnly(residentDir.resolve(FILE), chosen.port() + " " + chosen.token() + "\n");
    }

    private static boolean free(int port) {
        try (ServerSocket s = new ServerSocket()) {
            s.bind(new InetSocketAddress(InetAddress.getByAddress(new byte[] {127, 0, 0, 1}), port));
            return true;
        } catch (IOException e) {
            return false;
        }
    }
}
