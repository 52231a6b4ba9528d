package dev.agentwarden.dashboard;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.HexFormat;

/**
 * Who may see the dashboard. A browser proves itself once with the token in the URL the command
 * printed ({@code /?token=…}), and gets a cookie holding a separate session secret
 * ({@code HttpOnly; SameSite=Strict}); every later request carries the cookie. Both secrets are
 * 128 random bits, compared in constant time. Requests whose {@code Host} is not this port on
 * {@code 127.0.0.1} or {@code localhost} are refused, which defeats DNS rebinding (a page from
 * another site whose name now points at 127.0.0.1 sends its own name as {@code Host}), and so are
 * requests whose {@code Origin}, when sent, is another site.
 */
final class DashboardGate {
    /** Bytes of randomness in the URL token and in the session secret. */
    static final int SECRET_BYTES = 16;

    private final int port;
    private final byte[] token;
    private final byte[] session;
    private final String cookieName;

    DashboardGate(int port, String token, String session) {
        this.port = port;
        this.token = token.getBytes(StandardCharsets.US_ASCII);
        this.session = session.getBytes(StandardCharsets.US_ASCII);
        this.cookieName = "warden_dashboard_" + port;
    }

    /** A new secret: {@link #SECRET_BYTES} random bytes as lowercase hex. */
    static String newSecret() {
        byte[] b = new byte[SECRET_BYTES];
        new SecureRandom().nextBytes(b);
        return HexFormat.of().formatHex(b);
    }

    /** Whether {@code host} (the {@code Host} header) names this server: {@code 127.0.0.1:port} or {@code localhost:port}. */
    boolean hostAllowed(String host) {
        return host != null && (host.equals("127.0.0.1:" + port) || host.equalsIgnoreCase("localhost:" + port));
    }

    /** Whether {@code origin} (the {@code Origin} header) is absent or this server's own. */
    boolean originAllowed(String origin) {
        return origin == null || origin.equals("http://127.0.0.1:" + port) || origin.equalsIgnoreCase("http://localhost:" + port);
    }

    boolean tokenMatches(String candidate) {
        return candidate != null && MessageDigest.isEqual(token, candidate.getBytes(StandardCharsets.US_ASCII));
    }

    /** Whether the {@code Cookie} header carries this dashboard's session secret. */
    boolean cookieMatches(String cookieHeader) {
        if (cookieHeader == null) {
            return false;
        }
        boolean match = false;
        for (String part : cookieHeader.split(";", 64)) {
            String p = part.trim();
            if (p.startsWith(cookieName + "=")) {
                match |= MessageDigest.isEqual(session, p.substring(cookieName.length() + 1).getBytes(StandardCharsets.US_ASCII));
            }
        }
        return match;
    }

    /** The {@code Set-Cookie} value that hands the browser the session secret. */
    String setCookie() {
        return cookieName + "=" + new String(session, StandardCharsets.US_ASCII) + "; Path=/; HttpOnly; SameSite=Strict";
    }
}
