package dev.agentwarden.host;

import java.util.Collections;
import java.util.Map;
import java.util.TreeMap;

/**
 * How {@code bin/warden} and the compiled hook answer a host when Warden itself cannot: no jar, no
 * java, a JVM that died, a resident that took the event and never answered. The launcher needs these
 * before any JVM runs, so {@code server.LauncherFacts} writes them from each host's record into a
 * generated block of {@code bin/warden}, from which the compiled hook's header is built.
 *
 * @param nonZeroExit what a dispatch's non-zero exit code becomes for the host
 * @param closedExit  the exit code of the closed fail mode's refusal ({@code WARDEN_FAIL_MODE=closed})
 * @param refusals    native event to the closed fail mode's refusal on stdout, for events where the
 *                    host reads its refusal there
 * @param noOpinions  native event to "no opinion" on stdout (the open fail mode), for events where
 *                    the host requires an answer there
 */
public record LauncherContract(NonZeroExit nonZeroExit, int closedExit, Map<String, String> refusals,
                               Map<String, String> noOpinions) {

    /** The generic hook protocol: exit codes passed on, the closed refusal is exit 2, nothing on stdout. */
    public static final LauncherContract PLAIN = new LauncherContract(NonZeroExit.PASSED_ON, 2, Map.of(), Map.of());

    /** What a dispatch's non-zero exit code becomes. */
    public enum NonZeroExit {
        /** The host's own code: the launcher may exec the JVM. */
        PASSED_ON("passed-on"),
        /**
         * The runtime failure mode (the host reads any non-zero code as its own deny): "no opinion"
         * and exit 0, or under {@code WARDEN_FAIL_MODE=closed} the closed refusal.
         */
        FAIL_MODE("fail-mode"),
        /**
         * Exit 1, which the host shows as a warning and allows, or 2 under
         * {@code WARDEN_FAIL_MODE=closed} (the host reads codes other than 0, 1 and 2 as a deny).
         */
        WARNING("warning");

        private final String wire;

        NonZeroExit(String wire) {
            this.wire = wire;
        }

        /** The word {@code bin/warden} matches on. */
        public String wire() {
            return wire;
        }
    }

    public LauncherContract {
        if (nonZeroExit == null || closedExit < 0 || closedExit > 255) {
            throw new IllegalArgumentException("a launcher contract needs a non-zero-exit rule and an exit code 0..255");
        }
        refusals = checked(refusals);
        noOpinions = checked(noOpinions);
    }

    /** This contract with non-zero dispatch exits answered per {@code rule}. */
    public LauncherContract exitingNonZero(NonZeroExit rule) {
        return new LauncherContract(rule, closedExit, refusals, noOpinions);
    }

    /** This contract refusing with exit {@code code} under the closed fail mode. */
    public LauncherContract refusingWithExit(int code) {
        return new LauncherContract(nonZeroExit, code, refusals, noOpinions);
    }

    /** This contract printing {@code stdout} as the closed refusal on each of {@code nativeEvents}. */
    public LauncherContract refusing(String stdout, String... nativeEvents) {
        return new LauncherContract(nonZeroExit, closedExit, with(refusals, stdout, nativeEvents), noOpinions);
    }

    /** This contract printing {@code stdout} as "no opinion" on each of {@code nativeEvents}. */
    public LauncherContract noOpinion(String stdout, String... nativeEvents) {
        return new LauncherContract(nonZeroExit, closedExit, refusals, with(noOpinions, stdout, nativeEvents));
    }

    /** The closed refusal's stdout on {@code nativeEvent}; empty when the host reads none there. */
    public String refusal(String nativeEvent) {
        return refusals.getOrDefault(nativeEvent, "");
    }

    /** "No opinion" on stdout for {@code nativeEvent}; empty when the host requires none there. */
    public String noOpinion(String nativeEvent) {
        return noOpinions.getOrDefault(nativeEvent, "");
    }

    /**
     * {@code refusal} with its reason replaced by {@code reason}: the JSON string value in it that
     * starts with {@code [warden] } (every refusal a host's contract holds says why in one such
     * string). {@code reason} is printable ASCII with no quote or backslash; a refusal without such
     * a string is returned as it is.
     */
    public static String withReason(String refusal, String reason) {
        int start = refusal.indexOf("\"[warden] ");
        int end = start < 0 ? -1 : refusal.indexOf('"', start + 1);
        if (end < 0) {
            return refusal;
        }
        return refusal.substring(0, start + 1) + reason + refusal.substring(end);
    }

    private static Map<String, String> with(Map<String, String> base, String stdout, String[] nativeEvents) {
        Map<String, String> out = new TreeMap<>(base);
        for (String e : nativeEvents) {
            out.put(e, stdout);
        }
        return out;
    }

    /**
     * Sorted and immutable; event names are plain words and texts printable ASCII with at most a final
     * newline, so that the generated shell and C need no escaping beyond quotes and backslashes.
     */
    private static Map<String, String> checked(Map<String, String> texts) {
        for (Map.Entry<String, String> e : texts.entrySet()) {
            if (!plainWord(e.getKey())) {
                throw new IllegalArgumentException("launcher contract event '" + e.getKey() + "' is not a plain word");
            }
            String t = e.getValue().endsWith("\n") ? e.getValue().substring(0, e.getValue().length() - 1) : e.getValue();
            for (int i = 0; i < t.length(); i++) {
                if (t.charAt(i) < 0x20 || t.charAt(i) > 0x7e) {
                    throw new IllegalArgumentException("launcher contract text for '" + e.getKey()
                            + "' has a character other than printable ASCII before its end");
                }
            }
        }
        return Collections.unmodifiableMap(new TreeMap<>(texts));
    }

    /** Letters, digits, {@code _} and {@code -}: a host id or native event name. */
    public static boolean plainWord(String s) {
        if (s == null || s.isEmpty()) {
            return false;
        }
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (!(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '-')) {
                return false;
            }
        }
        return true;
    }
}
