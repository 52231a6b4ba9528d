package dev.agentwarden.host;

import java.util.Map;

/**
 * What a host puts in a hook payload besides what a policy test cares about, so that a test case
 * can name only {@code tool_name} and {@code tool_input} and still send what the host would.
 */
public interface PayloadTemplate {
    /** The session id a filled-in payload carries when the case names none. */
    String TEST_SESSION_ID = "00000000-0000-4000-8000-00000000test";

    /**
     * The payload the host would send for {@code nativeEvent} in a session whose working directory
     * is {@code cwd}: the fields of {@code given} as they are, in their place, and every field the
     * host always sends that {@code given} lacks, with the value a fresh session would have.
     */
    Map<String, Object> fill(String nativeEvent, Map<String, Object> given, String cwd);
}
