package dev.agentwarden.ledger;

import dev.agentwarden.testing.TestLedger;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.agentwarden.testing.MutableClock;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Issue 10 item 11: an event whose writer cannot take the lock in time is spooled, reported, then folded in. */
class LedgerSpoolTest {
    @TempDir
    Path project;

    MutableClock clock = MutableClock.at("2026-05-04T10:00:00Z");
    LedgerPaths paths;
    ExecutorService other = Executors.newSingleThreadExecutor();

    @BeforeEach
    void setUp() {
        paths = LedgerPaths.forRoot(project.toString());
    }

    @AfterEach
    void tearDown() {
        other.shutdownNow();
    }

    Map<String, Object> payload(String agent) {
        Map<String, Object> p = new LinkedHashMap<>();
        p.put("agent_id", agent);
        p.put("agent_type", "general-purpose");
        p.put("last_assistant_message", "a secret the spool must not keep");
        return p;
    }

    /** Records on another thread (the lock's in-process mutex is reentrant) with a short lock budget. */
    Throwable recordWhileLocked(SubagentLedger.Kind kind, String agent) throws Exception {
        LedgerStore impatient = new LedgerStore(paths, clock, 50);
        Future<Throwable> f = other.submit(() -> {
            try {
                TestLedger.record(kind, payload(agent), "s1", LedgerSettings.DEFAULTS, impatient);
                return null;
            } catch (Throwable t) {
                return t;
            }
        });
        return f.get(60, TimeUnit.SECONDS);
    }

    List<Map<String, Object>> chain() throws IOException {
        List<Map<String, Object>> out = new ArrayList<>();
        LedgerReader.read(paths, e -> out.add(e.fields()));
        return out;
    }

    @Test
    void record_lockHeldPastDeadline_spoolsTheEventAndReportsItUntilFolded() throws Exception {
        LedgerStore store = new LedgerStore(paths, clock);
        TestLedger.record(SubagentLedger.Kind.START, payload("a1"), "s1", LedgerSettings.DEFAULTS, store);
        clock.advance(Duration.ofSeconds(40));

        Throwable spooled;
        try (LedgerStore.Transaction held = store.begin()) {
            spooled = recordWhileLocked(SubagentLedger.Kind.STOP, "a1");
        }

        assertThat(spooled).isInstanceOfSatisfying(LedgerException.class,
                e -> assertThat(e.code()).isEqualTo("ledger_event_spooled"));
        List<String> pending = Spool.pending(paths);
        assertThat(pending).hasSize(1);
        assertThat(Files.readString(paths.spoolDir().resolve(pending.get(0)))).doesNotContain("secret");
        LedgerVerifier.Report verify = LedgerVerifier.verify(paths);
        assertThat(verify.problems()).extracting(LedgerProblem::code).containsExactly("ledger_spooled");
        assertThat(LedgerStats.compute(paths, LedgerSettings.DEFAULTS, clock).toJson()).containsEntry("spooled", 1L);

        clock.advance(Duration.ofSeconds(20));
        TestLedger.record(SubagentLedger.Kind.START, payload("a2"), "s1", LedgerSettings.DEFAULTS, store);

        assertThat(Spool.pending(paths)).isEmpty();
        assertThat(LedgerVerifier.verify(paths).problems()).isEmpty();
        List<Map<String, Object>> lines = chain();
        assertThat(lines).extracting(l -> l.get("event")).containsExactly("subagent_start", "subagent_stop", "subagent_start");
        Map<String, Object> stop = lines.get(1);
        assertThat(stop).containsEntry("spooled", true).containsEntry("start_seen", true)
                .containsEntry("duration_ms", 40_000L).containsEntry("ts", "2026-05-04T10:00:40.000Z");
        assertThat(LedgerStats.compute(paths, LedgerSettings.DEFAULTS, clock).toJson()).containsEntry("spooled", 0L);
    }

    /** A spooled start keeps the host's word that an unopened parent is the main agent (Cline), and folds in at depth 1. */
    @Test
    void spooledStart_unopenedParentIsMain_isFoldedAtDepthOneAssertedParent() throws Exception {
        dev.agentwarden.event.HookEvent child = new dev.agentwarden.event.HookEvent("cline",
                dev.agentwarden.event.EventName.SUBAGENT_START, "SubagentStart", "s1", null, "child", false, null,
                "main-agent", true, null, null, null, null, List.of(), null, null, false, null, null,
                project.toString(), Map.of(), new byte[0]);
        LedgerStore impatient = new LedgerStore(paths, clock, 50);
        LedgerStore store = new LedgerStore(paths, clock);
        Throwable spooled;
        try (LedgerStore.Transaction held = store.begin()) {
            spooled = other.submit(() -> {
                try {
                    SubagentLedger.record(SubagentLedger.Kind.START, child, LedgerSettings.DEFAULTS, impatient);
                    return null;
                } catch (Throwable t) {
                    return t;
                }
            }).get(60, TimeUnit.SECONDS);
        }
        assertThat(spooled).isInstanceOfSatisfying(LedgerException.class,
                e -> assertThat(e.code()).isEqualTo("ledger_event_spooled"));

        TestLedger.record(SubagentLedger.Kind.START, payload("a2"), "s1", LedgerSettings.DEFAULTS, store);

        assertThat(chain().get(0)).containsEntry("spooled", true).containsEntry("ref", AgentRef.of("child"))
                .containsEntry("depth", 1L).containsEntry("depth_basis", "asserted-parent");
    }

    @Test
    void append_lockHeldPastDeadline_spoolsThePlainLine() throws Exception {
        LedgerStore store = new LedgerStore(paths, clock);
        Map<String, Object> fields = new LinkedHashMap<>();
        fields.put("event", "spawn_guard_shadow");
        fields.put("n", 1L);
        Throwable failure;
        try (LedgerStore.Transaction held = store.begin()) {
            LedgerStore impatient = new LedgerStore(paths, clock, 50);
            failure = other.submit(() -> {
                try {
                    impatient.append(fields);
                    return null;
                } catch (Throwable t) {
                    return t;
                }
            }).get(60, TimeUnit.SECONDS);
        }
        assertThat(failure).isInstanceOfSatisfying(LedgerException.class,
                e -> assertThat(e.code()).isEqualTo("ledger_event_spooled"));

        store.append(Map.of("event", "next"));

        assertThat(chain()).extracting(l -> l.get("event")).containsExactly("spawn_guard_shadow", "next");
        assertThat(chain().get(0)).containsEntry("spooled", true).containsEntry("n", 1L);
    }

    /** A built-in past its deadline is interrupted (BoundedBuiltin): its event must still reach the spool. */
    @Test
    void record_interruptedWhileWaitingForTheLock_spoolsTheEvent() throws Exception {
        LedgerStore store = new LedgerStore(paths, clock);
        Throwable[] outcome = new Throwable[1];
        try (LedgerStore.Transaction held = store.begin()) {
            Thread waiter = new Thread(() -> {
                try {
                    TestLedger.record(SubagentLedger.Kind.START, payload("a1"), "s1", LedgerSettings.DEFAULTS,
                            new LedgerStore(paths, clock, 600_000));
                } catch (Throwable t) {
                    outcome[0] = t;
                }
            });
            waiter.start();
            waiter.interrupt();
            waiter.join(60_000);
            assertThat(waiter.isAlive()).isFalse();
        }
        assertThat(outcome[0]).isInstanceOfSatisfying(LedgerException.class,
                e -> assertThat(e.code()).isEqualTo("ledger_event_spooled"));
        assertThat(Spool.pending(paths)).hasSize(1);
    }

    @Test
    void fold_unreadableSpoolFile_isRecordedAsGapNotDropped() throws IOException {
        Files.createDirectories(paths.spoolDir());
        Files.writeString(paths.spoolDir().resolve("0000000000001-1-ab.json"), "not json");

        new LedgerStore(paths, clock).append(Map.of("event", "next"));

        assertThat(Spool.pending(paths)).isEmpty();
        assertThat(chain()).extracting(l -> l.get("event")).containsExactly("ledger_gap", "next");
        assertThat(LedgerVerifier.verify(paths).problems()).extracting(LedgerProblem::code).containsExactly("ledger_gap");
    }

    @Test
    void record_spoolUnwritable_saysTheEventIsLost() throws Exception {
        LedgerStore store = new LedgerStore(paths, clock);
        store.append(Map.of("event", "first"));
        Files.writeString(paths.spoolDir(), "a file where the spool directory should be");
        Throwable lost;
        try (LedgerLock held = LedgerLock.exclusive(paths.root(), paths.lockFile(), TimeUnit.SECONDS.toNanos(5))) {
            lost = recordWhileLocked(SubagentLedger.Kind.START, "a1");
        }
        assertThat(lost).isInstanceOfSatisfying(LedgerException.class,
                e -> assertThat(e.code()).isEqualTo("ledger_event_lost"));
        assertThatThrownBy(() -> store.append(Map.of("event", "x"))).isInstanceOf(IOException.class);
    }
}
