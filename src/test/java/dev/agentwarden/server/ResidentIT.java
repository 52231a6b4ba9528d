package dev.agentwarden.server;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agentwarden.testing.ResidentProcess;
import dev.agentwarden.testing.Scratch;
import dev.agentwarden.testing.WardenProcess;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.channels.ServerSocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;
import org.junit.jupiter.api.parallel.ResourceAccessMode;
import org.junit.jupiter.api.parallel.ResourceLock;
import org.junit.jupiter.api.parallel.ResourceLockTarget;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * {@code bin/warden dispatch} with the resident server: what is forwarded runs as the launcher's
 * own JVM would have run it, every way the resident can be missing or fail ends in a correct answer
 * from a JVM, and the resident starts, serves alone and stops as documented.
 */
/* Beside the other classes, on the parallel pool, its cases too: each takes the class's lock for reading, each in a
   project, home and cache of its own (or the shared resident's cache), except the floods and bursts, which take it
   for writing and so run alone. */
@Execution(ExecutionMode.CONCURRENT)
@ResourceLock(value = ResidentIT.ALONE, mode = ResourceAccessMode.READ, target = ResourceLockTarget.CHILDREN)
class ResidentIT {
    /** The lock a case holds for writing to run without the class's other cases beside it. */
    static final String ALONE = "ResidentIT";
    private static final String DENY = "{\"session_id\":\"s1\",\"hook_event_name\":\"PreToolUse\",\"tool_name\":\"Bash\","
            + "\"tool_input\":{\"command\":\"git commit --no-verify -m x\"}}";
    private static final String DENIED = "\"permissionDecision\":\"deny\"";

    private Path tmp;
    private Path project;
    private Path cache;
    private Path calls;
    private Path forbiddenJava;
    private final List<ProcessHandle> started = new ArrayList<>();

    /**
     * One resident for the cases whose assertions hold for any live resident of this jar (each case still sends
     * its own events from its own project and home): not for those about a resident's start, stop, files, log or
     * endpoint, which start their own. Started by the first case that asks, stopped after the last.
     */
    private static ResidentProcess shared;
    private static Path sharedCache;

    @BeforeEach
    void createProject(@TempDir Path tmp) throws IOException {
        this.tmp = tmp;
        project = Files.createDirectories(tmp.resolve("project"));
        cache = tmp.resolve("cache");
        calls = tmp.resolve("java-calls");
        forbiddenJava = ResidentProcess.forbiddenJava(tmp, calls);
    }

    /**
     * Stops what this case started, and the residents its launchers started in its own cache
     * directory (never another case's, nor the shared one): one left running writes into the temporary
     * directory while JUnit deletes it (issue 28 item 14).
     */
    @AfterEach
    void stopEverything() throws IOException, InterruptedException {
        for (ProcessHandle p : started) {
            p.destroy();
            p.onExit().orTimeout(30, TimeUnit.SECONDS).exceptionally(e -> null).join();
        }
        if (!cache.equals(sharedCache())) {
            ResidentProcess.stopStartedIn(cache);
        }
    }

    @AfterAll
    static void stopShared() throws InterruptedException {
        if (shared != null) {
            shared.close();
            Scratch.delete(sharedCache);
        }
    }

    /** The shared resident, for this case's launchers from now on: they use its cache (see {@link #shared}). */
    private ResidentProcess sharedResident() throws IOException, InterruptedException {
        ResidentProcess r = startShared();
        cache = sharedCache();
        return r;
    }

    private static synchronized ResidentProcess startShared() throws IOException, InterruptedException {
        if (shared == null) {
            sharedCache = Files.createTempDirectory("warden-resident-it-shared");
            shared = ResidentProcess.start(sharedCache, 600);
        }
        return shared;
    }

    private static synchronized Path sharedCache() {
        return sharedCache;
    }

    private Map<String, String> env(Map<String, String> extra) {
        Map<String, String> env = new LinkedHashMap<>();
        env.put("WARDEN_CACHE_DIR", cache.toString());
        env.put("HOME", tmp.toString());
        env.putAll(extra);
        return env;
    }

    /** The launcher with the test's own java, no archive (answers from a JVM when it must). */
    private Map<String, String> realJava(String resident) {
        return env(Map.of("WARDEN_JAVA", WardenProcess.java().toString(), "WARDEN_NO_ARCHIVE", "1",
                "WARDEN_RESIDENT", resident));
    }

    private WardenProcess.Result dispatch(Map<String, String> env, String payload, String... extraArgs)
            throws IOException, InterruptedException {
        List<String> args = new ArrayList<>(List.of("dispatch", "--host", "claude"));
        args.addAll(List.of(extraArgs));
        return WardenProcess.runLauncher(args, env, payload.getBytes(StandardCharsets.UTF_8), project);
    }

    private ResidentProcess resident() throws IOException, InterruptedException {
        ResidentProcess r = ResidentProcess.start(cache, 600);
        started.add(r.process().toHandle());
        return r;
    }

    private static final String MARK = "from-the-launcher-\u00fc\u2713";
    private static final String PROBE_PAYLOAD =
            "{\"hook_event_name\":\"PreToolUse\",\"tool_name\":\"Bash\",\"tool_input\":{\"command\":\"ls\"}}";

    /** {@code conf/m.yaml}: one process concern that blocks with what it sees ($MARK, $HOME, $PWD). */
    private void writeProbeProject() throws IOException {
        writeOneConcernProject("probe", "echo \"probe MARK=$MARK HOME=${HOME:-unset} PWD=$PWD\" >&2\nexit 1\n",
                ", severity: blocking");
    }

    /**
     * {@code conf/m.yaml}: the one process concern {@code name} (with {@code settings} after its script)
     * on Claude's PreToolUse, running {@code concerns/<name>.sh}, a shell script of {@code body}.
     */
    private void writeOneConcernProject(String name, String body, String settings) throws IOException {
        Path script = project.resolve("concerns/" + name + ".sh");
        Files.createDirectories(script.getParent());
        WardenProcess.writeScript(script, "#!/bin/sh\n" + body, "rwx------");
        Files.createDirectories(project.resolve("conf"));
        Files.writeString(project.resolve("conf/m.yaml"), """
                schema_version: 1
                concerns:
                  %1$s: {script: concerns/%1$s.sh%2$s}
                platforms:
                  claude:
                    pre_tool_use: [%1$s]
                native_event_aliases:
                  claude:
                    PreToolUse: pre_tool_use
                """.formatted(name, settings));
    }

    /** The forwarded answer is the one the launcher's own JVM gives: exit code, stdout and stderr. */
    private static void assertSameAnswer(WardenProcess.Result forwarded, WardenProcess.Result own) {
        assertThat(forwarded.exitCode()).isEqualTo(own.exitCode());
        assertThat(forwarded.stdout()).isEqualTo(own.stdout());
        assertThat(forwarded.stderr()).isEqualTo(own.stderr());
    }

    @Test
    void forwarded_runsWithLaunchersEnvironmentDirectoryAndRelativeManifest_sameBytesAsItsOwnJvm() throws Exception {
        writeProbeProject();
        String payload = PROBE_PAYLOAD;
        sharedResident();
        Map<String, String> forwardedEnv = new LinkedHashMap<>(env(ResidentProcess.noJvm(forbiddenJava)));
        forwardedEnv.put("MARK", MARK);
        WardenProcess.Result forwarded = dispatch(forwardedEnv, payload, "--manifest", "conf/m.yaml");
        ResidentProcess.assertNoJvmStarted(calls);

        Map<String, String> ownEnv = new LinkedHashMap<>(realJava("off"));
        ownEnv.put("MARK", MARK);
        WardenProcess.Result own = dispatch(ownEnv, payload, "--manifest", "conf/m.yaml");

        assertThat(forwarded.stdout()).contains(DENIED)
                .contains("probe MARK=" + MARK + " HOME=" + tmp + " PWD=" + project);
        assertSameAnswer(forwarded, own);
    }

    @Test
    void forwarded_sessionRoleAndFailModeTravelPerEvent() throws Exception {
        sharedResident();
        Map<String, String> closed = new LinkedHashMap<>(env(ResidentProcess.noJvm(forbiddenJava)));
        closed.put("WARDEN_FAIL_MODE", "closed");
        WardenProcess.Result refused = dispatch(closed, "{\"hook_event_name\":\"Stop\"}", "--manifest", "missing.yaml");
        assertThat(refused.stdout()).contains("\"decision\":\"block\"").contains("WARDEN_FAIL_MODE=closed");
        assertThat(refused.stderr()).contains(project.resolve("missing.yaml").toString());

        WardenProcess.Result open = dispatch(env(ResidentProcess.noJvm(forbiddenJava)),
                "{\"hook_event_name\":\"Stop\"}", "--manifest", "missing.yaml");
        assertThat(open.stdout()).isEmpty();
        assertThat(open.stderr()).contains("failing open");
        ResidentProcess.assertNoJvmStarted(calls);
    }

    @Test
    void forwarded_largePayloadOnAPipe_sameAnswerAsItsOwnJvm() throws Exception {
        String big = "{\"hook_event_name\":\"PreToolUse\",\"tool_name\":\"Bash\",\"tool_input\":{\"command\":"
                + "\"git commit --no-verify -m x\",\"description\":\"" + "é".repeat(1_500_000) + "\"}}";
        sharedResident();
        PipedRun forwarded = pipedDispatch(env(ResidentProcess.noJvm(forbiddenJava)), big.getBytes(StandardCharsets.UTF_8));
        ResidentProcess.assertNoJvmStarted(calls);
        PipedRun own = pipedDispatch(realJava("off"), big.getBytes(StandardCharsets.UTF_8));
        assertThat(forwarded.stdout()).contains(DENIED).isEqualTo(own.stdout());
        assertThat(forwarded.exitCode()).isEqualTo(own.exitCode()).isZero();
    }

    @Test
    void forwarded_invalidUtf8AndEmptyStdin_sameAnswerAsItsOwnJvm() throws Exception {
        sharedResident();
        for (byte[] stdin : List.of(new byte[] {(byte) 0xff, (byte) 0xfe, '{'}, new byte[0],
                "{\"hook_event_name\":\"PreToolUse\",\"tool_name\":\"Bash\",\"tool_input\":{\"command\":\"git commit --no-verify \\u00e9\"}} \n".getBytes(StandardCharsets.UTF_8))) {
            WardenProcess.Result forwarded = WardenProcess.runLauncher(List.of("dispatch", "--host", "claude"),
                    env(ResidentProcess.noJvm(forbiddenJava)), stdin, project);
            WardenProcess.Result own = WardenProcess.runLauncher(List.of("dispatch", "--host", "claude"),
                    realJava("off"), stdin, project);
            assertSameAnswer(forwarded, own);
        }
        ResidentProcess.assertNoJvmStarted(calls);
    }

    @Test
    @ResourceLock(ALONE)
    void concurrentForwardedEvents_everyLedgerLineKept_chainIntact() throws Exception {
        int events = 24;
        sharedResident();
        List<CompletableFuture<WardenProcess.Result>> runs = new ArrayList<>();
        for (int i = 0; i < events; i++) {
            String payload = "{\"session_id\":\"s1\",\"hook_event_name\":\"SubagentStart\",\"agent_id\":\"agent-" + i
                    + "\",\"agent_type\":\"general-purpose\",\"cwd\":\"" + project + "\"}";
            runs.add(CompletableFuture.supplyAsync(() -> {
                try {
                    return dispatch(env(ResidentProcess.noJvm(forbiddenJava)), payload);
                } catch (IOException | InterruptedException e) {
                    throw new IllegalStateException(e);
                }
            }));
        }
        for (CompletableFuture<WardenProcess.Result> run : runs) {
            WardenProcess.Result r = run.get(WardenProcess.TIMEOUT_SECONDS, TimeUnit.SECONDS);
            assertThat(r.exitCode()).as(r.stderr()).isZero();
        }
        ResidentProcess.assertNoJvmStarted(calls);
        WardenProcess.Result verify = WardenProcess.run(List.of(),
                List.of("ledger", "verify", "--project-dir", project.toString()), env(Map.of()), new byte[0], project);
        assertThat(verify.exitCode()).as(verify.stdout() + verify.stderr()).isZero();
        assertThat(verify.stdout()).contains("intact: " + events + " chain lines");
    }

    @Test
    void manifestEditedBetweenForwardedEvents_nextEventUsesTheNewOne() throws Exception {
        writeProbeProject();
        sharedResident();
        Map<String, String> env = env(ResidentProcess.noJvm(forbiddenJava));
        assertThat(dispatch(env, PROBE_PAYLOAD, "--manifest", "conf/m.yaml").stdout()).contains("probe MARK=");

        Path manifest = project.resolve("conf/m.yaml");
        Files.writeString(manifest, Files.readString(manifest).replace("pre_tool_use: [probe]", "pre_tool_use: []"));
        WardenProcess.Result after = dispatch(env, PROBE_PAYLOAD, "--manifest", "conf/m.yaml");

        assertThat(after.stdout()).as("no concern bound any more").isEmpty();
        assertThat(after.exitCode()).isZero();
        ResidentProcess.assertNoJvmStarted(calls);
    }

    @Test
    void manyFirstEventsAtOnce_startOneResident() throws Exception {
        int events = 8;
        List<CompletableFuture<WardenProcess.Result>> runs = new ArrayList<>();
        for (int i = 0; i < events; i++) {
            runs.add(CompletableFuture.supplyAsync(() -> {
                try {
                    return dispatch(realJava("auto"), DENY);
                } catch (IOException | InterruptedException e) {
                    throw new IllegalStateException(e);
                }
            }));
        }
        for (CompletableFuture<WardenProcess.Result> run : runs) {
            assertThat(run.get(WardenProcess.TIMEOUT_SECONDS, TimeUnit.SECONDS).stdout()).contains(DENIED);
        }
        Path endpoint = Resident.endpointFile(ResidentProcess.dirFor(cache), ResidentProcess.jarKey());
        Resident.Endpoint first = awaitEndpoint(endpoint, e -> ProcessHandle.of(e.pid()).isPresent());
        started.add(ProcessHandle.of(first.pid()).orElseThrow());
        Thread.sleep(3000); // room for any second resident to come up and take over the endpoint
        List<ProcessHandle> residents = ProcessHandle.allProcesses()
                .filter(p -> p.info().arguments().map(a -> String.join(" ", a)).orElse("")
                        .contains("resident start --dir " + ResidentProcess.dirFor(cache)))
                .toList();
        started.addAll(residents);
        assertThat(residents).as("residents serving this cache dir").hasSize(1);
        assertThat(Resident.read(endpoint)).isEqualTo(first);
    }

    @Test
    void residentOff_neverForwards() throws Exception {
        sharedResident();
        Map<String, String> off = new LinkedHashMap<>(env(ResidentProcess.noJvm(forbiddenJava)));
        off.put("WARDEN_RESIDENT", "off");
        WardenProcess.Result r = dispatch(off, DENY);
        assertThat(r.exitCode()).as("the forbidden java ran").isEqualTo(97);
        assertThat(Files.readString(calls)).contains("dev.agentwarden.Main dispatch --host claude");
    }

    @Test
    void staleEndpoint_answersFromAJvm_thenStartsAResidentThatServesTheNextEvent() throws Exception {
        String key = ResidentProcess.jarKey();
        Path endpoint = Resident.endpointFile(ResidentProcess.dirFor(cache), key);
        Files.createDirectories(endpoint.getParent());
        Files.writeString(endpoint, "1 " + "ab".repeat(32) + " " + deadPid() + " 1 " + "cd".repeat(32) + "\n");

        WardenProcess.Result first = dispatch(realJava("auto"), DENY);
        assertThat(first.stdout()).contains(DENIED);
        assertThat(first.exitCode()).isZero();

        // the resident removes the start marker just after it writes the endpoint: wait for both
        Path marker = endpoint.resolveSibling(key + ".starting");
        Resident.Endpoint started = awaitEndpoint(endpoint, e -> ProcessHandle.of(e.pid()).isPresent() && !Files.exists(marker));
        this.started.add(ProcessHandle.of(started.pid()).orElseThrow());
        assertThat(Files.exists(marker)).as("start marker removed").isFalse();
        assertThat(Files.getPosixFilePermissions(endpoint)).isEqualTo(PosixFilePermissions.fromString("rw-------"));

        WardenProcess.Result next = dispatch(env(ResidentProcess.noJvm(forbiddenJava)), DENY);
        assertThat(next.stdout()).isEqualTo(first.stdout());
        writeProbeProject();
        Map<String, String> withMark = new LinkedHashMap<>(env(ResidentProcess.noJvm(forbiddenJava)));
        withMark.put("MARK", MARK);
        assertThat(dispatch(withMark, PROBE_PAYLOAD, "--manifest", "conf/m.yaml").stdout())
                .as("a non-ASCII variable reaches a concern of the resident bin/warden started, under LANG=C")
                .contains("probe MARK=" + MARK + " ");
        ResidentProcess.assertNoJvmStarted(calls);
    }

    @Test
    void residentThatClosesWithoutAnswer_payloadReplayedToAJvm() throws Exception {
        String proof = "ab".repeat(32);
        try (ServerSocket silent = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            CompletableFuture<String> received = CompletableFuture.supplyAsync(() -> {
                try (Socket s = silent.accept()) {
                    s.getOutputStream().write((WardenServer.GREETING + proof + "\n").getBytes(StandardCharsets.US_ASCII));
                    return readRequest(s);
                } catch (IOException e) {
                    return "failed: " + e;
                }
            });
            writeEndpoint(silent.getLocalPort(), "cd".repeat(32), ProcessHandle.current().pid(), proof);

            WardenProcess.Result r = dispatch(realJava("auto"), DENY);

            assertThat(received.get(30, TimeUnit.SECONDS)).startsWith("POST /forward HTTP/1.1").contains(ForwardRequest.MAGIC)
                    .contains("git commit --no-verify");
            assertThat(r.stdout()).contains(DENIED);
            assertThat(r.exitCode()).isZero();
            assertThat(r.stderr()).contains("the resident server did not answer; evaluating this event in a new JVM");
        }
    }

    @Test
    void residentAnswersRightAfterTheEvent_launcherPrintsIt_noSecondRoundTrip() throws Exception {
        String proof = "ab".repeat(32);
        try (ServerSocket quick = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            CompletableFuture<String> received = CompletableFuture.supplyAsync(() -> {
                try (Socket s = quick.accept()) {
                    s.getOutputStream().write((WardenServer.GREETING + proof + "\n").getBytes(StandardCharsets.US_ASCII));
                    String request = readRequest(s);
                    s.getOutputStream().write(("HTTP/1.1 200 OK\r\nX-Warden-Exit: 2\r\nX-Warden-Stdout-Bytes: 4\r\n"
                            + "Content-Length: 8\r\nConnection: close\r\n\r\nOUT!ERR!").getBytes(StandardCharsets.US_ASCII));
                    return request;
                } catch (IOException e) {
                    return "failed: " + e;
                }
            });
            writeEndpoint(quick.getLocalPort(), "cd".repeat(32), ProcessHandle.current().pid(), proof);

            WardenProcess.Result r = dispatch(env(ResidentProcess.noJvm(forbiddenJava)), DENY);

            assertThat(received.get(30, TimeUnit.SECONDS)).contains(ForwardRequest.MAGIC);
            assertThat(r.exitCode()).as(r.stderr()).isEqualTo(2);
            assertThat(r.stdout()).isEqualTo("OUT!");
            assertThat(r.stderr()).contains("ERR!");
            ResidentProcess.assertNoJvmStarted(calls);
        }
    }

    @Test
    void residentRefusesWith503_payloadReplayedToAJvm() throws Exception {
        String proof = "ab".repeat(32);
        try (ServerSocket busy = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            CompletableFuture<String> received = CompletableFuture.supplyAsync(() -> {
                try (Socket s = busy.accept()) {
                    s.getOutputStream().write((WardenServer.GREETING + proof + "\n").getBytes(StandardCharsets.US_ASCII));
                    String request = readRequest(s);
                    s.getOutputStream().write(Reply.refusal(503, "busy", "every worker is busy; try again").bytes());
                    return request;
                } catch (IOException e) {
                    return "failed: " + e;
                }
            });
            writeEndpoint(busy.getLocalPort(), "cd".repeat(32), ProcessHandle.current().pid(), proof);

            WardenProcess.Result r = dispatch(realJava("auto"), DENY);

            assertThat(received.get(30, TimeUnit.SECONDS)).contains(ForwardRequest.MAGIC);
            assertThat(r.stdout()).contains(DENIED);
            assertThat(r.exitCode()).isZero();
            assertThat(r.stderr()).contains("evaluating this event in a new JVM");
        }
    }

    @Test
    void residentThatTookTheEventButNeverAnswers_failModeApplied_notReplayed() throws Exception {
        String proof = "ab".repeat(32);
        try (ServerSocket stuck = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            CompletableFuture<String> took = CompletableFuture.supplyAsync(() -> {
                try (Socket s = stuck.accept()) {
                    s.getOutputStream().write((WardenServer.GREETING + proof + "\n").getBytes(StandardCharsets.US_ASCII));
                    String request = readRequest(s);
                    s.getInputStream().readAllBytes();
                    return request;
                } catch (IOException e) {
                    return "failed: " + e;
                }
            });
            writeEndpoint(stuck.getLocalPort(), "cd".repeat(32), ProcessHandle.current().pid(), proof);
            Map<String, String> env = new LinkedHashMap<>(env(ResidentProcess.noJvm(forbiddenJava)));
            env.put("WARDEN_RESIDENT_ANSWER_SECONDS", "1");
            env.put("WARDEN_FAIL_MODE", "closed");

            WardenProcess.Result r = dispatch(env, DENY);

            assertThat(took.get(30, TimeUnit.SECONDS)).contains(ForwardRequest.MAGIC);
            assertThat(r.exitCode()).isEqualTo(2);
            assertThat(r.stderr()).contains("the resident server took this event but gave no answer within 1 s; refusing");
            ResidentProcess.assertNoJvmStarted(calls);
        }
    }

    @Test
    void wrongToken_refusedByTheResident_payloadReplayedToAJvm() throws Exception {
        // A server in this JVM: a resident process would stop once its endpoint no longer names it.
        String proof = "12".repeat(32);
        try (WardenServer server = WardenServer.startResident("ab".repeat(32), proof, 2, Map.of(),
                java.time.Clock.systemUTC())) {
            writeEndpoint(server.port(), "ef".repeat(32), ProcessHandle.current().pid(), proof);

            WardenProcess.Result r = dispatch(realJava("auto"), DENY);

            assertThat(r.stdout()).contains(DENIED);
            assertThat(r.stderr()).contains("did not answer");
        }
    }

    /** What an impostor on a stale endpoint's port does once a launcher connects. */
    enum Impostor { SILENT, WRONG_PROOF, ALLOWS }

    @ParameterizedTest(name = "{0}")
    @EnumSource(Impostor.class)
    void impostorOnAStaleEndpointsPort_receivesNoByte_eventAnsweredByAJvm(Impostor impostor) throws Exception {
        // The endpoint names a live process of ours with its true start time (a reused PID), so only
        // the proof tells the impostor from the resident.
        try (ServerSocket listener = new ServerSocket(0, 8, InetAddress.getLoopbackAddress())) {
            CompletableFuture<byte[]> received = CompletableFuture.supplyAsync(() -> {
                try (Socket s = listener.accept()) {
                    s.setSoTimeout(30_000);
                    OutputStream out = s.getOutputStream();
                    if (impostor == Impostor.WRONG_PROOF) {
                        out.write((WardenServer.GREETING + "00".repeat(32) + "\n").getBytes(StandardCharsets.US_ASCII));
                    } else if (impostor == Impostor.ALLOWS) {
                        out.write(("HTTP/1.1 200 OK\r\nX-Warden-Exit: 0\r\nX-Warden-Stdout-Bytes: 2\r\n"
                                + "Content-Length: 2\r\n\r\n{}").getBytes(StandardCharsets.US_ASCII));
                    }
                    return readUntilClosed(s.getInputStream());
                } catch (IOException e) {
                    return ("failed: " + e).getBytes(StandardCharsets.UTF_8);
                }
            });
            writeEndpoint(listener.getLocalPort(), "cd".repeat(32), ProcessHandle.current().pid(), "ab".repeat(32));
            Map<String, String> env = new LinkedHashMap<>(realJava("auto"));
            env.put("SECRET_OF_THE_USER", "s3cr3t");

            WardenProcess.Result r = dispatch(env, DENY);

            assertThat(received.get(30, TimeUnit.SECONDS)).as("bytes the impostor received").isEmpty();
            assertThat(r.stdout()).contains(DENIED);
            assertThat(r.exitCode()).isZero();
        }
    }

    @Test
    void endpointNamingAReusedPid_otherStartTime_neverConnected() throws Exception {
        try (ServerSocketChannel listener = ServerSocketChannel.open()) {
            listener.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 8);
            long pid = ProcessHandle.current().pid();
            Path endpoint = Resident.endpointFile(ResidentProcess.dirFor(cache), ResidentProcess.jarKey());
            Files.createDirectories(endpoint.getParent());
            ServeState.writeOwnerOnly(endpoint, ((InetSocketAddress) listener.getLocalAddress()).getPort() + " "
                    + "cd".repeat(32) + " " + pid + " " + (ProcessIdentity.startTicks(pid) + 1) + " " + "ab".repeat(32) + "\n");

            WardenProcess.Result r = dispatch(realJava("auto"), DENY);

            assertThat(r.stdout()).contains(DENIED);
            listener.configureBlocking(false);
            assertThat(listener.accept()).as("a connection the launcher opened").isNull();
        }
    }

    @Test
    @ResourceLock(ALONE)
    void halfOpenConnectionsFlood_forwardedEventStillAnsweredByTheResident() throws Exception {
        ResidentProcess resident = sharedResident();
        int port = resident.endpoint().port();
        List<Socket> flood = new ArrayList<>();
        try {
            for (int i = 0; i < 40; i++) {
                Socket s = new Socket(InetAddress.getLoopbackAddress(), port);
                if (i % 2 == 0) {
                    s.getOutputStream().write("POST /forward HTTP/1.1\r\nAuthoriz".getBytes(StandardCharsets.US_ASCII));
                }
                flood.add(s);
            }
            long began = System.nanoTime();
            WardenProcess.Result r = dispatch(env(ResidentProcess.noJvm(forbiddenJava)), DENY);
            long tookMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - began);

            assertThat(r.stdout()).as(r.stderr()).contains(DENIED);
            ResidentProcess.assertNoJvmStarted(calls);
            System.out.println("forwarded under a flood of 40 half-open connections in " + tookMs + " ms");
            for (Socket s : flood) {
                s.setSoTimeout(30_000);
                InputStream in = s.getInputStream();
                while (in.read() >= 0) {
                    // the greeting; then the server closes it at the head deadline (or to make room)
                }
            }
        } finally {
            for (Socket s : flood) {
                s.close();
            }
        }
    }

    @Test
    void connectionFromAnotherUser_getsNoGreeting() throws Exception {
        Assumptions.assumeTrue("root".equals(System.getProperty("user.name")), "needs root to connect as another user");
        ResidentProcess resident = sharedResident();
        Process p = new ProcessBuilder("setpriv", "--reuid=65534", "--regid=65534", "--clear-groups", "bash", "-c",
                "exec 3<>/dev/tcp/127.0.0.1/$0 || exit 9; IFS= read -r -t 10 -u 3 line; echo \"rc=$? line=$line\"",
                Integer.toString(resident.endpoint().port())).redirectErrorStream(true).start();
        assertThat(p.waitFor(WardenProcess.TIMEOUT_SECONDS, TimeUnit.SECONDS)).isTrue();
        assertThat(new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip())
                .as("closed at once, nothing sent").isEqualTo("rc=1 line=");
    }

    @Test
    void hostClosedStdout_forwardedAnswer_exitZeroNotSigpipe() throws Exception {
        sharedResident();
        Process p = launcher(env(ResidentProcess.noJvm(forbiddenJava)));
        p.getInputStream().close(); // before the launcher can write: it reads stdin first
        try (OutputStream in = p.getOutputStream()) {
            in.write(DENY.getBytes(StandardCharsets.UTF_8));
        }
        assertThat(p.waitFor(WardenProcess.TIMEOUT_SECONDS, TimeUnit.SECONDS)).isTrue();
        assertThat(p.exitValue()).isZero();
        ResidentProcess.assertNoJvmStarted(calls);
    }

    @Test
    void nulByteInAConcernsStderr_answeredByteForByte_concernRanOnce() throws Exception {
        writeOneConcernProject("nul", "echo ran >> \"$(dirname \"$0\")/runs\"\nprintf 'bo\\000om' >&2\nexit 3\n", "");
        Path runs = project.resolve("concerns/runs");
        sharedResident();
        WardenProcess.Result forwarded = dispatch(env(ResidentProcess.noJvm(forbiddenJava)), PROBE_PAYLOAD,
                "--manifest", "conf/m.yaml");
        ResidentProcess.assertNoJvmStarted(calls);
        assertThat(Files.readAllLines(runs)).as("runs of the concern").hasSize(1);

        WardenProcess.Result own = dispatch(realJava("off"), PROBE_PAYLOAD, "--manifest", "conf/m.yaml");
        assertThat(forwarded.stderr()).contains("bo\0om");
        assertSameAnswer(forwarded, own);
    }

    @Test
    void stdinThatNeverCloses_launcherDeadline_answeredAsAJvmWhoseReadTimedOut() throws Exception {
        sharedResident();
        Map<String, String> env = new LinkedHashMap<>(env(ResidentProcess.noJvm(forbiddenJava)));
        env.put("WARDEN_STDIN_TIMEOUT_MS", "300");
        Process p = launcher(env, "--native-event", "PreToolUse");
        OutputStream in = p.getOutputStream();
        in.write("{\"hook_event_name\":\"PreTo".getBytes(StandardCharsets.UTF_8));
        in.flush();
        try {
            assertThat(p.waitFor(WardenProcess.TIMEOUT_SECONDS, TimeUnit.SECONDS)).as("answered with stdin open").isTrue();
            assertThat(p.exitValue()).isZero();
            assertThat(new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8))
                    .contains("payload_timeout: stdin still open after 300 ms (WARDEN_STDIN_TIMEOUT_MS)");
            ResidentProcess.assertNoJvmStarted(calls);
        } finally {
            in.close();
        }
    }

    @Test
    void endpointOwnedByAnotherUser_isNotUsed() throws Exception {
        Assumptions.assumeTrue("root".equals(System.getProperty("user.name")), "needs root to hand the file to another user");
        try (ResidentProcess resident = resident()) {
            Files.setOwner(resident.endpointFile(), resident.endpointFile().getFileSystem()
                    .getUserPrincipalLookupService().lookupPrincipalByName("nobody"));
            WardenProcess.Result r = dispatch(env(ResidentProcess.noJvm(forbiddenJava)), DENY);
            assertThat(r.exitCode()).as("the launcher went to its (forbidden) java").isEqualTo(97);
        }
    }

    @Test
    void resident_warmsUpAtStart_inItsOwnScratchProject_thenRemovesIt() throws Exception {
        Path dir = ResidentProcess.dirFor(cache);
        Path log = dir.resolve("test-resident.log");
        try (ResidentProcess r = resident()) {
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(WardenProcess.TIMEOUT_SECONDS);
            while (!Files.readString(log).contains("warm-up ran") && System.nanoTime() < deadline) {
                Thread.sleep(50);
            }
            assertThat(Files.readString(log)).containsPattern("warm-up ran [1-9][0-9]* synthetic events");
            assertThat(dir.resolve(ResidentProcess.jarKey() + ".warmup")).doesNotExist();
            assertThat(project.resolve(".warden")).as("the test's project").doesNotExist();
        }
        assertThat(Files.readString(log)).contains("after answering 0 forwarded events");
    }

    @Test
    void idleResident_stopsAndWithdrawsItsEndpoint() throws Exception {
        ResidentProcess resident = ResidentProcess.start(cache, 1);
        started.add(resident.process().toHandle());
        assertThat(resident.process().waitFor(WardenProcess.TIMEOUT_SECONDS, TimeUnit.SECONDS)).isTrue();
        assertThat(resident.process().exitValue()).isZero();
        assertThat(Files.exists(resident.endpointFile())).isFalse();
    }

    @Test
    void residentWhoseEndpointIsDeleted_stops() throws Exception {
        ResidentProcess resident = resident();
        Files.delete(resident.endpointFile());

        assertThat(resident.process().waitFor(WardenProcess.TIMEOUT_SECONDS, TimeUnit.SECONDS))
                .as("no launcher can find it any more").isTrue();
        assertThat(resident.process().exitValue()).isZero();
    }

    @Test
    void secondResidentForTheSameKey_exitsAndLeavesTheFirstServing() throws Exception {
        try (ResidentProcess first = resident()) {
            Process second = ResidentProcess.launch(ResidentProcess.dirFor(cache), ResidentProcess.jarKey(), 600);
            started.add(second.toHandle());
            assertThat(second.waitFor(WardenProcess.TIMEOUT_SECONDS, TimeUnit.SECONDS)).isTrue();
            assertThat(second.exitValue()).isZero();
            assertThat(Files.readString(ResidentProcess.dirFor(cache).resolve("test-resident.log")))
                    .contains("another resident already serves key");
            assertThat(first.endpoint().pid()).isEqualTo(first.process().pid());
            assertThat(dispatch(env(ResidentProcess.noJvm(forbiddenJava)), DENY).stdout()).contains(DENIED);
        }
    }

    @Test
    void statusAndStop_commands() throws Exception {
        ResidentProcess resident = resident();
        List<String> where = List.of("--dir", ResidentProcess.dirFor(cache).toString(), "--key", ResidentProcess.jarKey());
        WardenProcess.Result status = cli("status", where);
        assertThat(status.exitCode()).isZero();
        assertThat(status.stdout()).contains("running, pid " + resident.process().pid());

        WardenProcess.Result stop = cli("stop", where);
        assertThat(stop.exitCode()).isZero();
        assertThat(resident.process().waitFor(WardenProcess.TIMEOUT_SECONDS, TimeUnit.SECONDS)).isTrue();
        assertThat(Files.exists(resident.endpointFile())).isFalse();

        WardenProcess.Result after = cli("status", where);
        assertThat(after.exitCode()).isEqualTo(1);
        assertThat(after.stdout()).contains("not running");
    }

    @Test
    void forwarded_concernGetsTheLaunchersUmaskNiceAndLimits_asItsOwnJvmWould() throws Exception {
        writeOneConcernProject("attrs",
                "echo \"attrs umask=$(umask) stack=$(ulimit -s) nofile=$(ulimit -n) nice=$(nice)\" >&2\nexit 1\n",
                ", severity: blocking");
        sharedResident();
        String forwarded = underAttributes(env(ResidentProcess.noJvm(forbiddenJava)));
        ResidentProcess.assertNoJvmStarted(calls);
        String own = underAttributes(realJava("off"));

        assertThat(forwarded).contains("attrs umask=0077 stack=4096 nofile=").contains(" nice=3").isEqualTo(own);
    }

    /**
     * The launcher's stdout, run under umask 0077, soft limits of 4 MB stack and 256 open files
     * (which a JVM raises to the hard limit for itself and its children) and nice 3.
     */
    private String underAttributes(Map<String, String> env) throws Exception {
        ProcessBuilder pb = new ProcessBuilder("bash", "-c",
                "umask 0077; ulimit -S -s 4096; ulimit -S -n 256; exec nice -n 3 \"$0\" dispatch --host claude --manifest conf/m.yaml",
                WardenProcess.home().toAbsolutePath().resolve("bin/warden").toString())
                .directory(project.toFile()).redirectError(ProcessBuilder.Redirect.DISCARD);
        pb.environment().clear();
        pb.environment().put("PATH", System.getenv().getOrDefault("PATH", "/usr/bin:/bin"));
        pb.environment().putAll(env);
        Process p = pb.start();
        started.add(p.toHandle());
        try (OutputStream in = p.getOutputStream()) {
            in.write(PROBE_PAYLOAD.getBytes(StandardCharsets.UTF_8));
        }
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(WardenProcess.TIMEOUT_SECONDS, TimeUnit.SECONDS)).isTrue();
        return out;
    }

    @Test
    void stopAndStatus_plantedEndpointNamingAnUnrelatedProcess_leaveItAlone() throws Exception {
        Process unrelated = new ProcessBuilder("sleep", "600").start();
        started.add(unrelated.toHandle());
        // Its real start time, so only the command line tells it from a resident; then a wrong one.
        for (long start : List.of(ProcessIdentity.startTicks(unrelated.pid()), 1L)) {
            writeEndpoint(1, "cd".repeat(32), unrelated.pid(), "ab".repeat(32), start);
            List<String> where = List.of("--dir", ResidentProcess.dirFor(cache).toString(), "--key", ResidentProcess.jarKey());

            WardenProcess.Result status = cli("status", where);
            WardenProcess.Result stop = cli("stop", where);

            assertThat(status.exitCode()).isEqualTo(1);
            assertThat(status.stdout()).contains("not running").contains("which is not this resident");
            assertThat(stop.exitCode()).isZero();
            assertThat(stop.stdout()).contains("left alone");
            assertThat(unrelated.isAlive()).as("the process the planted file names").isTrue();
        }
    }

    @Test
    void residentWhoseDirectoryIsGoneAtStart_exitsWithoutRecreatingIt() throws Exception {
        Path gone = tmp.resolve("removed-cache/resident");
        List<String> command = new ArrayList<>(List.of(WardenProcess.java().toString()));
        command.addAll(WardenProcess.FLAGS);
        command.addAll(List.of("-jar", WardenProcess.jar().toString(), "resident", "start", "--dir", gone.toString(),
                "--key", ResidentProcess.jarKey(), "--idle-exit", "600"));
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        started.add(p.toHandle());

        assertThat(p.waitFor(WardenProcess.TIMEOUT_SECONDS, TimeUnit.SECONDS)).as("exited").isTrue();
        assertThat(new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8)).contains("does not exist");
        assertThat(p.exitValue()).isNotZero();
        assertThat(gone.getParent()).doesNotExist();
    }

    private WardenProcess.Result cli(String command, List<String> where) throws IOException, InterruptedException {
        List<String> args = new ArrayList<>(List.of("resident", command));
        args.addAll(where);
        return WardenProcess.run(List.of(), args, env(Map.of()), new byte[0], project);
    }

    @Test
    void connectToAFullAcceptQueue_launcherGivesUpAtItsDeadline_eventAnsweredByAJvm() throws Exception {
        // a listener that never accepts, its queue (backlog 1) filled: a further connect blocks in SYN retries
        List<java.nio.channels.SocketChannel> fillers = new ArrayList<>();
        try (ServerSocket full = new ServerSocket(0, 1, InetAddress.getByName("127.0.0.1"))) {
            for (int i = 0; i < 8; i++) {
                java.nio.channels.SocketChannel c = java.nio.channels.SocketChannel.open();
                c.configureBlocking(false);
                c.connect(new InetSocketAddress(InetAddress.getByName("127.0.0.1"), full.getLocalPort()));
                fillers.add(c);
            }
            writeEndpoint(full.getLocalPort(), "cd".repeat(32), ProcessHandle.current().pid(), "ab".repeat(32));

            WardenProcess.Result r = dispatch(realJava("auto"), DENY);

            assertThat(r.stdout()).as(r.stderr()).contains(DENIED);
            assertThat(r.exitCode()).isZero();
            assertThat(r.stderr()).contains("the resident's port accepted no connection within 2 s");
        } finally {
            for (java.nio.channels.SocketChannel c : fillers) {
                c.close();
            }
        }
    }

    @Test
    @ResourceLock(ALONE)
    void connectionFloodFromTheSameUser_dispatchStillAnsweredWithTheDeny() throws Exception {
        ResidentProcess resident = sharedResident();
        Flood flood = new Flood(resident.endpoint().port());
        Thread t = new Thread(flood, "flood");
        t.start();
        try {
            flood.awaitConnections(2_000);
            for (int i = 0; i < 3; i++) {
                WardenProcess.Result r = dispatch(realJava("auto"), DENY);
                assertThat(r.stdout()).as(r.stderr()).contains(DENIED);
                assertThat(r.exitCode()).isZero();
            }
        } finally {
            flood.stop = true;
            t.join(30_000);
        }
        assertThat(flood.opened).as("the flood ran").isGreaterThan(2_000);
        assertThat(dispatch(env(ResidentProcess.noJvm(forbiddenJava)), DENY).stdout())
                .as("the resident still serves after the flood").contains(DENIED);
    }

    @Test
    @ResourceLock(ALONE)
    void connectionFloodFromAnotherUser_dispatchStillAnsweredWithTheDeny() throws Exception {
        Assumptions.assumeTrue("root".equals(System.getProperty("user.name")), "needs root to flood as uid 65534");
        Assumptions.assumeTrue(Files.isExecutable(Path.of("/usr/bin/python3")), "needs /usr/bin/python3 for the flood");
        Path script = tmp.resolve("flood.py");
        Files.writeString(script, """
                import socket, sys, time
                port = int(sys.argv[1]); end = time.time() + float(sys.argv[2]); n = 0
                print("started", flush=True)
                while time.time() < end:
                    try:
                        s = socket.socket(); s.setblocking(False)
                        try: s.connect(("127.0.0.1", port))
                        except BlockingIOError: pass
                        s.close(); n += 1
                    except OSError: time.sleep(0.001)
                print("conns", n, flush=True)
                """);
        Files.setPosixFilePermissions(tmp, PosixFilePermissions.fromString("rwxr-xr-x"));
        Files.setPosixFilePermissions(script, PosixFilePermissions.fromString("rw-r--r--"));
        ResidentProcess resident = sharedResident();
        List<Process> floods = new ArrayList<>();
        try {
            for (int i = 0; i < 2; i++) {
                Process p = new ProcessBuilder("setpriv", "--reuid=65534", "--regid=65534", "--clear-groups",
                        "/usr/bin/python3", script.toString(), Integer.toString(resident.endpoint().port()), "20")
                        .redirectErrorStream(true).start();
                started.add(p.toHandle());
                floods.add(p);
                assertThat(new java.io.BufferedReader(new java.io.InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))
                        .readLine()).isEqualTo("started");
            }
            for (int i = 0; i < 3; i++) {
                WardenProcess.Result r = dispatch(realJava("auto"), DENY);
                assertThat(r.stdout()).as(r.stderr()).contains(DENIED);
                assertThat(r.exitCode()).isZero();
            }
        } finally {
            for (Process p : floods) {
                p.destroy();
                p.waitFor(30, TimeUnit.SECONDS);
            }
        }
        assertThat(dispatch(env(ResidentProcess.noJvm(forbiddenJava)), DENY).stdout())
                .as("the resident still serves after the flood").contains(DENIED);
    }

    /** Non-blocking connect and close as fast as it can, as a local user flooding the port would. */
    private static final class Flood implements Runnable {
        private final int port;
        volatile boolean stop;
        volatile long opened;

        Flood(int port) {
            this.port = port;
        }

        @Override
        public void run() {
            InetSocketAddress to = new InetSocketAddress(InetAddress.getLoopbackAddress(), port);
            while (!stop) {
                try (java.nio.channels.SocketChannel c = java.nio.channels.SocketChannel.open()) {
                    c.configureBlocking(false);
                    c.connect(to);
                    opened++;
                } catch (IOException e) {
                    Thread.onSpinWait();
                }
            }
        }

        void awaitConnections(long n) throws InterruptedException {
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(WardenProcess.TIMEOUT_SECONDS);
            while (opened < n && System.nanoTime() < deadline) {
                Thread.sleep(20);
            }
        }
    }

    @Test
    void sharedResidentDirectory_plantedLinks_notFollowed_noResidentUsed() throws Exception {
        String key = ResidentProcess.jarKey();
        Path dir = Files.createDirectories(ResidentProcess.dirFor(cache));
        Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwxrwxrwx"));
        Path victim = Files.writeString(tmp.resolve("victim-bashrc"), "mine\n");
        Path newFile = tmp.resolve("victim-newfile");
        Files.createSymbolicLink(dir.resolve(key + ".log"), victim);
        Files.createSymbolicLink(dir.resolve(key + ".lock"), newFile);

        WardenProcess.Result r = dispatch(realJava("auto"), DENY);

        assertThat(r.stdout()).as(r.stderr()).contains(DENIED);
        assertThat(r.stderr()).contains("resident directory " + dir + " is not this user's alone");
        assertThat(Files.exists(dir.resolve(key + ".starting"))).as("no resident was started").isFalse();
        assertThat(Files.readString(victim)).isEqualTo("mine\n");
        assertThat(Files.exists(newFile, java.nio.file.LinkOption.NOFOLLOW_LINKS)).isFalse();
        assertThatRefused(() -> Resident.start(dir, key, Map.of(), java.time.Clock.systemUTC()), "is not private");
        assertThat(Files.exists(newFile, java.nio.file.LinkOption.NOFOLLOW_LINKS)).isFalse();
    }

    @Test
    void residentDirectoryOfAnotherUser_withPlantedLinks_notUsedNotWrittenThrough() throws Exception {
        Assumptions.assumeTrue("root".equals(System.getProperty("user.name")), "needs root to act as uid 65534");
        String key = ResidentProcess.jarKey();
        Path shared = tmp.resolve("S");
        Files.createDirectories(shared);
        Files.setPosixFilePermissions(tmp, PosixFilePermissions.fromString("rwxr-xr-x"));
        Files.setPosixFilePermissions(shared, PosixFilePermissions.fromString("rwxrwxrwx"));
        Process plant = new ProcessBuilder("setpriv", "--reuid=65534", "--regid=65534", "--clear-groups", "sh", "-c",
                "mkdir -m 777 \"$0/resident\" && ln -s \"$1\" \"$0/resident/$2.log\" && ln -s \"$3\" \"$0/resident/$2.lock\"",
                shared.toString(), tmp.resolve("victim-bashrc").toString(), key, tmp.resolve("victim-newfile").toString())
                .redirectErrorStream(true).start();
        assertThat(plant.waitFor(WardenProcess.TIMEOUT_SECONDS, TimeUnit.SECONDS)).isTrue();
        assertThat(plant.exitValue()).as(new String(plant.getInputStream().readAllBytes(), StandardCharsets.UTF_8)).isZero();
        Path victim = Files.writeString(tmp.resolve("victim-bashrc"), "mine\n");
        Map<String, String> env = new LinkedHashMap<>(realJava("auto"));
        env.put("WARDEN_CACHE_DIR", shared.toString());

        WardenProcess.Result r = dispatch(env, DENY);

        assertThat(r.stdout()).as(r.stderr()).contains(DENIED);
        assertThat(r.stderr()).contains("is not this user's alone");
        assertThat(Files.readString(victim)).isEqualTo("mine\n");
        assertThat(Files.exists(tmp.resolve("victim-newfile"), java.nio.file.LinkOption.NOFOLLOW_LINKS)).isFalse();
        assertThatRefused(() -> Resident.start(shared.resolve("resident"), key, Map.of(), java.time.Clock.systemUTC()),
                "is owned by uid 65534");
    }

    @Test
    void lockOrLogPlantedAsSymlinkInAPrivateDirectory_notFollowed() throws Exception {
        String key = ResidentProcess.jarKey();
        Path dir = Files.createDirectories(ResidentProcess.dirFor(cache));
        Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwx------"));
        Path victim = tmp.resolve("victim-newfile");
        Files.createSymbolicLink(dir.resolve(key + ".lock"), victim);
        Files.createSymbolicLink(dir.resolve(key + ".log"), victim);

        assertThatRefused(() -> Resident.start(dir, key, Map.of(), java.time.Clock.systemUTC()), "is a symlink");
        assertThatRefused(() -> Resident.openLog(dir.resolve(key + ".log")).close(), "is a symlink");
        assertThat(Files.exists(victim, java.nio.file.LinkOption.NOFOLLOW_LINKS)).isFalse();
    }

    private interface Action {
        void run() throws Exception;
    }

    private static void assertThatRefused(Action action, String message) {
        try {
            action.run();
        } catch (Exception e) {
            assertThat(e).isInstanceOf(IOException.class).hasMessageContaining(message);
            return;
        }
        throw new AssertionError("expected a refusal containing '" + message + "'");
    }

    /** An endpoint file naming {@code pid} with its true start time. */
    private void writeEndpoint(int port, String token, long pid, String proof) throws IOException {
        writeEndpoint(port, token, pid, proof, ProcessIdentity.startTicks(pid));
    }

    private void writeEndpoint(int port, String token, long pid, String proof, long start) throws IOException {
        Path endpoint = Resident.endpointFile(ResidentProcess.dirFor(cache), ResidentProcess.jarKey());
        Files.createDirectories(endpoint.getParent());
        ServeState.writeOwnerOnly(endpoint, port + " " + token + " " + pid + " " + start + " " + proof + "\n");
    }

    /** The launcher for {@code dispatch --host claude [extra]} in the project, its pipes left to the test. */
    private Process launcher(Map<String, String> env, String... extra) throws IOException {
        List<String> command = new ArrayList<>(List.of(WardenProcess.home().toAbsolutePath().resolve("bin/warden").toString(),
                "dispatch", "--host", "claude"));
        command.addAll(List.of(extra));
        ProcessBuilder pb = new ProcessBuilder(command).directory(project.toFile());
        pb.environment().clear();
        pb.environment().put("PATH", System.getenv().getOrDefault("PATH", "/usr/bin:/bin"));
        pb.environment().putAll(env);
        Process p = pb.start();
        started.add(p.toHandle());
        return p;
    }

    private static Resident.Endpoint awaitEndpoint(Path file, java.util.function.Predicate<Resident.Endpoint> ready)
            throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(WardenProcess.TIMEOUT_SECONDS);
        while (System.nanoTime() < deadline) {
            Resident.Endpoint e = Resident.read(file);
            if (e != null && ready.test(e)) {
                return e;
            }
            Thread.sleep(100);
        }
        throw new AssertionError("no live endpoint in " + file);
    }

    private static long deadPid() {
        long pid = 4_000_000;
        while (ProcessHandle.of(pid).isPresent()) {
            pid++;
        }
        return pid;
    }

    /** Everything that arrives until the peer closes or resets the connection. */
    private static byte[] readUntilClosed(InputStream in) throws IOException {
        ByteArrayOutputStream b = new ByteArrayOutputStream();
        byte[] buf = new byte[8192];
        try {
            for (int n; (n = in.read(buf)) >= 0; ) {
                b.write(buf, 0, n);
            }
        } catch (java.net.SocketException e) {
            // reset: the launcher closed with the impostor's answer unread
        }
        return b.toByteArray();
    }

    /** The request, read until the payload's command has arrived (or the client stops sending). */
    private static String readRequest(Socket s) throws IOException {
        s.setSoTimeout(10_000);
        InputStream in = s.getInputStream();
        ByteArrayOutputStream b = new ByteArrayOutputStream();
        byte[] buf = new byte[8192];
        int n;
        while (!b.toString(StandardCharsets.ISO_8859_1).contains("git commit --no-verify") && (n = in.read(buf)) >= 0) {
            b.write(buf, 0, n);
        }
        return b.toString(StandardCharsets.ISO_8859_1);
    }

    /** One launcher run whose stdin is a pipe the test writes to, as hosts do. */
    private record PipedRun(int exitCode, String stdout) {
    }

    private PipedRun pipedDispatch(Map<String, String> env, byte[] stdin) throws Exception {
        ProcessBuilder pb = new ProcessBuilder(WardenProcess.home().toAbsolutePath().resolve("bin/warden").toString(),
                "dispatch", "--host", "claude").directory(project.toFile()).redirectError(ProcessBuilder.Redirect.DISCARD);
        pb.environment().clear();
        pb.environment().put("PATH", System.getenv().getOrDefault("PATH", "/usr/bin:/bin"));
        pb.environment().putAll(env);
        // A loaded machine may take seconds to write megabytes through a pipe: this test is not about the stdin deadline.
        pb.environment().putIfAbsent("WARDEN_STDIN_TIMEOUT_MS", "600000");
        Process p = pb.start();
        CompletableFuture<byte[]> out = CompletableFuture.supplyAsync(() -> {
            try {
                return p.getInputStream().readAllBytes();
            } catch (IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        });
        try (OutputStream in = p.getOutputStream()) {
            for (int i = 0; i < stdin.length; i += 4096) {
                in.write(stdin, i, Math.min(4096, stdin.length - i));
            }
        }
        assertThat(p.waitFor(WardenProcess.TIMEOUT_SECONDS, TimeUnit.SECONDS)).isTrue();
        return new PipedRun(p.exitValue(), new String(out.get(), StandardCharsets.UTF_8));
    }
}
