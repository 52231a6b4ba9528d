package dev.agentwarden.integrity;

import dev.agentwarden.integrity.GateVerdict.Evaluation;
import dev.agentwarden.integrity.IntegrityGate.IntegrityException;
import dev.agentwarden.integrity.Outcome.ReleaseIntegrity;
import dev.agentwarden.integrity.Outcome.TransportIntegrity;
import dev.agentwarden.release.ReleaseLookup;
import dev.agentwarden.release.ReleaseSource;
import dev.agentwarden.release.ReleaseSources;
import dev.agentwarden.release.ReleaseStoreException;
import java.nio.file.Path;
import java.util.EnumMap;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Re-evaluates an evidence log from its raw events. Each session's lines are replayed through a
 * {@link Recorder} (so order, duplicates and sequence gaps are enforced again), the raw events are
 * evaluated afresh, and the recorded verdicts are only compared with the result, never used.
 *
 * <p>The release axis needs the trusted manifest, which the log does not contain: it is the one
 * given to the replay, else the file the session recorded having consulted (its current contents,
 * with a note when its SHA-256 changed since; a signed manifest is verified again at the time the
 * session recorded, without touching the project's rollback state). Without either, the release is
 * UNREGISTERED.
 */
public final class EvidenceReplay {
    private EvidenceReplay() {
    }

    /** One session, replayed. */
    public static final class SessionResult {
        private final String session;
        private final List<Recorded> events;
        private final List<String> problems;
        private final Evaluation recomputed;
        private final IntegrityEvent.TransportVerdict recordedTransport;
        private final IntegrityEvent.ReleaseVerdict recordedRelease;
        private final IntegrityEvent.Decision recordedDecision;
        private final List<String> disagreements;
        private final List<String> notes;

        /**
         * @param session           session id
         * @param events            the accepted events, in order
         * @param problems          why evidence was refused ({@code line N: code: detail}); any makes the
         *                          recomputed outcome UNKNOWN_HALT
         * @param recomputed        the evaluation made from the raw events
         * @param recordedTransport the transport verdict the log holds, or {@code null}
         * @param recordedRelease   the release verdict the log holds, or {@code null}
         * @param recordedDecision  the decision the log holds, or {@code null}
         * @param disagreements     where the recorded verdicts differ from the recomputed ones
         * @param notes             remarks on the manifest used
         */
        SessionResult(String session, List<Recorded> events, List<String> problems, Evaluation recomputed,
                      IntegrityEvent.TransportVerdict recordedTransport, IntegrityEvent.ReleaseVerdict recordedRelease,
                      IntegrityEvent.Decision recordedDecision, List<String> disagreements, List<String> notes) {
            this.session = session;
            this.events = events;
            this.problems = problems;
            this.recomputed = recomputed;
            this.recordedTransport = recordedTransport;
            this.recordedRelease = recordedRelease;
            this.recordedDecision = recordedDecision;
            this.disagreements = disagreements;
            this.notes = notes;
        }

        /** The session id. */
        public String session() {
            return session;
        }

        /** Why evidence was refused ({@code line N: code: detail}); any makes the recomputed outcome UNKNOWN_HALT. */
        public List<String> problems() {
            return problems;
        }

        /** The evaluation made from the raw events. */
        public Evaluation recomputed() {
            return recomputed;
        }

        /** The outcome the log's decision record holds, or {@code null} when it holds none. */
        public Outcome recordedOutcome() {
            return recordedDecision == null ? null : recordedDecision.outcome();
        }

        /** Where the recorded verdicts differ from the recomputed ones. */
        public List<String> disagreements() {
            return disagreements;
        }

        /** Remarks on the manifest used. */
        public List<String> notes() {
            return notes;
        }

        /** The seed's ordered event names as recorded (decision excluded). */
        public List<String> eventNames() {
            return Recorded.eventNames(events);
        }

        /** The ordered evidence as {@code name=value} steps, as {@link GateVerdict#steps} gives them. */
        public List<String> steps() {
            List<String> out = new ArrayList<>();
            for (Recorded r : events) {
                String step = GateVerdict.step(r.event());
                if (step != null) {
                    out.add(step);
                }
            }
            return out;
        }

        /** One line per accepted event but the decision, as {@link GateVerdict#eventLines} gives them. */
        public List<String> eventLines() {
            return EventText.lines(events);
        }

        List<Recorded> events() {
            return events;
        }

        IntegrityEvent.TransportVerdict recordedTransport() {
            return recordedTransport;
        }

        IntegrityEvent.ReleaseVerdict recordedRelease() {
            return recordedRelease;
        }

        IntegrityEvent.Decision recordedDecision() {
            return recordedDecision;
        }

        /** A recorded event of a type, or {@code null}. */
        <T extends IntegrityEvent> T find(Class<T> type) {
            return Recorded.find(events, type);
        }
    }

    /**
     * A replayed log.
     *
     * @param file         the log
     * @param sessions     every session, in order of first appearance
     * @param unattributed refused lines that name no session (torn or unparseable lines)
     */
    public record Report(Path file, List<SessionResult> sessions, List<String> unattributed) {

        /** Sessions whose recorded verdicts disagree with the recomputation. */
        public long disagreeing() {
            return sessions.stream().filter(s -> !s.disagreements().isEmpty()).count();
        }

        /** Refused lines, attributed or not. */
        public long invalidLines() {
            return unattributed.size() + sessions.stream().mapToLong(s -> s.problems().size()).sum();
        }
    }

    /**
     * Replays a log.
     *
     * @param file    the evidence log
     * @param release the trusted manifest to judge releases by, or {@code null} to use each
     *                session's recorded manifest file
     * @throws IntegrityException {@code evidence_unreadable} or {@code evidence_too_large}
     */
    public static Report replay(Path file, ReleaseSource release) {
        Map<String, List<EvidenceLog.Line>> bySession = new LinkedHashMap<>();
        List<String> unattributed = new ArrayList<>();
        for (EvidenceLog.Line line : EvidenceLog.read(file)) {
            if (line.session() == null) {
                unattributed.add("line " + line.number() + ": " + line.problem());
            } else {
                bySession.computeIfAbsent(line.session(), k -> new ArrayList<>()).add(line);
            }
        }
        Map<String, ReleaseSource> manifests = new HashMap<>();
        List<SessionResult> out = new ArrayList<>();
        for (Map.Entry<String, List<EvidenceLog.Line>> e : bySession.entrySet()) {
            out.add(session(e.getKey(), e.getValue(), release, manifests));
        }
        return new Report(file, out, unattributed);
    }

    private static SessionResult session(String id, List<EvidenceLog.Line> lines, ReleaseSource given,
                                         Map<String, ReleaseSource> manifests) {
        Recorder recorder = Recorder.replay(id);
        List<String> problems = new ArrayList<>();
        for (EvidenceLog.Line line : lines) {
            if (!problems.isEmpty()) {
                problems.add("line " + line.number() + ": not replayed after the refusal above");
                continue;
            }
            if (line.problem() != null) {
                problems.add("line " + line.number() + ": " + line.problem());
                continue;
            }
            try {
                recorder.accept(line.recorded());
            } catch (IntegrityException ex) {
                problems.add("line " + line.number() + ": " + ex.getMessage());
            }
        }
        IntegrityEvent.TransportVerdict recordedTransport = null;
        IntegrityEvent.ReleaseVerdict recordedRelease = null;
        IntegrityEvent.Decision recordedDecision = null;
        Instant releasedAt = null;
        for (Recorded r : recorder.events()) {
            switch (r.event().kind()) {
                case TRANSPORT_INTEGRITY:
                    recordedTransport = (IntegrityEvent.TransportVerdict) r.event();
                    break;
                case RELEASE_INTEGRITY:
                    recordedRelease = (IntegrityEvent.ReleaseVerdict) r.event();
                    releasedAt = r.at();
                    break;
                case DECISION:
                    recordedDecision = (IntegrityEvent.Decision) r.event();
                    break;
                default:
                    break;
            }
        }
        List<String> notes = new ArrayList<>();
        ReleaseSource release = given != null ? given : recordedManifest(recordedRelease, releasedAt, manifests, notes);
        if (given != null && recordedRelease != null && recordedRelease.manifest() != null && given.ref() != null
                && !Objects.equals(recordedRelease.manifest().get("sha256"), given.ref().get("sha256"))) {
            notes.add("release manifest differs from the one recorded (" + recordedRelease.manifest().get("path") + ")");
        }
        Evaluation recomputed = Evaluator.evaluate(recorder.plainEvents(), release, problems);
        List<String> disagreements = new ArrayList<>();
        if (recordedDecision == null) {
            disagreements.add("recorded_verdict_missing: the session has no recorded decision");
        } else if (recordedDecision.outcome() != recomputed.outcome()) {
            disagreements.add("outcome: recorded " + recordedDecision.outcome() + ", recomputed " + recomputed.outcome());
        }
        if (recomputed.transport() != null) {
            if (recordedTransport == null) {
                if (recordedDecision != null) {
                    disagreements.add("recorded_verdict_missing: transport_integrity");
                }
            } else if (recordedTransport.value() != recomputed.transportValue()) {
                disagreements.add("transport_integrity: recorded " + recordedTransport.value() + ", recomputed "
                        + recomputed.transportValue());
            }
        } else if (recordedTransport != null) {
            disagreements.add("transport_integrity: recorded " + recordedTransport.value() + ", recomputed none (SKIP)");
        }
        if (recomputed.release() != null) {
            if (recordedRelease == null) {
                if (recordedDecision != null) {
                    disagreements.add("recorded_verdict_missing: release_integrity");
                }
            } else if (recordedRelease.value() != recomputed.releaseValue()) {
                disagreements.add("release_integrity: recorded " + recordedRelease.value() + ", recomputed "
                        + recomputed.releaseValue());
            }
        } else if (recordedRelease != null) {
            disagreements.add("release_integrity: recorded " + recordedRelease.value() + ", recomputed none (SKIP)");
        }
        return new SessionResult(id, List.copyOf(recorder.events()), problems, recomputed, recordedTransport,
                recordedRelease, recordedDecision, disagreements, notes);
    }

    private static ReleaseSource recordedManifest(IntegrityEvent.ReleaseVerdict recorded, Instant at,
                                                  Map<String, ReleaseSource> cache, List<String> notes) {
        if (recorded == null || recorded.manifest() == null || recorded.manifest().get("path") == null) {
            return ReleaseSource.NONE;
        }
        String path = recorded.manifest().get("path");
        String cacheKey = path + "\u0000" + recorded.manifest().get("trust_root") + "\u0000" + at;
        ReleaseSource source = cache.get(cacheKey);
        if (source == null) {
            try {
                source = ReleaseSources.reopen(recorded.manifest(), at);
            } catch (ReleaseStoreException | java.nio.file.InvalidPathException e) {
                source = ReleaseSource.NONE;
            }
            cache.put(cacheKey, source);
        }
        if (source.store() == null) {
            notes.add("recorded release manifest " + path + " unavailable; release judged without it");
        } else if (!Objects.equals(source.ref().get("sha256"), recorded.manifest().get("sha256"))) {
            notes.add("release manifest " + path + " changed since the session was recorded");
        }
        return source;
    }

    /**
     * Outcome counts over replayed sessions. HALT_CORRUPT (proven loss) and UNKNOWN_HALT (missing
     * evidence) are always separate counts.
     *
     * <p>A <em>healthy</em> session is one whose evidence replayed cleanly, whose transport is INTACT
     * and whose release is UNREGISTERED by a trustworthy "no entry" (not an untrusted manifest): a
     * user-local or freshly updated artifact that arrived whole. Any halt among them is a false halt;
     * the decision table makes the rate zero, and this count is what shows it stays so.
     *
     * @param sessions          sessions replayed
     * @param outcomes          recomputed outcome counts
     * @param healthy           healthy sessions
     * @param healthyHalts      healthy sessions that halted (false halts)
     * @param untrustedManifest sessions judged against an untrusted release manifest
     * @param disagreeing       sessions whose recorded verdicts differ from the recomputation
     * @param invalidLines      refused log lines
     */
    public record IntegrityStats(int sessions, Map<Outcome, Integer> outcomes, int healthy, int healthyHalts,
                                 int untrustedManifest, long disagreeing, long invalidLines) {

        public static IntegrityStats of(Report report) {
            Map<Outcome, Integer> counts = new EnumMap<>(Outcome.class);
            for (Outcome o : Outcome.values()) {
                counts.put(o, 0);
            }
            int healthy = 0;
            int healthyHalts = 0;
            int untrusted = 0;
            for (SessionResult s : report.sessions()) {
                Evaluation e = s.recomputed();
                counts.merge(e.outcome(), 1, Integer::sum);
                boolean untrustedLookup = e.release() != null
                        && ReleaseLookup.Status.UNTRUSTED.name().equals(e.release().lookup());
                if (untrustedLookup) {
                    untrusted++;
                }
                if (s.problems().isEmpty() && e.transportValue() == TransportIntegrity.INTACT
                        && e.releaseValue() == ReleaseIntegrity.UNREGISTERED && !untrustedLookup) {
                    healthy++;
                    if (e.outcome().halts()) {
                        healthyHalts++;
                    }
                }
            }
            return new IntegrityStats(report.sessions().size(), counts, healthy, healthyHalts, untrusted,
                    report.disagreeing(), report.invalidLines());
        }

        /** Halts among healthy sessions over healthy sessions, or 0 when there are none. */
        public double falseHaltRate() {
            return healthy == 0 ? 0.0 : (double) healthyHalts / healthy;
        }

        public int count(Outcome o) {
            return outcomes.getOrDefault(o, 0);
        }
    }
}
