package dev.agentwarden.e2e;

/**
 * What one non-interactive host session did: its process, and the requests it sent to the
 * scripted model. Each host suite's own record implements it, adding how that host's protocol
 * carries a tool's result.
 */
interface HostRun {
    Command.Result process();

    ScriptedModelServer server();

    /** When the host made its first model call, in ms from the server's start; -1 when it made none. */
    default long firstModelCallMillis() {
        return server().steps().stream().mapToLong(ScriptedModelServer.Exchange::atMillis).findFirst().orElse(-1);
    }

    /** The exit code, the tails of stdout and stderr and the scripted model's problems, for an assertion message. */
    default String describe() {
        return "exit " + process().exitCode() + "; stdout tail: " + tail(process().stdout()) + "; stderr tail: "
                + tail(process().stderr()) + "; model problems: " + server().problems();
    }

    private static String tail(String s) {
        return s.length() <= 3000 ? s : "…" + s.substring(s.length() - 3000);
    }
}
