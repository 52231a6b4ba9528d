package dev.agentwarden.server;

import dev.agentwarden.io.PeerUid;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * What {@code /proc} says about a process: who owns it, when it started and what it runs. A PID
 * alone names whichever process got that number last; PID plus start time names one process.
 */
final class ProcessIdentity {
    private ProcessIdentity() {
    }

    /**
     * The start time in clock ticks since boot, field 22 of {@code /proc/PID/stat}, or -1. The
     * command name (field 2) is in parentheses and may hold spaces or parentheses, so fields are
     * counted from the last {@code ')'}.
     */
    static long startTicks(long pid) {
        String stat;
        try {
            stat = Files.readString(Path.of("/proc/" + pid + "/stat"), StandardCharsets.ISO_8859_1);
        } catch (IOException | RuntimeException e) {
            return -1;
        }
        return startTicks(stat);
    }

    static long startTicks(String stat) {
        int close = stat.lastIndexOf(')');
        if (close < 0) {
            return -1;
        }
        String[] f = stat.substring(close + 1).trim().split(" ");
        // f[0] is field 3 (state), so field 22 is f[19]
        if (f.length < 20) {
            return -1;
        }
        try {
            return Long.parseLong(f[19]);
        } catch (NumberFormatException e) {
            return -1;
        }
    }

    /** Whether {@code /proc/PID} belongs to this process's uid. */
    static boolean ownedByMe(long pid) {
        int me = PeerUid.self();
        try {
            return me != PeerUid.UNKNOWN && me == (Integer) Files.getAttribute(Path.of("/proc/" + pid), "unix:uid");
        } catch (IOException | RuntimeException e) {
            return false;
        }
    }

    /** The process's argv from {@code /proc/PID/cmdline}, empty when unreadable. */
    static List<String> cmdline(long pid) {
        byte[] raw;
        try {
            raw = Files.readAllBytes(Path.of("/proc/" + pid + "/cmdline"));
        } catch (IOException | RuntimeException e) {
            return List.of();
        }
        List<String> args = new ArrayList<>();
        int start = 0;
        for (int i = 0; i < raw.length; i++) {
            if (raw[i] == 0) {
                args.add(new String(raw, start, i - start, StandardCharsets.UTF_8));
                start = i + 1;
            }
        }
        return args;
    }
}
