package dev.agentwarden.server;

import dev.agentwarden.dispatch.DispatchRequest;
import dev.agentwarden.dispatch.DispatchRuntime;
import dev.agentwarden.server.ForwardRequest.BadForward;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;

/**
 * A forwarded event ({@link ForwardRequest}, {@code POST /forward} from a launcher or the compiled
 * hook) run in the resident as its launcher's own JVM would have run it: the command line becomes
 * the {@link DispatchRequest.Route}, the payload is read under the launcher's environment, the
 * caller is the launcher with its umask, nice value and limits, and the answer is
 * {@link Reply#ofForward}.
 */
final class ResidentForward {
    private ResidentForward() {
    }

    /**
     * The answer to the forwarded event {@code request}, run in {@code runtime}: the one code path of
     * every forwarded event, and of {@link ResidentWarmup}'s. The body is exactly what the one-shot
     * process writes: the host response's stdout, then its stderr and a newline when it has one.
     *
     * @param own the resident's umask, nice value and limits
     */
    static Reply answer(byte[] request, ProcessAttributes own, DispatchRuntime runtime) throws IOException {
        ForwardRequest.Framed framed;
        try {
            framed = ForwardRequest.frame(request);
        } catch (BadForward e) {
            throw new Reply.Refusal(400, "bad_forward", e.getMessage());
        }
        ForwardRequest forward = framed.request();
        InputStream body = new ByteArrayInputStream(request, framed.payloadAt(), request.length - framed.payloadAt());
        return Reply.ofForward(runtime.respond(DispatchRequest.read(
                DispatchRequest.Route.parse(forward.argv().toArray(new String[0])), forward.stdin(body),
                forward.caller(own), DispatchRequest.Transport.RESIDENT)));
    }
}
