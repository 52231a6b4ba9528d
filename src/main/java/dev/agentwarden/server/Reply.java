package dev.agentwarden.server;

import dev.agentwarden.host.HostResponse;
import dev.agentwarden.json.Json;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * One HTTP answer of a Warden server: a host response ({@link #ofDispatch}, {@link #ofForward}), a
 * refusal, or what the resident reports; {@link #of} is the one exception-to-status mapping.
 *
 * @param exitCode    the dispatch exit code, or -1 when no dispatch ran
 * @param stdoutBytes for a forwarded event, how many leading body bytes are stdout (the rest is
 *                    stderr); -1 otherwise
 */
record Reply(int status, byte[] body, int exitCode, String note, int stdoutBytes) {
    /** The one exception-to-status mapping: a refusal keeps its status, anything else is 500. */
    static Reply of(Throwable e) {
        int status = e instanceof Refusal r ? r.status : 500;
        String code = e instanceof Refusal r ? r.code : "internal_error";
        String message = e instanceof Refusal ? e.getMessage() : "warden serve could not answer; see the server log";
        Map<String, Object> error = new LinkedHashMap<>();
        error.put("error", code);
        error.put("message", message);
        return new Reply(status, Json.write(error).getBytes(StandardCharsets.UTF_8), -1, "", -1);
    }

    static Reply refusal(int status, String code, String message) {
        return of(new Refusal(status, code, message));
    }

    /** The whole HTTP/1.1 response: status line, headers, body; the connection closes after it. */
    byte[] bytes() {
        return bytes(false);
    }

    /** The whole HTTP/1.1 response; {@code keepAlive}: the connection stays open for the next request. */
    byte[] bytes(boolean keepAlive) {
        StringBuilder h = new StringBuilder(256);
        h.append("HTTP/1.1 ").append(status).append(' ').append(reason(status)).append("\r\n");
        if (exitCode >= 0) {
            h.append("X-Warden-Exit: ").append(exitCode).append("\r\n");
        }
        if (stdoutBytes >= 0) {
            h.append("X-Warden-Stdout-Bytes: ").append(stdoutBytes).append("\r\n");
        }
        if (!note.isEmpty()) {
            h.append("X-Warden-Note: ").append(note).append("\r\n");
        }
        if (status == 405) {
            h.append("Allow: POST\r\n");
        }
        if (body.length > 0) {
            h.append("Content-Type: ").append(stdoutBytes >= 0 ? "application/octet-stream"
                    : "application/json; charset=utf-8").append("\r\n");
        }
        h.append("Content-Length: ").append(body.length).append(keepAlive
                ? "\r\nConnection: keep-alive\r\nKeep-Alive: timeout=" + Front.KEEP_ALIVE_ANNOUNCED_S + "\r\n\r\n"
                : "\r\nConnection: close\r\n\r\n");
        byte[] head = h.toString().getBytes(StandardCharsets.US_ASCII);
        byte[] all = new byte[head.length + body.length];
        System.arraycopy(head, 0, all, 0, head.length);
        System.arraycopy(body, 0, all, head.length, body.length);
        return all;
    }

    private static String reason(int status) {
        switch (status) {
            case 200: return "OK";
            case 400: return "Bad Request";
            case 401: return "Unauthorized";
            case 404: return "Not Found";
            case 405: return "Method Not Allowed";
            case 411: return "Length Required";
            case 413: return "Payload Too Large";
            case 431: return "Request Header Fields Too Large";
            case 503: return "Service Unavailable";
            default: return "Internal Server Error";
        }
    }

    /** Longest {@code X-Warden-Note} value, in characters. */
    static final int NOTE_CAP = 2000;

    /**
     * A host response as {@code serve} and host HTTP hooks answer it: status 200, its stdout as the
     * body, its exit code in {@code X-Warden-Exit}, its stderr as one capped line in {@code X-Warden-Note}.
     */
    static Reply ofDispatch(HostResponse response) {
        return new Reply(200, response.stdout().getBytes(StandardCharsets.UTF_8), response.exitCode(),
                note(response.stderr()), -1);
    }

    /**
     * A host response as the resident answers a forwarded event: status 200, and a body of exactly the
     * bytes the one-shot process writes, its stdout then its stderr and a newline when it has one,
     * split at {@code X-Warden-Stdout-Bytes}.
     */
    static Reply ofForward(HostResponse response) {
        byte[] stdout = response.stdout().getBytes(StandardCharsets.UTF_8);
        byte[] stderr = response.stderr().isEmpty() ? new byte[0]
                : (response.stderr() + "\n").getBytes(StandardCharsets.UTF_8);
        byte[] body = new byte[stdout.length + stderr.length];
        System.arraycopy(stdout, 0, body, 0, stdout.length);
        System.arraycopy(stderr, 0, body, stdout.length, stderr.length);
        return new Reply(200, body, response.exitCode(), "", stdout.length);
    }

    /** The stderr note as one printable-ASCII header line of at most {@link #NOTE_CAP} characters. */
    static String note(String stderr) {
        StringBuilder b = new StringBuilder(Math.min(stderr.length(), NOTE_CAP));
        for (int i = 0; i < stderr.length() && b.length() < NOTE_CAP; i++) {
            char c = stderr.charAt(i);
            if (c == '\n') {
                b.append(" | ");
            } else if (c >= 0x20 && c < 0x7f) {
                b.append(c);
            } else if (c != '\r') {
                b.append('?');
            }
        }
        return b.length() > NOTE_CAP ? b.substring(0, NOTE_CAP) : b.toString();
    }

    /** A request Warden answers with an HTTP error instead of a dispatch. */
    static final class Refusal extends RuntimeException {
        final int status;
        final String code;

        Refusal(int status, String code, String message) {
            super(message, null, false, false);
            this.status = status;
            this.code = code;
        }
    }
}
