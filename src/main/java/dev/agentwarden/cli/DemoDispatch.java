package dev.agentwarden.cli;

import dev.agentwarden.dispatch.Caller;
import dev.agentwarden.dispatch.DispatchRequest;
import dev.agentwarden.dispatch.DispatchRuntime;
import dev.agentwarden.host.Hosts;
import dev.agentwarden.manifest.ManifestException;
import dev.agentwarden.trust.TrustException;
import dev.agentwarden.trust.TrustStore;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Clock;
import java.util.Map;

/**
 * How demo sections hand one Claude Code event to Warden: as Claude does, a {@code bin/warden
 * dispatch} process per event when the launcher is known, else in-process through the same entry
 * point. Returns what the host would read on stdout.
 */
final class DemoDispatch {
    private DemoDispatch() {
    }

    static String claude(Path launcher, Path project, Map<String, String> env, String nativeEvent, String payload)
            throws IOException, InterruptedException {
        return launcher != null ? viaLauncher(launcher, project, env, nativeEvent, payload)
                : inProcess(env, nativeEvent, payload);
    }

    /**
     * Trusts the demo project's {@code .warden/manifest.yaml} in the demo's own trust store, as the
     * user would with {@code warden trust}: the demo wrote it from Warden's examples.
     */
    static void trust(Map<String, String> env, Path project) throws IOException {
        try {
            TrustStore.forEnv(env).trust(project, Clock.systemUTC());
        } catch (TrustException | ManifestException e) {
            throw new IOException("cannot trust the demo project: " + e.getMessage(), e);
        }
    }

    private static String viaLauncher(Path launcher, Path project, Map<String, String> env, String nativeEvent,
                                      String payload) throws IOException, InterruptedException {
        ProcessBuilder pb = new ProcessBuilder(launcher.toString(), "dispatch", "--host", Hosts.demo().id(),
                "--native-event", nativeEvent).directory(project.toFile()).redirectError(ProcessBuilder.Redirect.DISCARD);
        pb.environment().putAll(env);
        Process p = pb.start();
        try (var in = p.getOutputStream()) {
            in.write(payload.getBytes(StandardCharsets.UTF_8));
        }
        byte[] stdout = p.getInputStream().readAllBytes();
        p.waitFor();
        return new String(stdout, StandardCharsets.UTF_8);
    }

    private static String inProcess(Map<String, String> env, String nativeEvent, String payload) {
        DispatchRequest request = DispatchRequest.of(
                new DispatchRequest.Route(Hosts.demo().id(), null, nativeEvent, null, null),
                payload.getBytes(StandardCharsets.UTF_8), Caller.thisProcess(env), DispatchRequest.Transport.OWN_JVM);
        return DispatchRuntime.oneShot(Clock.systemUTC()).respond(request).stdout();
    }
}
