package dev.agentwarden.dispatch;

import dev.agentwarden.decision.DecisionLog;
import dev.agentwarden.host.Hosts;
import java.io.IOException;
import java.io.InputStream;
import java.util.Map;

/**
 * One host event as every transport hands it to dispatch ({@link DispatchRuntime#respond}): what
 * to dispatch ({@link Route}), the payload as read ({@link Payload}), the process that asked
 * ({@link Caller}) and its environment ({@link Env}), the {@link Transport} it came over and the
 * {@link FailMode} its environment names, read once.
 *
 * <p>Transports build one with {@link #read}, {@code warden dispatch} in its own JVM and a
 * launcher forwarding to the resident, from a command line ({@link Route#parse}) and stdin; or
 * with {@link #of}, {@code warden serve} and host HTTP hooks, from the URL and the body.
 */
public record DispatchRequest(Route route, Payload payload, Caller caller, Env env, Transport transport,
                              FailMode failMode) {

    /** The request for {@code route} with a payload held whole ({@code body}), its environment read once. */
    public static DispatchRequest of(Route route, byte[] body, Caller caller, Transport transport) {
        Env env = new Env(caller.env());
        return new DispatchRequest(route, Payload.of(body, env), caller, env, transport, env.failMode());
    }

    /** The request for {@code route} with its payload read from {@code stdin} ({@link Payload#read}); never throws. */
    public static DispatchRequest read(Route route, InputStream stdin, Caller caller, Transport transport) {
        Env env = new Env(caller.env());
        return new DispatchRequest(route, Payload.read(stdin, env), caller, env, transport, env.failMode());
    }

    /** How an event reached dispatch, as the decision line records it. */
    public enum Transport {
        /** {@code warden dispatch} in its own JVM (the launcher found no resident). */
        OWN_JVM(DecisionLog.OWN_JVM),
        /** Forwarded by a launcher or the compiled hook to the resident server ({@code /forward}). */
        RESIDENT(DecisionLog.RESIDENT),
        /** Posted to {@code warden serve}'s or the resident's host-hook {@code /dispatch}. */
        SERVE(DecisionLog.SERVE);

        private final String wire;

        Transport(String wire) {
            this.wire = wire;
        }

        /** {@code own_jvm}, {@code resident} or {@code serve}. */
        public String wire() {
            return wire;
        }
    }

    /**
     * What to dispatch: the host, the event (canonical or native; either may be absent when the
     * payload names it), and the manifest and project directory to use instead of the ones found
     * from the payload. A command line that does not parse is a route too, with its {@code usage}
     * problem and whatever host and native event it named, so that the answer is in that host's
     * protocol.
     *
     * @param usage why the command line does not parse, or {@code null}
     */
    public record Route(String host, String event, String nativeEvent, String manifest, String projectDir,
                        String usage) {
        /** The host is kept as its id: an alias ({@code claude-code}) is resolved here ({@link Hosts#canonical}). */
        public Route {
            host = Hosts.canonical(host);
        }

        public Route(String host, String event, String nativeEvent, String manifest, String projectDir) {
            this(host, event, nativeEvent, manifest, projectDir, null);
        }

        /** The route {@code dispatch --host H [--native-event N] ...} stands for; never throws. */
        public static Route parse(String[] argv) {
            String host = null;
            String event = null;
            String nativeEvent = null;
            String manifest = null;
            String projectDir = null;
            for (int i = 0; i < argv.length; i++) {
                String a = argv[i];
                String v = i + 1 < argv.length ? argv[i + 1] : null;
                switch (a) {
                    case "dispatch":
                        continue;
                    case "--host":
                    case "--platform":
                        host = v;
                        break;
                    case "--event":
                        event = v;
                        break;
                    case "--native-event":
                        nativeEvent = v;
                        break;
                    case "--manifest":
                        manifest = v;
                        break;
                    case "--project-dir":
                        projectDir = v;
                        break;
                    default:
                        return unparsed(argv, "unknown dispatch option '" + a + "'");
                }
                if (v == null) {
                    return unparsed(argv, "option " + a + " needs a value");
                }
                i++;
            }
            if (host == null) {
                return unparsed(argv, "--host is required");
            }
            return new Route(host, event, nativeEvent, manifest, projectDir);
        }

        private static Route unparsed(String[] argv, String usage) {
            return new Route(optionValue(argv, "--host"), null, optionValue(argv, "--native-event"), null, null, usage);
        }

        /** The value after {@code option} in a command line that did not parse, or {@code null}. */
        private static String optionValue(String[] argv, String option) {
            for (int i = 0; i + 1 < argv.length; i++) {
                if (option.equals(argv[i])) {
                    return argv[i + 1];
                }
            }
            return null;
        }
    }

    /** Why a payload cannot be judged; {@link #code} is the decision line's {@code problem}. */
    public enum PayloadProblem {
        TOO_LARGE("payload_too_large"),
        TIMEOUT("payload_timeout"),
        UNREADABLE("payload_unreadable"),
        NOT_JSON("payload_not_json"),
        NOT_OBJECT("payload_not_object");

        private final String code;

        PayloadProblem(String code) {
            this.code = code;
        }

        public String code() {
            return code;
        }
    }

    /**
     * The event payload as the transport read it: its bytes, or the problem that kept them
     * ({@code bytes} {@code null}), or what the stream threw (an unchecked exception or error, for
     * dispatch's internal-error path).
     */
    public record Payload(byte[] bytes, PayloadProblem problem, String detail, Throwable crash) {
        /** Bytes a transport holds whole (an HTTP body): too large over {@code env}'s cap. */
        public static Payload of(byte[] body, Env env) {
            return body.length > env.maxPayloadBytes() ? tooLarge(env) : new Payload(body, null, null, null);
        }

        /** Reads {@code in} under {@code env}'s cap and deadline ({@link StdinReader}); never throws. */
        public static Payload read(InputStream in, Env env) {
            try {
                byte[] raw = StdinReader.read(in, env.maxPayloadBytes(), env.stdinTimeoutMs());
                return raw == null ? tooLarge(env) : new Payload(raw, null, null, null);
            } catch (StdinReader.TimedOut e) {
                return new Payload(null, PayloadProblem.TIMEOUT, e.getMessage(), null);
            } catch (IOException e) {
                return new Payload(null, PayloadProblem.UNREADABLE, e.getMessage(), null);
            } catch (RuntimeException | Error e) {
                return new Payload(null, null, null, e);
            }
        }

        private static Payload tooLarge(Env env) {
            return new Payload(null, PayloadProblem.TOO_LARGE, "stdin over " + env.maxPayloadBytes() + " bytes", null);
        }
    }

    /**
     * The caller's environment, with the variables dispatch reads typed: the role, the payload cap,
     * the stdin deadline, the capture directory and the fail mode. {@link #map} is the whole of it.
     */
    public static final class Env {
        private final Map<String, String> map;

        public Env(Map<String, String> map) {
            this.map = map;
        }

        /** Every variable, for what reads others (concerns, the manifest loader). */
        public Map<String, String> map() {
            return map;
        }

        public String get(String name) {
            return map.get(name);
        }

        public FailMode failMode() {
            return FailMode.of(map);
        }

        /**
         * The session role: {@code WARDEN_SESSION_ROLE}, then agent-config's variable, trimmed and in
         * lower case as agent-config reads it ({@code " WORKER "} is {@code worker}); unset or blank is
         * the default role.
         */
        public String role() {
            String r = map.get("WARDEN_SESSION_ROLE");
            if (r == null || r.isBlank()) {
                r = map.get("AGENT_CONFIG_SESSION_ROLE");
            }
            return r == null || r.isBlank() ? dev.agentwarden.manifest.Manifest.DEFAULT_ROLE
                    : r.strip().toLowerCase(java.util.Locale.ROOT);
        }

        /** {@code WARDEN_CAPTURE_DIR}, or {@code null} when unset or empty. */
        public String captureDir() {
            String dir = map.get(Capture.DIR_VARIABLE);
            return dir == null || dir.isEmpty() ? null : dir;
        }

        /** {@code WARDEN_MAX_PAYLOAD_BYTES}, within 1 and {@link DispatchMain#MAX_PAYLOAD_BYTES_CEILING}; else the default. */
        public int maxPayloadBytes() {
            String v = map.get("WARDEN_MAX_PAYLOAD_BYTES");
            if (v != null) {
                try {
                    return Math.max(1, Math.min(DispatchMain.MAX_PAYLOAD_BYTES_CEILING, Integer.parseInt(v.trim())));
                } catch (NumberFormatException ignored) {
                    // keep the default
                }
            }
            return DispatchMain.DEFAULT_MAX_PAYLOAD_BYTES;
        }

        /**
         * {@code WARDEN_STDIN_TIMEOUT_MS}: plain digits, at least 1, at most
         * {@link DispatchMain#STDIN_TIMEOUT_CEILING_MS}; anything else is the default.
         */
        public long stdinTimeoutMs() {
            String v = map.get("WARDEN_STDIN_TIMEOUT_MS");
            if (v == null || v.isEmpty() || v.length() > 9) {
                return DispatchMain.DEFAULT_STDIN_TIMEOUT_MS;
            }
            long ms = 0;
            for (int i = 0; i < v.length(); i++) {
                char c = v.charAt(i);
                if (c < '0' || c > '9') {
                    return DispatchMain.DEFAULT_STDIN_TIMEOUT_MS;
                }
                ms = ms * 10 + (c - '0');
            }
            return Math.max(1, Math.min(DispatchMain.STDIN_TIMEOUT_CEILING_MS, ms));
        }
    }
}
