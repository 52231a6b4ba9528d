package dev.agentwarden.cli;

import dev.agentwarden.cli.DoctorCommand.Finding;
import dev.agentwarden.cli.DoctorCommand.Section;
import dev.agentwarden.io.CacheDir;
import dev.agentwarden.server.ResidentStatus;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** Doctor's check of the resident server for this jar, as its endpoint file and its own answer say. */
final class ResidentCheck {
    /** Deadline of each step of the resident's status query. */
    static final Duration RESIDENT_DEADLINE = Duration.ofSeconds(2);

    private ResidentCheck() {
    }

    /** The resident server for this jar, as its endpoint file and its own answer say. */
    static Section run(Map<String, String> env) {
        List<Finding> found = new ArrayList<>();
        Section section = new Section("resident server", found);
        if ("off".equals(env.get("WARDEN_RESIDENT"))) {
            found.add(Finding.note("WARDEN_RESIDENT=off here: bin/warden starts a JVM per event"));
        }
        String key;
        try {
            key = ResidentCommand.jarKey();
        } catch (IOException e) {
            found.add(Finding.note("not checked: " + e.getMessage().replace("; pass --key", "")));
            return section;
        }
        Path dir = CacheDir.root(env).resolve("resident");
        ResidentStatus.Answer a = ResidentStatus.query(dir, key, RESIDENT_DEADLINE);
        switch (a.state()) {
            case RUNNING:
                found.add(Finding.ok("running, pid " + a.pid() + ", up " + age(System.currentTimeMillis() - a.startedAt())
                        + ", answered " + a.forwarded() + " event(s)"));
                if (a.otlp() != null) {
                    found.add(liveExport(a.otlp()));
                }
                break;
            case NOT_RUNNING:
            case STALE:
                found.add(Finding.note("not running (" + a.detail() + "); the next hook starts one"));
                break;
            case UNSAFE:
                found.add(Finding.problem(a.detail() + "; nothing in it is used, so every event starts a JVM",
                        a.detail().startsWith("endpoint file") ? "rm " + a.endpointFile()
                                + " (bin/warden then starts a resident that writes its own)"
                                : "make " + dir + " yours alone (chmod 700 " + dir + ") or remove it; bin/warden recreates it private"));
                break;
            default:
                found.add(Finding.problem("pid " + a.pid() + " holds the endpoint but does not answer: " + a.detail(),
                        "warden resident stop (the next hook starts a new one)"));
        }
        return section;
    }

    /** The resident's live OpenTelemetry export ({@code WARDEN_OTLP_LIVE}): what it sent, dropped, and its last error. */
    static Finding liveExport(Map<String, Object> otlp) {
        if (otlp.get("error") instanceof String error) {
            return Finding.problem("live OpenTelemetry export asked for (WARDEN_OTLP_LIVE) but off: " + error,
                    "fix WARDEN_OTLP_LIVE (the collector's URL) or the OTEL_*/WARDEN_OTEL_* variables of the environment"
                            + " the resident starts in, then warden resident stop");
        }
        String counts = "live OpenTelemetry export to " + otlp.get("endpoint") + ": " + count(otlp.get("sent"))
                + " decision(s) sent, " + count(otlp.get("queued")) + " queued (of " + count(otlp.get("capacity"))
                + "), " + count(otlp.get("dropped")) + " dropped on a full queue, " + count(otlp.get("failed"))
                + " in batches the collector did not take";
        if (otlp.get("last_error") instanceof String error) {
            long at = otlp.get("last_error_at") instanceof Number n ? n.longValue() : 0;
            return Finding.problem(counts + "; last error " + age(System.currentTimeMillis() - at) + " ago: " + error,
                    "check the collector at " + otlp.get("endpoint") + " (OTEL_EXPORTER_OTLP_ENDPOINT)");
        }
        if (count(otlp.get("dropped")) > 0) {
            return Finding.problem(counts, "the collector is slower than the hooks; a closer or faster collector");
        }
        return Finding.ok(counts);
    }

    private static long count(Object o) {
        return o instanceof Number n ? n.longValue() : 0;
    }

    /** {@code 4m 10s}, {@code 2h 5m}, {@code 3d 1h}. */
    static String age(long millis) {
        long s = Math.max(0, millis / 1000);
        if (s < 60) {
            return s + "s";
        }
        if (s < 3600) {
            return s / 60 + "m " + s % 60 + "s";
        }
        if (s < 86400) {
            return s / 3600 + "h " + s % 3600 / 60 + "m";
        }
        return s / 86400 + "d " + s % 86400 / 3600 + "h";
    }
}
