package dev.agentwarden.cli;

import dev.agentwarden.host.Host;
import dev.agentwarden.host.Hosts;
import java.nio.file.Path;
import java.util.List;

/**
 * What {@code warden init} writes into a project: a commented manifest that extends the default,
 * an example process concern it binds, and a {@code .gitignore} that keeps Warden's state out of
 * the repository while the manifest and concerns go in.
 */
final class ProjectSkeleton {
    /** The manifest, relative to the project root. */
    public static final String MANIFEST = ".warden/manifest.yaml";
    /** The example concern, relative to the project root. */
    public static final String CONCERN = ".warden/concerns/no-curl-pipe-sh.sh";
    /** The ignore file, relative to the project root. */
    public static final String GITIGNORE = ".warden/.gitignore";

    private ProjectSkeleton() {
    }

    /**
     * A file to write.
     *
     * @param path       relative to the project root
     * @param executable whether it gets the owner's execute bit
     */
    public record File(String path, String text, boolean executable) {
        public Path under(Path root) {
            return root.resolve(path);
        }
    }

    /** The files, in the order they are written (the manifest last, once what it binds exists). */
    public static List<File> files() {
        return List.of(new File(GITIGNORE, GITIGNORE_TEXT, false), new File(CONCERN, CONCERN_TEXT, true),
                new File(MANIFEST, manifestText(), false));
    }

    private static final String HEADER = """
            # Agent Warden manifest for this project, written by `warden init`. Commit it (and concerns/);
            # .warden/.gitignore keeps Warden's state under .warden/state/ out of the repository.
            #
            # It takes effect only as you trusted it: after you edit it, or a script it runs, run
            # `warden trust` (`warden trust --show` says whether what is here is what you trusted).
            #   warden manifest lint --strict                           check it
            #   warden manifest show --host claude --event PreToolUse   the chain that runs
            #   warden test                                             run the cases in .warden/tests/
            """;

    private static final String EXAMPLE_CONCERN = """
              # An example process concern: a script of yours, given the event on stdin, answering by exit code.
              no-curl-pipe-sh:
                script: .warden/concerns/no-curl-pipe-sh.sh   # relative to the project root
                posture: blocking     # shadow: record only | advisory: at most warn | blocking: may refuse
                fail_closed: false    # when the script fails or times out: allow (false) or refuse (true)
                tools: [Bash]         # only shell tool calls
                timeout_ms: 5000      # killed past this; then fail_closed decides
            """;

    static final String GITIGNORE_TEXT = """
            # Written by `warden init`. Warden's state (ledger, decision log, integrity evidence, markers)
            # is per machine and may hold session details: never commit it. Commit the manifest and concerns/.
            state/
            """;

    static final String CONCERN_TEXT = """
            #!/usr/bin/env bash
            # An example process concern, written by `warden init`: it refuses a shell command that pipes a
            # download straight into a shell (`curl … | sh`). Copy it to write your own; README "Writing a
            # concern" has the whole contract, and `warden test` runs cases against it.
            #
            # Warden runs it with one JSON object on stdin, the envelope:
            #   {"schema_version":1, "platform":"<host id>", "event":"pre_tool_use", "native_event":"PreToolUse",
            #    "session_id":"…", "workspace_root":"/path/to/project", "payload":{…the host's JSON…},
            #    "settings":{…the concern's settings:…}}
            # and reads the answer from the exit code: 0 allow, 1 block, 2 warn; anything else, or running
            # past timeout_ms, counts as a failure (allowed unless the concern is fail_closed).
            # Stdout may be JSON: {"reason": "…"} is shown to the model with a block or a warning.
            set -u
            envelope="$(cat)"
            if printf '%s' "$envelope" | grep -Eq '(curl|wget)[^|]*[|][[:space:]]*(sudo[[:space:]]+)?(ba|z|da)?sh([^a-z]|$)'; then
              echo '{"reason": "piping a download into a shell runs code nobody has read: download it, read it, then run it"}'
              exit 1
            fi
            exit 0
            """;

    /** The manifest: extends the default and binds the example after the default's chain, on every host. */
    static String manifestText() {
        StringBuilder platforms = new StringBuilder();
        for (Host host : Hosts.ALL) {
            platforms.append("  ").append(host.id()).append(host == Hosts.ALL.get(0)
                    ? ": &chains\n    pre_tool_use: [block-no-verify, protect-warden, spawn-guard, no-curl-pipe-sh]\n"
                    : ": *chains\n");
        }
        return MANIFEST_HEAD + platforms;
    }

    private static final String MANIFEST_HEAD = HEADER + """
            schema_version: 1

            # Start from the default manifest shipped with Warden (block-no-verify, protect-warden, the
            # subagent ledger, the spawn guard); the concerns and chains below are merged on top of it,
            # and `warden manifest show` says where each came from.
            extends: default

            concerns:
            """ + EXAMPLE_CONCERN + """

            platforms:
              # A chain given here replaces the default's chain for that host and event, so it names the
              # default's concerns as well; the default's other chains stay.
            """;
}
