package dev.agentwarden.integrity;

import java.nio.charset.StandardCharsets;

/**
 * Generates Squad-coordinator-shaped agent files for fixtures, tests and the demo: frontmatter, the
 * HEAD canary on line 6, the version stamps Squad writes, a per-install team block, version-specific
 * protocol text, filler up to a target size, and the EOF canary as the last line followed by one
 * newline. Output is deterministic for its inputs.
 */
public final class SquadArtifacts {
    /** The team block of a template as released, before init/upgrade fills it in. */
    public static final String TEMPLATE_TEAM = "";
    /** Size of Squad SDK 0.13.1's coordinator template. */
    public static final int SDK_TEMPLATE_BYTES = 82_919;

    private SquadArtifacts() {
    }

    /**
     * A coordinator file.
     *
     * @param version     the stamped version ({@code 0.13.1})
     * @param team        the member lines of the generated team block (per install)
     * @param targetBytes the size of the released template (with {@link #TEMPLATE_TEAM}); an install
     *                    differs from it by its team block only, as real installs do
     */
    public static byte[] coordinator(String version, String team, int targetBytes) {
        String header = header(version, team);
        int bodyBytes = targetBytes - utf8Length(header(version, TEMPLATE_TEAM));
        return (header + body(version, bodyBytes)).getBytes(StandardCharsets.UTF_8);
    }

    private static String header(String version, String team) {
        return "---\n"
                + "name: Squad\n"
                + "description: \"Your AI team. Squad coordinates specialist agents for this repository.\"\n"
                + "tools: [\"*\"]\n"
                + "---\n"
                + BoundaryProfile.SQUAD_HEAD_CANARY + "\n"
                + "<!-- version: " + version + " -->\n"
                + "\n"
                + "# Squad coordinator\n"
                + "\n"
                + "- **Version:** " + version + "\n"
                + "You are `Squad v" + version + "`, the root coordinator of this repository's team.\n"
                + "\n"
                + "## Team\n"
                + "<!-- SQUAD:TEAM-CAPABILITIES:BEGIN -->\n"
                + (team.isEmpty() || team.endsWith("\n") ? team : team + "\n")
                + "<!-- SQUAD:TEAM-CAPABILITIES:END -->\n";
    }

    /** Everything after the team block: protocol rules, filler to {@code bodyBytes}, the EOF canary. */
    private static String body(String version, int bodyBytes) {
        StringBuilder s = new StringBuilder(Math.max(bodyBytes, 0) + 256);
        s.append('\n').append("## Coordination protocol ").append(protocolRevision(version)).append('\n');
        int rule = 1;
        String eofLine = BoundaryProfile.SQUAD_EOF_CANARY + "\n";
        String[] verbs = {"Route", "Confirm", "Record", "Delegate", "Review", "Summarize", "Escalate", "Verify"};
        String[] objects = {"each request to the member whose charter covers it",
                "decisions in .squad/decisions.md before acting on them",
                "hand-offs with the files touched and the tests run",
                "only work that fits a member's declared tools",
                "diffs from other members before they are merged",
                "progress to the user at each milestone",
                "blockers to the user instead of guessing",
                "that the session still carries this coordinator prompt"};
        while (s.length() + 200 + eofLine.length() < bodyBytes) {
            if (rule % 40 == 1) {
                s.append('\n').append("### Part ").append(rule / 40 + 1).append(" (protocol ")
                        .append(protocolRevision(version)).append(")\n\n");
            }
            s.append(rule).append(". ").append(verbs[rule % verbs.length]).append(' ')
                    .append(objects[(rule * 7 + protocolSeed(version)) % objects.length]).append(".\n");
            rule++;
        }
        s.append('\n');
        int missing = bodyBytes - utf8Length(s) - eofLine.length();
        if (missing >= 10) {
            s.append("<!-- ").append("-".repeat(missing - 10)).append(" -->\n");
        }
        while (utf8Length(s) + eofLine.length() < bodyBytes) {
            s.append('\n');
        }
        return s.append(eofLine).toString();
    }

    /** A team block with {@code members} generated members. */
    public static String team(String... members) {
        StringBuilder s = new StringBuilder("| Member | Charter |\n|---|---|\n");
        for (String m : members) {
            s.append("| ").append(m).append(" | ").append(m.toLowerCase(java.util.Locale.ROOT)).append(" work |\n");
        }
        return s.toString();
    }

    private static String protocolRevision(String version) {
        return "r" + version.replaceAll("[^0-9]", "");
    }

    private static int protocolSeed(String version) {
        return Math.floorMod(version.hashCode(), 97);
    }

    private static int utf8Length(CharSequence s) {
        return s.toString().getBytes(StandardCharsets.UTF_8).length;
    }
}
