package dev.agentwarden.testing;

import dev.agentwarden.manifest.ManifestException;
import dev.agentwarden.trust.TrustException;
import dev.agentwarden.trust.TrustStore;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Map;

/**
 * Trusts a test project's {@code .warden/manifest.yaml} as {@code warden trust} does, in the trust
 * store the dispatch environment names ({@code XDG_STATE_HOME}), so no test touches the user's.
 */
public final class TestTrust {
    public static final Clock CLOCK = Clock.fixed(Instant.parse("2026-01-01T00:00:00Z"), ZoneOffset.UTC);

    private TestTrust() {
    }

    /** The state home a test environment gets: {@code dir/xdg-state}. */
    public static String stateHome(Path dir) {
        return dir.resolve("xdg-state").toString();
    }

    /** Trusts the project manifest under {@code project} in {@code env}'s trust store. */
    public static void trust(Path project, Map<String, String> env) {
        if (!env.containsKey("XDG_STATE_HOME")) {
            throw new AssertionError("the test environment sets no XDG_STATE_HOME; trust would go to the user's own store");
        }
        try {
            TrustStore.forEnv(env).trust(project, CLOCK);
        } catch (TrustException | ManifestException e) {
            throw new AssertionError("cannot trust " + project + ": " + e.getMessage(), e);
        }
    }
}
