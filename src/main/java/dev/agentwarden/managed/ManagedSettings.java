package dev.agentwarden.managed;

import dev.agentwarden.json.Json;
import java.util.Map;

/**
 * What the administrator sets for Warden itself, from {@code /etc/agent-warden/settings.json}; every
 * field is optional and an absent one leaves the choice where it is without a managed layer.
 *
 * @param failMode       {@code "open"} or {@code "closed"}: how an event Warden cannot evaluate is
 *                       answered, in place of {@code WARDEN_FAIL_MODE} (which the governed agent can unset)
 * @param projectScripts whether the project's (and user's) process concerns may run at all
 * @param reasons        {@code "verbatim"} or {@code "hashed"}: how the decision log keeps concerns' reasons
 */
public record ManagedSettings(String failMode, boolean projectScripts, String reasons) {
    /** No settings file: nothing is decided by the administrator. */
    public static final ManagedSettings NONE = new ManagedSettings(null, true, null);

    /** Whether an event Warden cannot evaluate is refused, given the fail mode the environment asked for. */
    public boolean failClosed(boolean environmentSaysClosed) {
        return failMode != null ? failMode.equals("closed") : environmentSaysClosed;
    }

    /**
     * The settings a file holds, or an exception naming the key that is wrong: unknown keys are
     * refused (a misspelt {@code fail_mode} must not quietly leave fail-open in force).
     */
    static ManagedSettings parse(String text) {
        Map<String, Object> o = Json.parseObject(text);
        String failMode = null;
        boolean projectScripts = true;
        String reasons = null;
        for (Map.Entry<String, Object> e : o.entrySet()) {
            String key = e.getKey();
            Object v = e.getValue();
            if (key.equals("fail_mode")) {
                failMode = oneOf(key, v, "open", "closed");
            } else if (key.equals("project_scripts")) {
                if (!(v instanceof Boolean b)) {
                    throw new IllegalArgumentException("project_scripts must be true or false");
                }
                projectScripts = b;
            } else if (key.equals("reasons")) {
                reasons = oneOf(key, v, "verbatim", "hashed");
            } else {
                throw new IllegalArgumentException("unknown key '" + key + "' (known: fail_mode, project_scripts, reasons)");
            }
        }
        return new ManagedSettings(failMode, projectScripts, reasons);
    }

    private static String oneOf(String key, Object v, String a, String b) {
        if (a.equals(v) || b.equals(v)) {
            return (String) v;
        }
        throw new IllegalArgumentException(key + " must be \"" + a + "\" or \"" + b + "\", not " + Json.write(v));
    }
}
