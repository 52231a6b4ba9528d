package dev.agentwarden.managed;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpServer;
import dev.agentwarden.release.KeyFiles;
import dev.agentwarden.release.PolicyBundle;
import dev.agentwarden.release.Publisher;
import dev.agentwarden.testing.WardenProcess;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;

/**
 * {@code warden policy pull} where it really writes: every pull and dispatch runs in a mount namespace
 * with an overlay on {@code /etc} (as {@link ManagedLayerIT}), bundles come from an HTTP server on
 * 127.0.0.1 in this test. Each bad bundle is refused with a clear code and the installed bundle
 * stays in force; a good one swaps in while dispatches run. Cases run side by side: each has its own
 * namespace, server, home and cache.
 */
@Execution(ExecutionMode.CONCURRENT)
class PolicyBundleIT {
    @TempDir
    Path tmp;

    private Path etc;
    private Path project;
    private Path keys;
    private HttpServer server;
    private final Map<String, byte[]> served = new ConcurrentHashMap<>();

    @BeforeEach
    void layout() throws Exception {
        Assumptions.assumeTrue(ManagedLayerITSupport.namespacesWork(), "mount namespaces with overlayfs are not available");
        etc = Files.createDirectories(tmp.resolve("upper/agent-warden"));
        Files.setPosixFilePermissions(etc, PosixFilePermissions.fromString("rwxr-xr-x"));
        Files.createDirectories(tmp.resolve("work"));
        project = Files.createDirectories(tmp.resolve("project"));
        Files.createDirectories(tmp.resolve("home"));
        Files.setPosixFilePermissions(tmp.resolve("home"), PosixFilePermissions.fromString("rwx------"));
        keys = Files.createDirectories(tmp.resolve("keys"));
        for (String name : List.of("alice", "bob", "mallory")) {
            KeyFiles.generate(keys, name);
        }
        Path root = etc.resolve("policy-root.json");
        Publisher.initRoot(List.of(pub("alice"), pub("bob")), 1, Instant.now().plus(Duration.ofDays(365)), root);
        Publisher.sign(root, KeyFiles.readSigningKey(key("alice")), null);
        Files.setPosixFilePermissions(root, PosixFilePermissions.fromString("rw-r--r--"));

        server = HttpServer.create(new InetSocketAddress(InetAddress.getByName("127.0.0.1"), 0), 0);
        server.createContext("/", exchange -> {
            String path = exchange.getRequestURI().getPath();
            byte[] body = served.get(path);
            try (exchange) {
                if (path.startsWith("/slow")) {
                    exchange.sendResponseHeaders(200, 0);
                    OutputStream out = exchange.getResponseBody();
                    for (int i = 0; i < 100; i++) {
                        out.write(' ');
                        out.flush();
                        Thread.sleep(200);
                    }
                    return;
                }
                if (body == null) {
                    exchange.sendResponseHeaders(404, -1);
                    return;
                }
                String etag = "\"" + Integer.toHexString(java.util.Arrays.hashCode(body)) + "\"";
                exchange.getResponseHeaders().set("ETag", etag);
                if (etag.equals(exchange.getRequestHeaders().getFirst("If-None-Match"))) {
                    exchange.sendResponseHeaders(304, -1);
                    return;
                }
                exchange.sendResponseHeaders(200, body.length);
                exchange.getResponseBody().write(body);
            } catch (InterruptedException | IOException e) {
                // the client went away (deadline test)
            }
        });
        server.setExecutor(java.util.concurrent.Executors.newCachedThreadPool());
        server.start();
    }

    @AfterEach
    void stop() {
        if (server != null) {
            server.stop(0);
        }
    }

    @Test
    void goodBundle_isInstalled_andEnforced_andStatusSaysSo() throws Exception {
        serve("/v1", bundle(1, "alpha", "30d", "alice"));
        String pull = ns("policy pull --allow-http-loopback " + url("/v1"));
        assertThat(pull).contains("installed policy bundle version 1");
        assertThat(dispatch("echo alpha")).contains("\"permissionDecision\":\"deny\"").contains("policy v1 denies alpha");
        assertThat(dispatch("echo fine")).doesNotContain("\"permissionDecision\":\"deny\"");
        assertThat(Files.readSymbolicLink(etc.resolve("current")).toString()).isEqualTo("bundles/1");
        String status = ns("policy status");
        assertThat(status).contains("policy bundle: version 1").contains("source: " + url("/v1"))
                .contains("installed: ").contains("last pull: ").contains("installed");
        // the same URL again: the server answers 304 to the ETag, nothing changes
        assertThat(ns("policy pull --allow-http-loopback " + url("/v1"))).contains("is unchanged (ETag");
        // the same bytes from a server without ETags: unchanged, not a refusal
        serve("/copy-of-v1", served.get("/v1"));
        assertThat(ns("policy pull --allow-http-loopback " + url("/copy-of-v1"))).contains("serves the installed bundle");
    }

    /* The refusals are three cases, each from its own installed version 2, so that they run side by side. */

    @Test
    void badBundles_areRefused_andTheLastGoodOneStays() throws Exception {
        installVersion2();

        byte[] good = bundle(3, "beta", "30d", "alice");
        String text = new String(good, StandardCharsets.UTF_8);
        String payload = text.replaceAll("(?s).*\"payload\":\"([^\"]+)\".*", "$1");
        String decoded = new String(java.util.Base64.getDecoder().decode(payload), StandardCharsets.UTF_8)
                .replace("policy v3 denies beta", "policy v3 denies gamma");
        serve("/tampered", text.replace(payload, java.util.Base64.getEncoder().encodeToString(
                decoded.getBytes(StandardCharsets.UTF_8))).getBytes(StandardCharsets.UTF_8));
        serve("/rollback", bundle(1, "beta", "30d", "alice"));
        serve("/replay", bundle(2, "beta", "30d", "alice"));
        serve("/expired", bundle(4, "beta", "2020-01-01T00:00:00Z", "alice"));
        serve("/unknown", bundle(5, "beta", "30d", "mallory"));

        refused("/tampered", "signature_threshold_not_met");
        refused("/rollback", "bundle_rollback");
        refused("/replay", "bundle_rollback");
        refused("/expired", "bundle_expired");
        refused("/unknown", "signature_threshold_not_met");
    }

    @Test
    void oversizedMissingScriptSlowAndPlainHttpBundles_areRefused_andTheLastGoodOneStays() throws Exception {
        installVersion2();
        byte[] big = new byte[5 * 1024 * 1024];
        java.util.Arrays.fill(big, (byte) ' ');
        serve("/oversized", big);

        refused("/oversized", "a bundle is at most 4194304");
        serve("/script", PolicyBundle.sign(Map.of("manifest.yaml", ("schema_version: 1\nconcerns:\n  s: {script: ./s.sh}\n"
                + "platforms:\n  claude:\n    pre_tool_use: [s]\n").getBytes(StandardCharsets.UTF_8)), 8,
                Instant.now().plus(Duration.ofDays(1)), List.of(key("alice"))));
        refused("/script", "bundle_script_missing");
        long start = System.nanoTime();
        String slow = ns("policy pull --allow-http-loopback --deadline 2 " + url("/slow"));
        assertThat(slow).contains("refused").contains("deadline").contains("stays in force");
        assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(15));
        assertThat(ns("policy pull " + url("/v2"))).contains("https only");
        assertStill(2);
    }

    @Test
    void aRevokedSignersBundle_isRefusedAfterARootRotation_andTheNextGoodOneInstalls() throws Exception {
        installVersion2();

        // revoke bob by a root rotation (signed by alice, in both the old and the new root): bob's bundle is refused
        Path rotated = Publisher.rotateRoot(etc.resolve("policy-root.json"), List.of(), List.of(pub("bob").toString()),
                null, null, null).file();
        Publisher.sign(rotated, KeyFiles.readSigningKey(key("alice")), null);
        Files.setPosixFilePermissions(rotated, PosixFilePermissions.fromString("rw-r--r--"));
        serve("/revoked", bundle(6, "beta", "30d", "bob"));
        refused("/revoked", "signature_threshold_not_met");
        serve("/v7", bundle(7, "beta", "30d", "alice"));
        assertThat(ns("policy pull --allow-http-loopback " + url("/v7"))).contains("installed policy bundle version 7")
                .contains("root version 2");
    }

    /** Version 2 (denying alpha) pulled and installed: the last good bundle the refusals must leave in force. */
    private void installVersion2() throws Exception {
        serve("/v2", bundle(2, "alpha", "30d", "alice"));
        assertThat(ns("policy pull --allow-http-loopback " + url("/v2"))).contains("installed policy bundle version 2");
    }

    @Test
    void goodBundles_swapInWhileDispatchesRun_andNoneSeesHalfAPolicy() throws Exception {
        int last = 5;
        for (int v = 1; v <= last; v++) {
            serve("/v" + v, bundle(v, "alpha", "30d", "alice"));
        }
        assertThat(ns("policy pull --allow-http-loopback " + url("/v1"))).contains("version 1");
        Path payload = payload("echo alpha");
        String dispatch = javaCmd(List.of("dispatch", "--host", "claude", "--native-event", "PreToolUse", "--manifest",
                projectManifest().toString(), "--project-dir", project.toString())) + " < '" + payload + "'";
        Path outs = Files.createDirectories(tmp.resolve("outs"));
        StringBuilder pulls = new StringBuilder();
        for (int v = 2; v <= last; v++) {
            pulls.append(javaCmd(List.of("policy", "pull", "--allow-http-loopback", url("/v" + v)))).append("; ");
        }
        // a dispatch loop runs from before the first swap to after the last one
        String script = "i=0; (while [ ! -e '" + tmp.resolve("pulled") + "' ] || [ $i -lt 2 ]; do " + dispatch
                + " > '" + outs + "'/$i.txt 2>&1; i=$((i+1)); [ $i -lt 60 ] || break; done) & " + pulls
                + "touch '" + tmp.resolve("pulled") + "'; wait";
        String out = inNamespace(script);
        assertThat(out).contains("installed policy bundle version " + last);
        List<Path> files;
        try (var list = Files.list(outs)) {
            files = new ArrayList<>(list.toList());
        }
        assertThat(files).hasSizeGreaterThanOrEqualTo(2);
        java.util.TreeMap<Integer, Integer> seen = new java.util.TreeMap<>();
        for (Path f : files) {
            String verdict = Files.readString(f);
            assertThat(verdict).as(f.toString()).contains("\"permissionDecision\":\"deny\"")
                    .doesNotContain("managed policy refused");
            int versions = 0;
            for (int v = 1; v <= last; v++) {
                if (verdict.contains("policy v" + v + " denies alpha")) {
                    versions++;
                    seen.merge(v, 1, Integer::sum);
                }
            }
            assertThat(versions).as(f + ": exactly one policy version decided: " + verdict).isEqualTo(1);
        }
        System.out.println("PolicyBundleIT swap: " + files.size() + " dispatches during " + (last - 1)
                + " swaps; verdicts by version " + seen + "; none half, none refused");
        assertThat(dispatch("echo alpha")).contains("policy v" + last + " denies alpha");
    }

    @Test
    void aBundleCarriesItsScript_whichRunsOnDispatch_andATamperedScriptIsRefused() throws Exception {
        Path policy = Files.createDirectories(tmp.resolve("policy/concerns"));
        Files.writeString(policy.resolve("deny.sh"), "#!/bin/sh\necho 'bundle script says no' >&2\nexit 1\n");
        Files.setPosixFilePermissions(policy.resolve("deny.sh"), PosixFilePermissions.fromString("rwxr-x---"));
        String manifest = """
                schema_version: 1
                concerns:
                  admin-check: {script: ./concerns/deny.sh, tools: [Bash], fail_closed: true}
                platforms:
                  claude:
                    pre_tool_use: [admin-check]
                """;
        Files.writeString(policy.getParent().resolve("manifest.yaml"), "schema_version: 1\nconcerns:\n"
                + "  admin-check: {script: concerns/missing.sh, tools: [Bash]}\n"
                + "platforms:\n  claude:\n    pre_tool_use: [admin-check]\n");
        Path signed = tmp.resolve("bundle-with-script.json");
        String missing = local(List.of("policy", "sign", "--key", key("alice").toString(), "--version", "1", "--out",
                signed.toString(), policy.getParent().toString()));
        assertThat(missing).contains("bundle_script_missing").contains("concerns/missing.sh");
        assertThat(Files.exists(signed)).isFalse();

        Files.writeString(policy.getParent().resolve("manifest.yaml"), manifest);
        assertThat(local(List.of("policy", "sign", "--key", key("alice").toString(), "--version", "1", "--out",
                signed.toString(), policy.getParent().toString()))).contains("signed policy bundle version 1")
                .contains("scripts [concerns/deny.sh]");
        serve("/with-script", Files.readAllBytes(signed));
        assertThat(ns("policy pull --allow-http-loopback " + url("/with-script")))
                .contains("installed policy bundle version 1");
        Path installed = etc.resolve("bundles/1/concerns/deny.sh");
        assertThat(Files.readString(installed)).contains("bundle script says no");
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(installed,
                java.nio.file.LinkOption.NOFOLLOW_LINKS))).isEqualTo("rwxr-xr-x");
        assertThat(dispatch("ls")).contains("\"permissionDecision\":\"deny\"").contains("bundle script says no");

        // version 2 signs a script that refuses too; the served copy's script is changed to allow: the signature fails
        byte[] v2 = PolicyBundle.sign(Map.of("manifest.yaml", manifest.getBytes(StandardCharsets.UTF_8)),
                Map.of("concerns/deny.sh", new PolicyBundle.Script("#!/bin/sh\necho 'v2 says no' >&2\nexit 1\n"
                        .getBytes(StandardCharsets.UTF_8), true)), 2, Instant.now().plus(Duration.ofDays(1)),
                List.of(key("alice")));
        String text = new String(v2, StandardCharsets.UTF_8);
        String payload = text.replaceAll("(?s).*\"payload\":\"([^\"]+)\".*", "$1");
        java.util.Base64.Encoder b64 = java.util.Base64.getEncoder();
        String decoded = new String(java.util.Base64.getDecoder().decode(payload), StandardCharsets.UTF_8);
        String refusing = b64.encodeToString("#!/bin/sh\necho 'v2 says no' >&2\nexit 1\n".getBytes(StandardCharsets.UTF_8));
        assertThat(decoded).contains(refusing);
        String allowing = b64.encodeToString("#!/bin/sh\nexit 0\n".getBytes(StandardCharsets.UTF_8));
        serve("/tampered-script", text.replace(payload, b64.encodeToString(decoded.replace(refusing, allowing)
                .getBytes(StandardCharsets.UTF_8))).getBytes(StandardCharsets.UTF_8));
        String out = ns("policy pull --allow-http-loopback " + url("/tampered-script"));
        assertThat(out).contains("refused").contains("signature_threshold_not_met").contains("stays in force");
        assertThat(Files.readSymbolicLink(etc.resolve("current")).toString()).isEqualTo("bundles/1");
        assertThat(Files.exists(etc.resolve("bundles/2"))).isFalse();
        assertThat(dispatch("ls")).contains("\"permissionDecision\":\"deny\"").contains("bundle script says no");
        // the untampered version 2 swaps in, with its own script
        serve("/v2-script", v2);
        assertThat(ns("policy pull --allow-http-loopback " + url("/v2-script"))).contains("installed policy bundle version 2");
        assertThat(dispatch("ls")).contains("\"permissionDecision\":\"deny\"").contains("v2 says no");
    }

    /** Warden run here, outside the namespace (signing needs no root): stdout then stderr. */
    private String local(List<String> args) throws Exception {
        List<String> cmd = new ArrayList<>(List.of(WardenProcess.java().toString()));
        cmd.addAll(WardenProcess.flagsFor(args));
        cmd.addAll(List.of("-jar", WardenProcess.jar().toString()));
        cmd.addAll(args);
        ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true);
        pb.environment().put("HOME", tmp.resolve("home").toString());
        Process p = pb.start();
        byte[] out = p.getInputStream().readAllBytes();
        assertThat(p.waitFor(WardenProcess.TIMEOUT_SECONDS, TimeUnit.SECONDS)).isTrue();
        return new String(out, StandardCharsets.UTF_8);
    }

    private void refused(String path, String expected) throws Exception {
        String out = ns("policy pull --allow-http-loopback " + url(path));
        assertThat(out).as(path).contains("refused").contains(expected).contains("stays in force");
        assertStill(2);
    }

    private void assertStill(long version) throws Exception {
        assertThat(Files.readSymbolicLink(etc.resolve("current")).toString()).isEqualTo("bundles/" + version);
        assertThat(dispatch("echo alpha")).contains("policy v" + version + " denies alpha");
        assertThat(ns("policy status")).contains("policy bundle: version " + version).contains("refused");
    }

    private byte[] bundle(long version, String word, String expires, String signer) throws Exception {
        return bundle(version, word, expires, signer, "v" + version);
    }

    /** A bundle whose manifest denies Bash commands containing {@code word} with reason "policy TAG denies WORD". */
    private byte[] bundle(long version, String word, String expires, String signer, String tag) throws Exception {
        String manifest = """
                schema_version: 1
                concerns:
                  fleet-deny:
                    script: builtin:deny-pattern
                    posture: blocking
                    tools: [Bash]
                    patterns:
                      - match: '%s'
                        reason: "policy %s denies %s"
                platforms:
                  claude:
                    pre_tool_use: [fleet-deny]
                """.formatted(word, tag, word);
        Instant until = expires.endsWith("d") ? Instant.now().plus(Duration.ofDays(Long.parseLong(expires.replace("d", ""))))
                : Instant.parse(expires);
        return PolicyBundle.sign(Map.of("manifest.yaml", manifest.getBytes(StandardCharsets.UTF_8),
                "settings.json", "{\"fail_mode\": \"closed\"}".getBytes(StandardCharsets.UTF_8)), version, until,
                List.of(key(signer)));
    }

    private void serve(String path, byte[] body) {
        served.put(path, body);
    }

    private String url(String path) {
        return "http://127.0.0.1:" + server.getAddress().getPort() + path;
    }

    private Path key(String name) {
        return keys.resolve(name + ".key.pem");
    }

    private Path pub(String name) {
        return keys.resolve(name + ".pub.pem");
    }

    private Path projectManifest() throws IOException {
        Path f = tmp.resolve("project-manifest.yaml");
        Files.writeString(f, "schema_version: 1\nextends: default\n");
        return f;
    }

    private Path payload(String command) throws IOException {
        Path payload = tmp.resolve("payload-" + System.nanoTime() + ".json");
        Files.writeString(payload, "{\"session_id\":\"s1\",\"cwd\":\"" + project + "\",\"hook_event_name\":\"PreToolUse\","
                + "\"tool_name\":\"Bash\",\"tool_input\":{\"command\":\"" + command + "\"}}");
        return payload;
    }

    private String dispatch(String command) throws Exception {
        return inNamespace(javaCmd(List.of("dispatch", "--host", "claude", "--native-event", "PreToolUse", "--manifest",
                projectManifest().toString(), "--project-dir", project.toString())) + " < '" + payload(command) + "'");
    }

    private String ns(String warden) throws Exception {
        return inNamespace(javaCmd(List.of(warden.split(" "))));
    }

    private static String javaCmd(List<String> args) {
        StringBuilder java = new StringBuilder(ManagedLayerITSupport.javaCommand(args));
        for (String a : args) {
            java.append(" '").append(a).append('\'');
        }
        return java.toString();
    }

    /** {@code script} in a mount namespace whose /etc has this test's agent-warden directory; stdout then stderr. */
    private String inNamespace(String script) throws Exception {
        String full = "mount -t overlay overlay -o lowerdir=/etc,upperdir='" + tmp.resolve("upper") + "',workdir='"
                + tmp.resolve("work") + "' /etc || exit 97; " + script;
        List<String> cmd = new ArrayList<>(ManagedLayerITSupport.unshare());
        cmd.addAll(List.of("bash", "-c", full));
        ProcessBuilder pb = new ProcessBuilder(cmd);
        pb.environment().keySet().removeIf(k -> k.startsWith("WARDEN_") || k.startsWith("CLAUDE"));
        pb.environment().put("HOME", tmp.resolve("home").toString());
        pb.environment().put("WARDEN_CACHE_DIR", tmp.resolve("home/cache").toString());
        pb.environment().put("XDG_STATE_HOME", tmp.resolve("home/state").toString());
        Path out = tmp.resolve("out.txt");
        Path err = tmp.resolve("err.txt");
        pb.redirectOutput(out.toFile()).redirectError(err.toFile());
        Process p = pb.start();
        if (!p.waitFor(WardenProcess.TIMEOUT_SECONDS * 4L, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new AssertionError("timed out: " + script);
        }
        return Files.readString(out, StandardCharsets.UTF_8) + "\n--- stderr\n" + Files.readString(err, StandardCharsets.UTF_8);
    }
}
