package dev.agentwarden.rule;

import dev.agentwarden.io.OwnedPath;
import dev.agentwarden.io.StateFiles;
import dev.agentwarden.json.Json;
import dev.agentwarden.json.JsonLimits;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * One session's strikes: the times (epoch ms) of the refusals escalating rules gave in it, kept in
 * {@code .warden/state/strikes/<first 16 hex of sha256(session id)>.json} as
 * {@code {"refusals":[t, ...]}}, oldest first, at most {@link #MAX_STRIKES}, none older than
 * {@link #MAX_WINDOW_MS}. A session without an id keeps none. A file Warden did not create for
 * this user, or one it cannot read, is a failure, never zero strikes.
 */
final class Strikes {
    /** Longest escalation window, and how long a strike is kept. */
    static final long MAX_WINDOW_MS = 24 * 3_600_000L;
    /** Most strikes kept per session. */
    static final int MAX_STRIKES = 256;
    /** Largest strikes file read. */
    static final int MAX_BYTES = 16 * 1024;

    private Strikes() {
    }

    /** The strikes file of {@code sessionId} under {@code stateHome}. */
    static Path file(Path stateHome, String sessionId) {
        try {
            byte[] h = MessageDigest.getInstance("SHA-256").digest(sessionId.getBytes(StandardCharsets.UTF_8));
            StringBuilder hex = new StringBuilder(16);
            for (int i = 0; i < 8; i++) {
                hex.append(Character.forDigit((h[i] >> 4) & 15, 16)).append(Character.forDigit(h[i] & 15, 16));
            }
            return stateHome.resolve("state").resolve("strikes").resolve(hex + ".json");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    /** How many refusals the session holds in the {@code windowMs} before {@code now}. */
    static int count(Path stateHome, String sessionId, long now, long windowMs) throws CompiledRule.Failed {
        int n = 0;
        for (long t : read(stateHome, sessionId, now)) {
            if (now - t < windowMs) {
                n++;
            }
        }
        return n;
    }

    /** Adds a refusal at {@code now}, forgetting strikes older than {@link #MAX_WINDOW_MS}. */
    static void record(Path stateHome, String sessionId, long now) throws CompiledRule.Failed {
        if (sessionId == null || sessionId.isEmpty()) {
            return;
        }
        List<Long> kept = read(stateHome, sessionId, now);
        kept.add(now);
        int from = Math.max(0, kept.size() - MAX_STRIKES);
        StringBuilder json = new StringBuilder("{\"refusals\":[");
        for (int i = from; i < kept.size(); i++) {
            json.append(i == from ? "" : ",").append(kept.get(i));
        }
        json.append("]}\n");
        Path file = file(stateHome, sessionId);
        try {
            StateFiles.replace(stateHome.getParent(), file, json.toString().getBytes(StandardCharsets.UTF_8));
        } catch (IOException | RuntimeException e) {
            throw new CompiledRule.Failed("session.strikes: cannot write " + file + ": " + e.getMessage());
        }
    }

    /** The session's strikes within {@link #MAX_WINDOW_MS} of {@code now}, oldest first. */
    private static List<Long> read(Path stateHome, String sessionId, long now) throws CompiledRule.Failed {
        List<Long> out = new ArrayList<>();
        if (sessionId == null || sessionId.isEmpty()) {
            return out;
        }
        Path file = file(stateHome, sessionId);
        if (!Files.exists(file, LinkOption.NOFOLLOW_LINKS)) {
            return out;
        }
        Object parsed;
        try {
            String problem = OwnedPath.problem(file);
            if (problem != null) {
                throw new CompiledRule.Failed("session.strikes: " + problem);
            }
            parsed = Json.parse(StateFiles.readAll(file, MAX_BYTES, false), JsonLimits.LENIENT);
        } catch (IOException | RuntimeException e) {
            throw new CompiledRule.Failed("session.strikes: cannot read " + file + ": " + e.getMessage());
        }
        Object refusals = parsed instanceof Map<?, ?> m ? m.get("refusals") : null;
        if (!(refusals instanceof List<?> list)) {
            throw new CompiledRule.Failed("session.strikes: " + file + " holds no refusals list");
        }
        for (Object t : list) {
            if (t instanceof Number n && n.longValue() <= now && now - n.longValue() < MAX_WINDOW_MS) {
                out.add(n.longValue());
            }
        }
        return out;
    }
}
