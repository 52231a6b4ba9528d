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
     * Every host's {@link LauncherContract} as bash associative arrays (no fork to define or read):
     * {@code host_nonzero_exit} and {@code host_closed_exit} by host id, {@code host_refusal} and
     * {@code host_no_opinion} by {@code host:native-event}. A host or event not listed has the
     * generic protocol's answer ({@link LauncherContract#PLAIN}).
     */
    public static String hostBlock() {
        StringBuilder nonZero = new StringBuilder();
        StringBuilder closed = new StringBuilder();
        StringBuilder refusals = new StringBuilder();
        StringBuilder noOpinions = new StringBuilder();
        for (Host h : Hosts.ALL) {
            if (!LauncherContract.plainWord(h.id())) {
                throw new IllegalStateException("host id '" + h.id() + "' is not a plain word");
            }
            LauncherContract c = h.launcher();
            if (c.nonZeroExit() != LauncherContract.PLAIN.nonZeroExit()) {
                nonZero.append(" ['").append(h.id()).append("']=").append(c.nonZeroExit().wire());
            }
            if (c.closedExit() != LauncherContract.PLAIN.closedExit()) {
                closed.append(" ['").append(h.id()).append("']=").append(c.closedExit());
            }
            texts(refusals, h.id(), c.refusals());
            texts(noOpinions, h.id(), c.noOpinions());
        }
        return BEGIN + "\n"
                + "# `bin/warden __facts --update bin/warden` rewrites this block (dev.agentwarden.server.LauncherFacts);\n"
                + "# LauncherFactsTest fails while it differs from the host records.\n"
                + "# What a dispatch's non-zero exit code becomes, by host (unlisted: passed-on).\n"
                + "declare -A host_nonzero_exit=(" + nonZero.toString().strip() + ")\n"
                + "# The closed fail mode's exit code, by host (unlisted: 2).\n"
                + "declare -A host_closed_exit=(" + closed.toString().strip() + ")\n"
                + "# The closed fail mode's refusal on stdout, by host:native-event (unlisted: nothing).\n"
                + "declare -A host_refusal=(" + refusals + "\n)\n"
                + "# \"No opinion\" on stdout, by host:native-event (unlisted: nothing).\n"
                + "declare -A host_no_opinion=(" + noOpinions + "\n)\n"
                + END + "\n";
    }

    private static void texts(StringBuilder out, String host, Map<String, String> byEvent) {
        for (Map.Entry<String, String> e : byEvent.entrySet()) {
            String text = e.getValue();
            boolean newline = text.endsWith("\n");
            if (newline) {
                text = text.substring(0, text.length() - 1);
            }
            out.append("\n  ['").append(host).append(':').append(e.getKey()).append("']='")
                    .append(text.replace("'", "'\\''")).append('\'');
            if (newline) {
                out.append("$'\\n'");
            }
        }
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
        b.append("fact_max_payload_bytes=").append(DispatchMain.DEFAULT_MAX_PAYLOAD_BYTES).append('\n');
        b.append("fact_stdin_timeout_ms=").append(DispatchMain.DEFAULT_STDIN_TIMEOUT_MS).append('\n');
        b.append("fact_greeting='").append(WardenServer.GREETING).append("'\n");
        b.append("fact_endpoint_fields='").append(Resident.Endpoint.FIELDS).append("'\n");
        b.append("fact_jvm_flags=(").append(String.join(" ", JVM_FLAGS)).append(")\n");
        b.append("fact_resident_flags=(").append(String.join(" ", RESIDENT_FLAGS)).append(")\n");
        b.append("fact_lean_scan_flags=(").append(String.join(" ", LEAN_SCAN_FLAGS)).append(")\n");
        String[] probe = Hosts.DEMO.training().probe();
        if (probe == null) {
            throw new IllegalStateException(Hosts.DEMO.id() + " has no archive probe");
        }
        b.append("fact_probe=(").append(quoted(Hosts.DEMO.id())).append(' ').append(quoted(probe[0])).append(' ')
                .append(quoted(probe[1])).append(")\n");
        return b.toString();
    }

    /** {@code s} as one single-quoted bash word. */
    private static String quoted(String s) {
        return "'" + s.replace("'", "'\\''") + "'";
    }

    /**
     * {@code __facts}: the facts as bash assignments, on stdout. {@code __facts --update FILE}: rewrites
     * the host block of the launcher {@code FILE} from the host records (for whoever changes a contract).
     */
    public static void main(String[] args) throws IOException {
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
