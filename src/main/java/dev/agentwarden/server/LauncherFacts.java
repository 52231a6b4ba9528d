package dev.agentwarden.server;

import dev.agentwarden.dispatch.DispatchMain;
import dev.agentwarden.host.Host;
import dev.agentwarden.host.Hosts;
import dev.agentwarden.host.LauncherContract;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The facts {@code bin/warden} (and the compiled hook it builds) share with the JVM, stated once:
 * {@code bin/warden} writes {@link #shell()} to {@code target/launcher-facts.sh} whenever the jar is
 * newer, and sources that file instead of repeating the numbers. What it must know about hosts when
 * there is no jar or no java to ask (each host's {@link LauncherContract}) is {@link #hostBlock()},
 * generated into {@code bin/warden} itself between {@link #BEGIN} and {@link #END}.
 */
public final class LauncherFacts {
    /** Start-up flags of a one-event JVM (the launcher adds its crash-log location). */
    public static final List<String> JVM_FLAGS = List.of("-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC",
            "-XX:-UsePerfData", "-Xlog:disable", "-Xlog:all=warning:stderr", "-XX:+DisplayVMOutputToStderr");
    /**
     * What stands for {@code -XX:+UseSerialGC} in {@link #JVM_FLAGS} on JDK 17, which maps the
     * class-data archive's heap objects (the module graph, interned strings) only under G1: under
     * SerialGC each start builds the module graph anew (JDK 18 loads them for SerialGC too). The
     * heap stays under 4 GB, where the archived objects need no relocation.
     */
    public static final List<String> JDK17_GC_FLAGS = List.of("-XX:+UseG1GC", "-Xms8m", "-Xmx1g");
    /** Flags of the resident JVM: small and steady (heap starts at 8 MB and is given back when free). */
    public static final List<String> RESIDENT_FLAGS = List.of("-Dfile.encoding=UTF-8", "-XX:TieredStopAtLevel=1",
            "-XX:+UseSerialGC", "-Xms8m", "-Xmx256m", "-XX:MinHeapFreeRatio=10", "-XX:MaxHeapFreeRatio=30",
            "-XX:-UsePerfData", "-Xlog:disable", "-Xlog:all=warning:stderr");

    /**
     * Flags added for the bulk reads that do little per line ({@code ledger stats}, {@code guard
     * derive}): C1 only, whose compile time is a fraction of C2's (BENCHMARKS.md, bulk reads).
     */
    public static final List<String> LEAN_SCAN_FLAGS = List.of("-XX:TieredStopAtLevel=1");

    /** The first line of the generated host block in {@code bin/warden}. */
    public static final String BEGIN = "# ---- Host facts: generated from each host's LauncherContract; do not edit ----";
    /** The last line of the generated host block. */
    public static final String END = "# ---- End of host facts";

    private LauncherFacts() {
    }

    /**
     * Every host's {@link LauncherContract} as bash functions of one {@code case} each (defining them
     * costs a parse, calling them no fork): {@code host_refusal HOST:EVENT} and
     * {@code host_no_opinion HOST:EVENT} print the text, {@code host_closed_exit HOST} returns the code,
     * {@code host_nonzero_exit HOST} sets {@code host_nonzero}. A host or event not named has the
     * generic protocol's answer ({@link LauncherContract#PLAIN}).
     */
    public static String hostBlock() {
        Map<String, List<String>> refusals = new LinkedHashMap<>();
        Map<String, List<String>> noOpinions = new LinkedHashMap<>();
        Map<String, List<String>> closed = new LinkedHashMap<>();
        Map<String, List<String>> nonZero = new LinkedHashMap<>();
        for (Host h : Hosts.ALL) {
            if (!LauncherContract.plainWord(h.id())) {
                throw new IllegalStateException("host id '" + h.id() + "' is not a plain word");
            }
            LauncherContract c = h.launcher();
            if (c.nonZeroExit() != LauncherContract.PLAIN.nonZeroExit()) {
                nonZero.computeIfAbsent("host_nonzero=" + c.nonZeroExit().wire(), k -> new ArrayList<>()).add(h.id());
            }
            if (c.closedExit() != LauncherContract.PLAIN.closedExit()) {
                closed.computeIfAbsent("return " + c.closedExit(), k -> new ArrayList<>()).add(h.id());
            }
            byText(refusals, h.id(), c.refusals());
            byText(noOpinions, h.id(), c.noOpinions());
        }
        return BEGIN + "\n"
                + "# `bin/warden __facts --update bin/warden` rewrites this block (dev.agentwarden.server.LauncherFacts);\n"
                + "# LauncherHostFactsTest fails while it differs from the host records.\n"
                + "# The closed fail mode's refusal on stdout for host:native-event $1 (unnamed: nothing).\n"
                + function("host_refusal", refusals, "")
                + "# \"No opinion\" on stdout for host:native-event $1 (unnamed: nothing).\n"
                + function("host_no_opinion", noOpinions, "")
                + "# Returns the closed fail mode's exit code for host $1 (unnamed: "
                + LauncherContract.PLAIN.closedExit() + ").\n"
                + function("host_closed_exit", closed, "  return " + LauncherContract.PLAIN.closedExit() + "\n")
                + "# Sets host_nonzero to what a dispatch's non-zero exit code becomes for host $1 (unnamed: "
                + LauncherContract.PLAIN.nonZeroExit().wire() + ").\n"
                + function("host_nonzero_exit", nonZero, "")
                        .replace("  esac\n}", "    *) host_nonzero=" + LauncherContract.PLAIN.nonZeroExit().wire()
                                + " ;;\n  esac\n}")
                + END + "\n";
    }

    /** Adds to {@code byCommand} the printf of each text under its {@code host:event} keys. */
    private static void byText(Map<String, List<String>> byCommand, String host, Map<String, String> byEvent) {
        for (Map.Entry<String, String> e : byEvent.entrySet()) {
            String text = e.getValue();
            String command = text.endsWith("\n")
                    ? "printf '%s\\n' " + quoted(text.substring(0, text.length() - 1))
                    : "printf '%s' " + quoted(text);
            byCommand.computeIfAbsent(command, k -> new ArrayList<>()).add(host + ":" + e.getKey());
        }
    }

    private static String function(String name, Map<String, List<String>> byCommand, String tail) {
        StringBuilder b = new StringBuilder(name).append("() {\n  case \"$1\" in\n");
        for (Map.Entry<String, List<String>> e : byCommand.entrySet()) {
            b.append("    ");
            for (int i = 0; i < e.getValue().size(); i++) {
                b.append(i == 0 ? "" : "|").append('\'').append(e.getValue().get(i)).append('\'');
            }
            b.append(") ").append(e.getKey()).append(" ;;\n");
        }
        return b.append("  esac\n").append(tail).append("}\n").toString();
    }

    /**
     * The contracts as C tables for the compiled hook ({@code bin/warden build-hook} appends them to
     * its {@code hook-facts.h}): texts by {@code "host:native-event"}, closed exit codes by host, and
     * what a non-zero dispatch exit becomes by host, each table ended by a NULL entry.
     */
    public static String hookHeader() {
        StringBuilder refusals = new StringBuilder();
        StringBuilder noOpinions = new StringBuilder();
        StringBuilder closed = new StringBuilder();
        StringBuilder nonZero = new StringBuilder();
        for (Host h : Hosts.ALL) {
            LauncherContract c = h.launcher();
            cTexts(refusals, h.id(), c.refusals());
            cTexts(noOpinions, h.id(), c.noOpinions());
            if (c.closedExit() != LauncherContract.PLAIN.closedExit()) {
                closed.append("    {").append(cString(h.id())).append(", ").append(c.closedExit()).append("},\n");
            }
            if (c.nonZeroExit() != LauncherContract.PLAIN.nonZeroExit()) {
                nonZero.append("    {").append(cString(h.id())).append(", ").append(cString(c.nonZeroExit().wire()))
                        .append("},\n");
            }
        }
        return "/* Each host's launcher contract (dev.agentwarden.server.LauncherFacts), as bin/warden's host block. */\n"
                + "struct host_text { const char *key, *text; };\n"
                + "struct host_code { const char *host; int code; };\n"
                + "static const struct host_text HOST_REFUSALS[] = {\n" + refusals + "    {0, 0}\n};\n"
                + "static const struct host_text HOST_NO_OPINIONS[] = {\n" + noOpinions + "    {0, 0}\n};\n"
                + "static const struct host_code HOST_CLOSED_EXITS[] = {\n" + closed + "    {0, 0}\n};\n"
                + "/* What a dispatch's non-zero exit becomes, by host (unnamed: "
                + LauncherContract.PLAIN.nonZeroExit().wire() + "). */\n"
                + "static const struct host_text HOST_NONZERO_EXITS[] = {\n" + nonZero + "    {0, 0}\n};\n";
    }

    private static void cTexts(StringBuilder out, String host, Map<String, String> byEvent) {
        for (Map.Entry<String, String> e : byEvent.entrySet()) {
            out.append("    {").append(cString(host + ":" + e.getKey())).append(", ").append(cString(e.getValue()))
                    .append("},\n");
        }
    }

    /** {@code s} (printable ASCII and newlines, as {@link LauncherContract} allows) as a C string literal. */
    static String cString(String s) {
        StringBuilder b = new StringBuilder(s.length() + 8).append('"');
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == '\\' || c == '"' || c == '?') {
                b.append('\\').append(c);
            } else if (c == '\n') {
                b.append("\\n");
            } else {
                b.append(c);
            }
        }
        return b.append('"').toString();
    }

    /** {@code script} with its host block replaced by {@link #hostBlock()}. */
    static String withHostBlock(String script) {
        int begin = script.indexOf(BEGIN + "\n");
        int end = script.indexOf("\n" + END + "\n", begin);
        if (begin < 0 || end < 0) {
            throw new IllegalArgumentException("no host block (" + BEGIN + " ... " + END + ") in the launcher");
        }
        return script.substring(0, begin) + hostBlock() + script.substring(end + END.length() + 2);
    }

    /** The host block of {@code script}, or {@code null} when it has none. */
    public static String hostBlockOf(String script) {
        int begin = script.indexOf(BEGIN + "\n");
        int end = script.indexOf("\n" + END + "\n", begin);
        return begin < 0 || end < 0 ? null : script.substring(begin, end + END.length() + 2);
    }

    /** The facts as bash assignments. */
    public static String shell() {
        StringBuilder b = new StringBuilder(512);
        b.append("# Generated by dev.agentwarden.server.LauncherFacts from the jar beside it; do not edit.\n");
        // Sourced by bin/warden, which reads every assignment.
        b.append("# shellcheck shell=bash disable=SC2034\n");
        b.append("fact_max_payload_bytes=").append(DispatchMain.DEFAULT_MAX_PAYLOAD_BYTES).append('\n');
        b.append("fact_stdin_timeout_ms=").append(DispatchMain.DEFAULT_STDIN_TIMEOUT_MS).append('\n');
        b.append("fact_greeting='").append(WardenServer.GREETING).append("'\n");
        b.append("fact_endpoint_fields='").append(Resident.Endpoint.FIELDS).append("'\n");
        b.append("fact_hook_socket_suffix='").append(HookSocket.SUFFIX).append("'\n");
        b.append("fact_jvm_flags=(").append(String.join(" ", JVM_FLAGS)).append(")\n");
        b.append("fact_jdk17_gc_flags=(").append(String.join(" ", JDK17_GC_FLAGS)).append(")\n");
        b.append("fact_resident_flags=(").append(String.join(" ", RESIDENT_FLAGS)).append(")\n");
        b.append("fact_lean_scan_flags=(").append(String.join(" ", LEAN_SCAN_FLAGS)).append(")\n");
        String[] probe = Hosts.demo().training().probe();
        if (probe == null) {
            throw new IllegalStateException(Hosts.demo().id() + " has no archive probe");
        }
        b.append("fact_probe=(").append(quoted(Hosts.demo().id())).append(' ').append(quoted(probe[0])).append(' ')
                .append(quoted(probe[1])).append(")\n");
        return b.toString();
    }

    /** {@code s} as one single-quoted bash word. */
    private static String quoted(String s) {
        return "'" + s.replace("'", "'\\''") + "'";
    }

    /**
     * {@code __facts}: the facts as bash assignments, on stdout. {@code __facts --hook-header}: the
     * contracts as C tables ({@link #hookHeader()}). {@code __facts --update FILE}: rewrites
     * the host block of the launcher {@code FILE} from the host records (for whoever changes a contract).
     */
    public static void main(String[] args) throws IOException {
        if (args.length == 2 && args[1].equals("--hook-header")) {
            System.out.print(hookHeader());
            System.out.flush();
            return;
        }
        if (args.length == 3 && args[1].equals("--update")) {
            Path launcher = Path.of(args[2]);
            String script = Files.readString(launcher, StandardCharsets.UTF_8);
            Path tmp = launcher.resolveSibling(launcher.getFileName() + ".update");
            Files.writeString(tmp, withHostBlock(script), StandardCharsets.UTF_8);
            Files.setPosixFilePermissions(tmp, Files.getPosixFilePermissions(launcher));
            Files.move(tmp, launcher, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
            System.out.println("warden: wrote the host block of " + launcher);
            return;
        }
        System.out.print(shell());
        System.out.flush();
    }
}
