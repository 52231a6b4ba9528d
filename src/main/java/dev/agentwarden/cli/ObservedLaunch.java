package dev.agentwarden.cli;

import dev.agentwarden.host.ModelEndpoints;
import dev.agentwarden.integrity.AgentSelection;
import dev.agentwarden.integrity.GateSession;
import dev.agentwarden.integrity.GateVerdict;
import dev.agentwarden.integrity.IntegrityGate;
import dev.agentwarden.integrity.agentfile.AttachForm;
import dev.agentwarden.integrity.agentfile.BoundaryProfile;
import dev.agentwarden.launch.ModelProxy;
import dev.agentwarden.launch.PromptGate;
import java.io.IOException;
import java.io.PrintWriter;
import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * {@code warden launch --observe-prompt}: the host runs against a loopback {@link ModelProxy}
 * instead of its provider, and every model request is gated on the agent payload it carries.
 * The host is pointed at the proxy by an environment variable ({@link #baseUrlEnv}) and by the
 * {@value #PROXY_PLACEHOLDER} placeholder in its command.
 */
final class ObservedLaunch {
    static final String PROXY_PLACEHOLDER = "{proxy_url}";

    private ObservedLaunch() {
    }

    /** The variable that points a host at its model endpoint, by client id; {@code null} when there is none. */
    static String baseUrlEnv(String clientId) {
        return ModelEndpoints.baseUrlVariable(clientId);
    }

    /**
     * How a host places a custom agent in its requests, by client id: Copilot as
     * {@link AttachForm#AGENT_BODY_LF}, every other host as {@link AttachForm#AGENT_BODY}.
     */
    static AttachForm attachForm(String clientId) {
        return ModelEndpoints.agentBodyInLf(clientId) ? AttachForm.AGENT_BODY_LF : AttachForm.AGENT_BODY;
    }

    /**
     * Starts the proxy, runs the host against it, and returns launch's exit status: the host's, or
     * {@link ExitCode#HALT} when the gate refused a model request or the host made none.
     */
    static int run(PrintWriter err, IntegrityGate gate, AgentSelection selection, BoundaryProfile profile,
                   AttachForm form, GateSession session, URI upstream, String envName, ModelProxy.Limits limits, List<String> command,
                   Map<String, String> hostEnv) throws InterruptedException {
        PromptGate promptGate = new PromptGate(gate, selection, profile, form, session);
        ModelProxy proxy;
        try {
            proxy = ModelProxy.start(upstream, promptGate, limits, err);
        } catch (IllegalArgumentException e) {
            err.println("warden launch: " + e.getMessage());
            return ExitCode.UNREADABLE.code();
        } catch (IOException e) {
            err.println("warden launch: cannot open the loopback model proxy: " + e.getMessage());
            return ExitCode.UNREADABLE.code();
        }
        try {
            List<String> argv = new ArrayList<>(command.size());
            for (String arg : command) {
                argv.add(arg.replace(PROXY_PLACEHOLDER, proxy.baseUrl()));
            }
            err.println("observing the prompt: model proxy on 127.0.0.1:" + proxy.port() + " (secret path) in front of "
                    + upstream.getScheme() + "://" + upstream.getHost() + (envName == null ? "" : "; $" + envName + " set"));
            if (envName == null && !String.join(" ", command).contains(PROXY_PLACEHOLDER)) {
                err.println("note: no base-URL variable for client '" + selection.clientId() + "' and no "
                        + PROXY_PLACEHOLDER + " in the host command; give --base-url-env, or the host bypasses the gate");
            }
            err.flush();
            ProcessBuilder pb = new ProcessBuilder(argv).inheritIO();
            pb.environment().clear();
            pb.environment().putAll(hostEnv);
            if (envName != null) {
                pb.environment().put(envName, proxy.baseUrl());
            }
            pb.environment().put("WARDEN_PROXY_URL", proxy.baseUrl());
            pb.environment().put("WARDEN_AGENT_ID", selection.name());
            pb.environment().put("WARDEN_INTEGRITY_SESSION", session.id());
            int status = runHost(err, pb, argv.get(0));
            GateVerdict unused = promptGate.finishUnused();
            if (unused != null) {
                err.println("warden launch: the host made no model request through the proxy; session " + unused.session()
                        + " is " + unused.outcome() + " (nothing shows what it sent, or where)");
                return ExitCode.HALT.code();
            }
            err.println("model requests: " + promptGate.requests() + " gated, " + proxy.forwarded() + " forwarded, "
                    + proxy.refused() + " refused");
            GateVerdict halted = promptGate.halted();
            if (halted != null) {
                err.println("warden launch: HALT " + halted.outcome() + " in session " + halted.session()
                        + "; the model was never sent the request");
                IntegrityReport.printEvents(err, halted.eventLines(), "  ");
                IntegrityReport.printOutcome(err, halted.evaluation(), "  ");
                return ExitCode.HALT.code();
            }
            return status;
        } finally {
            proxy.close();
        }
    }

    private static int runHost(PrintWriter err, ProcessBuilder pb, String name) throws InterruptedException {
        Process host;
        try {
            host = pb.start();
        } catch (IOException e) {
            err.println("warden launch: cannot start host command '" + name + "': " + e.getMessage());
            return ExitCode.UNREADABLE.code();
        }
        Thread stop = new Thread(host::destroy);
        Runtime.getRuntime().addShutdownHook(stop);
        try {
            return host.waitFor();
        } finally {
            try {
                Runtime.getRuntime().removeShutdownHook(stop);
            } catch (IllegalStateException ignored) {
                // already shutting down
            }
        }
    }
}
