package dev.agentwarden.server;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What a process passes on to the processes it starts besides its environment: umask, nice value
 * and resource limits, as {@code /proc/PID/status} ({@code Umask:}), {@code /proc/PID/stat} (field
 * 19) and {@code /proc/PID/limits} state them. The resident runs a forwarded event's process
 * concerns under a {@link #prefixOver command prefix} that gives them the launcher's.
 *
 * @param umask      the file-mode creation mask, or -1 when unknown
 * @param nice       the nice value, or {@link Integer#MIN_VALUE} when unknown
 * @param softLimits soft limit per {@code prlimit} resource name ({@code nofile}, {@code core}, ...),
 *                   as a number or {@code unlimited}
 * @param hardLimits hard limit per resource, the same way
 */
record ProcessAttributes(int umask, int nice, Map<String, String> softLimits, Map<String, String> hardLimits) {
    private static final Path SH = Path.of("/bin/sh");
    private static final Path NICE = Path.of("/usr/bin/nice");
    private static final Path PRLIMIT = Path.of("/usr/bin/prlimit");
    /** {@code /proc/PID/limits} row labels and the {@code prlimit} option each one is. */
    private static final Map<String, String> RESOURCES = resources();

    /** This JVM's own. */
    static ProcessAttributes self() {
        String status = read("/proc/self/status");
        String stat = read("/proc/self/stat");
        String limits = read("/proc/self/limits");
        String umask = null;
        for (String line : lines(status)) {
            if (line.startsWith("Umask:")) {
                umask = line.substring("Umask:".length()).strip();
            }
        }
        int close = stat.lastIndexOf(')');
        // after the command: state is field 3, nice field 19
        String nice = close < 0 ? null : field(stat.substring(close + 1).trim(), 16);
        return parse(umask, nice, lines(limits));
    }

    /** The lines of {@code text} (split at {@code \n}, no regular expression). */
    private static List<String> lines(String text) {
        List<String> lines = new ArrayList<>();
        for (int from = 0; from < text.length(); ) {
            int nl = text.indexOf('\n', from);
            int to = nl < 0 ? text.length() : nl;
            lines.add(text.substring(from, to));
            from = to + 1;
        }
        return lines;
    }

    /** The {@code n}th (from 0) word of {@code text}, words separated by runs of spaces, or {@code null}. */
    private static String field(String text, int n) {
        int i = 0;
        for (int k = 0; ; k++) {
            while (i < text.length() && text.charAt(i) == ' ') {
                i++;
            }
            if (i == text.length()) {
                return null;
            }
            int end = text.indexOf(' ', i);
            if (end < 0) {
                end = text.length();
            }
            if (k == n) {
                return text.substring(i, end);
            }
            i = end;
        }
    }

    /** Whether {@code s} is {@code min} to {@code max} characters, each in {@code lo..hi}. */
    private static boolean allIn(String s, int min, int max, char lo, char hi) {
        if (s.length() < min || s.length() > max) {
            return false;
        }
        for (int i = 0; i < s.length(); i++) {
            if (s.charAt(i) < lo || s.charAt(i) > hi) {
                return false;
            }
        }
        return true;
    }

    /**
     * From the launcher's records: the {@code Umask:} value, the nice value and the lines of its
     * limits table; what does not parse is unknown.
     */
    static ProcessAttributes parse(String umask, String nice, List<String> limitLines) {
        int mask = -1;
        if (umask != null && allIn(umask, 3, 4, '0', '7')) {
            mask = Integer.parseInt(umask, 8);
        }
        int n = Integer.MIN_VALUE;
        if (nice != null && allIn(nice.startsWith("-") ? nice.substring(1) : nice, 1, 2, '0', '9')) {
            n = Integer.parseInt(nice);
        }
        Map<String, String> soft = new LinkedHashMap<>();
        Map<String, String> hard = new LinkedHashMap<>();
        for (String line : limitLines) {
            // "%-25s %-20s %-20s %-10s": label, soft, hard, units
            if (line.length() < 47 || !line.startsWith("Max ")) {
                continue;
            }
            String resource = RESOURCES.get(line.substring(0, 25).strip());
            if (resource == null) {
                continue;
            }
            String values = line.substring(25).trim();
            String softValue = field(values, 0);
            String hardValue = field(values, 1);
            if (softValue != null && hardValue != null && limit(softValue) && limit(hardValue)) {
                soft.put(resource, softValue);
                hard.put(resource, hardValue);
            }
        }
        return new ProcessAttributes(mask, n, Map.copyOf(soft), Map.copyOf(hard));
    }

    /**
     * The command prefix that turns {@code resident}'s attributes (the JVM that starts the
     * concern) into these: {@code prlimit} for soft limits that differ (capped at the resident's
     * hard limit, which a process cannot raise), {@code nice} for a higher nice value (a lower one
     * cannot be had without privilege), {@code sh -c umask} for another umask. Empty when nothing
     * differs; a tool that is missing leaves its attribute as the resident's.
     */
    List<String> prefixOver(ProcessAttributes resident) {
        List<String> prefix = new ArrayList<>();
        List<String> limits = new ArrayList<>();
        for (Map.Entry<String, String> e : softLimits.entrySet()) {
            String mine = resident.softLimits.get(e.getKey());
            String cap = resident.hardLimits.get(e.getKey());
            if (mine == null || cap == null) {
                continue;
            }
            // HotSpot raises its open-files soft limit to the hard one as it starts (MaxFDLimit), so
            // a JVM of the launcher's passes on the launcher's hard limit.
            String value = e.getKey().equals("nofile") ? hardLimits.getOrDefault("nofile", e.getValue()) : e.getValue();
            String wanted = lower(value, cap);
            if (!wanted.equals(mine)) {
                limits.add("--" + e.getKey() + "=" + wanted + ":");
            }
        }
        if (!limits.isEmpty() && Files.isExecutable(PRLIMIT)) {
            prefix.add(PRLIMIT.toString());
            prefix.addAll(limits);
            prefix.add("--");
        }
        if (nice != Integer.MIN_VALUE && resident.nice != Integer.MIN_VALUE && nice > resident.nice
                && Files.isExecutable(NICE)) {
            prefix.addAll(List.of(NICE.toString(), "-n", Integer.toString(nice - resident.nice)));
        }
        if (umask >= 0 && umask != resident.umask && Files.isExecutable(SH)) {
            prefix.addAll(List.of(SH.toString(), "-c", "umask " + String.format("%04o", umask) + " && exec \"$0\" \"$@\""));
        }
        return prefix;
    }

    private static String lower(String a, String b) {
        if (a.equals("unlimited")) {
            return b;
        }
        if (b.equals("unlimited")) {
            return a;
        }
        return Long.parseLong(a) <= Long.parseLong(b) ? a : b;
    }

    private static boolean limit(String v) {
        return v.equals("unlimited") || allIn(v, 1, 19, '0', '9');
    }

    private static String read(String file) {
        try {
            return Files.readString(Path.of(file), StandardCharsets.ISO_8859_1);
        } catch (IOException | RuntimeException e) {
            return "";
        }
    }

    private static Map<String, String> resources() {
        Map<String, String> m = new LinkedHashMap<>();
        m.put("Max cpu time", "cpu");
        m.put("Max file size", "fsize");
        m.put("Max data size", "data");
        m.put("Max stack size", "stack");
        m.put("Max core file size", "core");
        m.put("Max resident set", "rss");
        m.put("Max processes", "nproc");
        m.put("Max open files", "nofile");
        m.put("Max locked memory", "memlock");
        m.put("Max address space", "as");
        m.put("Max file locks", "locks");
        m.put("Max pending signals", "sigpending");
        m.put("Max msgqueue size", "msgqueue");
        m.put("Max nice priority", "nice");
        m.put("Max realtime priority", "rtprio");
        m.put("Max realtime timeout", "rttime");
        return Map.copyOf(m);
    }
}
