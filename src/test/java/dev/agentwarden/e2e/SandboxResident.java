package dev.agentwarden.e2e;

import dev.agentwarden.dispatch.ResidentProcess;
import dev.agentwarden.dispatch.WardenProcess;
import dev.agentwarden.server.Resident;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A Warden resident server for one host session, started inside the host's sandbox (its network
 * namespace, where the hooks run) before the host, and stopped after it. The hooks' launcher gets a
 * {@code java} that refuses to start, so every hook answered is one the resident answered.
 */
final class SandboxResident {
    private static final Pattern ANSWERED = Pattern.compile("answering (\\d+) forwarded events");
    /** The scenario's one concern: it denies {@code touch resident-marker} with {@link #REASON}. */
    static final String CONCERNS = """
            no-resident-marker:
              script: builtin:deny-pattern
              posture: blocking
              tools: [Bash]
              patterns:
                - match: 'touch resident-marker'
                  reason: "DENY-r35: resident-marker is off limits"
            """;
    static final String CHAINS = """
            pre_tool_use: [no-resident-marker]
            """;
    static final String REASON = "[warden] DENY-r35: resident-marker is off limits";

    private final Path dir;
    private final String key;
    private final Path javaCalls;
    private final Map<String, String> hookEnv;

    /** For hooks whose {@code WARDEN_CACHE_DIR} is {@code cacheDir}; scratch files go to {@code scratch}. */
    SandboxResident(Path cacheDir, Path scratch) throws IOException {
        this.dir = ResidentProcess.dirFor(cacheDir);
        this.key = ResidentProcess.jarKey();
        this.javaCalls = scratch.resolve("java-calls");
        this.hookEnv = ResidentProcess.noJvm(ResidentProcess.forbiddenJava(scratch, javaCalls));
    }

    /** What the hooks' environment needs on top of the session's. */
    Map<String, String> hookEnv() {
        return hookEnv;
    }

    /** A command prefix run inside the sandbox: start the resident, wait for its endpoint, run the host. */
    List<String> inside() {
        return List.of("bash", "-c", """
                dir="$1"; key="$2"; java="$3"; jar="$4"; shift 4
                mkdir -p "$dir"
                LC_ALL=C.UTF-8 "$java" -Dfile.encoding=UTF-8 -XX:+UseSerialGC -XX:TieredStopAtLevel=1 -jar "$jar" \\
                    resident start --dir "$dir" --key "$key" --idle-exit 600 </dev/null >>"$dir/e2e-resident.log" 2>&1 &
                for _ in $(seq 600); do [ -s "$dir/$key.endpoint" ] && break; sleep 0.1; done
                exec "$@"
                """, "with-resident", dir.toString(), key, WardenProcess.java().toString(),
                WardenProcess.jar().toString());
    }

    /** What the launcher's refused {@code java} recorded: empty when every hook was forwarded. */
    String javaCalls() throws IOException {
        return Files.exists(javaCalls) ? Files.readString(javaCalls).strip() : "";
    }

    /** Stops the resident and returns "answered N forwarded events" from its log (or what went wrong). */
    String stop() throws IOException, InterruptedException {
        Resident.Endpoint endpoint = Resident.read(Resident.endpointFile(dir, key));
        if (endpoint == null) {
            return "no resident endpoint";
        }
        Optional<ProcessHandle> process = ProcessHandle.of(endpoint.pid());
        if (process.isPresent()) {
            Resident.terminate(process.get(), Duration.ofSeconds(30));
        }
        String log = Files.readString(dir.resolve("e2e-resident.log"));
        Matcher m = ANSWERED.matcher(log);
        return m.find() ? "answered " + m.group(1) + " forwarded events" : "resident log: " + log.strip();
    }
}
