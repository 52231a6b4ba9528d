package dev.agentwarden.testing;

import dev.agentwarden.dispatch.Caller;
import dev.agentwarden.dispatch.DispatchRequest;
import dev.agentwarden.dispatch.DispatchRuntime;
import dev.agentwarden.host.HostResponse;
import java.io.InputStream;
import java.io.PrintStream;
import java.time.Clock;
import java.util.Map;

/**
 * A dispatch of a command line in this JVM through the one entry ({@link DispatchRuntime#respond}),
 * as {@code warden dispatch} runs it: the route parsed from {@code argv}, the payload read from
 * {@code stdin}, nothing kept between events.
 */
public final class DispatchCall {
    private DispatchCall() {
    }

    /** The host response to {@code argv} and {@code stdin} from {@code caller}, over {@code transport}. */
    public static HostResponse respond(String[] argv, InputStream stdin, Caller caller, Clock clock,
                                       DispatchRequest.Transport transport) {
        return DispatchRuntime.oneShot(clock).respond(DispatchRequest.read(DispatchRequest.Route.parse(argv), stdin,
                caller, transport));
    }

    /** {@link #respond} in its own JVM's environment {@code env}, written to {@code out} and {@code err} as the process writes it; returns the exit code. */
    public static int run(String[] argv, InputStream stdin, PrintStream out, PrintStream err, Map<String, String> env,
                          Clock clock) {
        return run(argv, stdin, out, err, Caller.thisProcess(env), clock);
    }

    /** {@link #run(String[], InputStream, PrintStream, PrintStream, Map, Clock)} for {@code caller}. */
    public static int run(String[] argv, InputStream stdin, PrintStream out, PrintStream err, Caller caller,
                          Clock clock) {
        HostResponse response = respond(argv, stdin, caller, clock, DispatchRequest.Transport.OWN_JVM);
        if (!response.stdout().isEmpty()) {
            out.print(response.stdout());
            out.flush();
        }
        if (!response.stderr().isEmpty()) {
            err.println(response.stderr());
            err.flush();
        }
        return response.exitCode();
    }
}
