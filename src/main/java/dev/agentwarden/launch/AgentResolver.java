package dev.agentwarden.launch;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.regex.Pattern;

/**
 * Finds a custom agent's file the way GitHub Copilot CLI does: from the git root, project
 * {@code .github/agents/}, then project {@code .claude/agents/}, then the user's
 * {@code $COPILOT_HOME/agents/} (default {@code ~/.copilot/agents/}). In each directory
 * {@code <id>.agent.md} is tried before {@code <id>.md}. The first existing entry wins; later ones are
 * reported as shadowed. Existence is checked without opening or following anything, so resolution
 * is not an access to the payload.
 */
public final class AgentResolver {
    private static final Pattern AGENT_ID = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._-]{0,127}");
    private static final int MAX_LISTED = 200;

    private AgentResolver() {
    }

    /**
     * One place an agent file may live.
     *
     * @param label   e.g. {@code project .github/agents}
     * @param dir     the directory
     */
    public record Location(String label, Path dir) {
    }

    /**
     * The lookup's result.
     *
     * @param agentId   the id looked up
     * @param root      the git root (or the start directory when there is no repository)
     * @param gitRoot   whether {@code root} is a git root
     * @param chosen    the winning file, or {@code null} when the agent exists nowhere
     * @param location  the winning location, or {@code null}
     * @param shadowed  other existing files for the same id, in lookup order
     * @param searched  every path tried, in lookup order
     * @param available agent ids found in all locations, sorted
     */
    public record Resolution(String agentId, Path root, boolean gitRoot, Path chosen, Location location,
                             List<Path> shadowed, List<Path> searched, List<String> available) {

        /** How the chosen file is named in evidence: project-relative inside the root, else absolute. */
        public String fileLabel() {
            if (chosen == null) {
                return null;
            }
            return chosen.startsWith(root) ? root.relativize(chosen).toString() : chosen.toString();
        }
    }

    /** Whether {@code id} is a plain agent id (no path separators, no leading dot). */
    public static boolean validId(String id) {
        return id != null && AGENT_ID.matcher(id).matches();
    }

    /**
     * Resolves {@code agentId} starting at {@code start}.
     *
     * @param env the environment ({@code COPILOT_HOME}, {@code HOME})
     * @throws IllegalArgumentException for an id that is not a plain file-name stem
     */
    public static Resolution resolve(String agentId, Path start, Map<String, String> env) {
        if (!validId(agentId)) {
            throw new IllegalArgumentException("agent id '" + agentId + "' must match " + AGENT_ID.pattern());
        }
        Path begin = start.toAbsolutePath().normalize();
        Path root = gitRoot(begin);
        boolean isGit = root != null;
        if (root == null) {
            root = begin;
        }
        List<Location> locations = locations(root, env);
        List<Path> searched = new ArrayList<>();
        List<Path> found = new ArrayList<>();
        Location won = null;
        for (Location loc : locations) {
            for (String name : new String[] {agentId + ".agent.md", agentId + ".md"}) {
                Path p = loc.dir().resolve(name);
                searched.add(p);
                if (Files.exists(p, LinkOption.NOFOLLOW_LINKS)) {
                    found.add(p);
                    if (won == null) {
                        won = loc;
                    }
                }
            }
        }
        Path chosen = found.isEmpty() ? null : found.get(0);
        List<Path> shadowed = found.size() > 1 ? List.copyOf(found.subList(1, found.size())) : List.of();
        return new Resolution(agentId, root, isGit, chosen, won, shadowed, searched, available(locations));
    }

    /** The lookup locations in order. */
    static List<Location> locations(Path root, Map<String, String> env) {
        String copilotHome = env.get("COPILOT_HOME");
        Path user;
        if (copilotHome != null && !copilotHome.isEmpty()) {
            user = Path.of(copilotHome);
        } else {
            String home = env.getOrDefault("HOME", System.getProperty("user.home"));
            user = Path.of(home, ".copilot");
        }
        return List.of(
                new Location("project .github/agents", root.resolve(".github").resolve("agents")),
                new Location("project .claude/agents", root.resolve(".claude").resolve("agents")),
                new Location("user " + (copilotHome != null && !copilotHome.isEmpty() ? "$COPILOT_HOME" : "~/.copilot")
                        + "/agents", user.resolve("agents")));
    }

    /** The nearest ancestor of {@code dir} (inclusive) holding {@code .git}, or {@code null}. */
    static Path gitRoot(Path dir) {
        for (Path p = dir; p != null; p = p.getParent()) {
            if (Files.exists(p.resolve(".git"), LinkOption.NOFOLLOW_LINKS)) {
                return p;
            }
        }
        return null;
    }

    private static List<String> available(List<Location> locations) {
        TreeSet<String> ids = new TreeSet<>();
        for (Location loc : locations) {
            if (!Files.isDirectory(loc.dir())) {
                continue;
            }
            try (DirectoryStream<Path> entries = Files.newDirectoryStream(loc.dir())) {
                int seen = 0;
                for (Path p : entries) {
                    if (++seen > MAX_LISTED) {
                        break;
                    }
                    String name = p.getFileName().toString();
                    if (name.endsWith(".agent.md")) {
                        ids.add(name.substring(0, name.length() - ".agent.md".length()));
                    } else if (name.endsWith(".md")) {
                        ids.add(name.substring(0, name.length() - ".md".length()));
                    }
                }
            } catch (IOException e) {
                // an unlistable directory contributes no names
            }
        }
        return List.copyOf(ids);
    }
}
