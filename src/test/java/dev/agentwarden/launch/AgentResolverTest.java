package dev.agentwarden.launch;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Copilot CLI's lookup order: project .github/agents, project .claude/agents, user agents. */
class AgentResolverTest {
    @TempDir
    Path tmp;

    Path repo;
    Path home;
    Map<String, String> env;

    @BeforeEach
    void layout() throws IOException {
        repo = Files.createDirectories(tmp.resolve("repo"));
        Files.createDirectories(repo.resolve(".git"));
        Files.createDirectories(repo.resolve("src/deep"));
        home = Files.createDirectories(tmp.resolve("home"));
        env = Map.of("HOME", home.toString());
    }

    private Path put(Path dir, String name) throws IOException {
        Files.createDirectories(dir);
        return Files.writeString(dir.resolve(name), "x");
    }

    @Test
    void resolve_projectGithubWinsFromTheGitRootAndReportsShadowed() throws IOException {
        Path github = put(repo.resolve(".github/agents"), "squad.agent.md");
        Path claude = put(repo.resolve(".claude/agents"), "squad.md");
        Path user = put(home.resolve(".copilot/agents"), "squad.agent.md");
        AgentResolver.Resolution r = AgentResolver.resolve("squad", repo.resolve("src/deep"), env);
        assertThat(r.gitRoot()).isTrue();
        assertThat(r.root()).isEqualTo(repo);
        assertThat(r.chosen()).isEqualTo(github);
        assertThat(r.location().label()).isEqualTo("project .github/agents");
        assertThat(r.fileLabel()).isEqualTo(".github/agents/squad.agent.md");
        assertThat(r.shadowed()).containsExactly(claude, user);
    }

    @Test
    void resolve_claudeAgentsBeforeUserAgents() throws IOException {
        Path claude = put(repo.resolve(".claude/agents"), "squad.md");
        put(home.resolve(".copilot/agents"), "squad.agent.md");
        AgentResolver.Resolution r = AgentResolver.resolve("squad", repo, env);
        assertThat(r.chosen()).isEqualTo(claude);
        assertThat(r.location().label()).isEqualTo("project .claude/agents");
    }

    @Test
    void resolve_userAgentsHonourCopilotHome() throws IOException {
        Path copilotHome = tmp.resolve("copilot-home");
        Path user = put(copilotHome.resolve("agents"), "squad.agent.md");
        put(home.resolve(".copilot/agents"), "squad.agent.md");
        AgentResolver.Resolution r = AgentResolver.resolve("squad", repo,
                Map.of("HOME", home.toString(), "COPILOT_HOME", copilotHome.toString()));
        assertThat(r.chosen()).isEqualTo(user);
        assertThat(r.location().label()).isEqualTo("user $COPILOT_HOME/agents");
        assertThat(r.fileLabel()).isEqualTo(user.toString());
    }

    @Test
    void resolve_agentMdBeforeMdInOneDirectory() throws IOException {
        put(repo.resolve(".github/agents"), "squad.md");
        Path preferred = put(repo.resolve(".github/agents"), "squad.agent.md");
        assertThat(AgentResolver.resolve("squad", repo, env).chosen()).isEqualTo(preferred);
    }

    @Test
    void resolve_unknownAgent_listsWhatIsAvailable() throws IOException {
        put(repo.resolve(".github/agents"), "reviewer.agent.md");
        put(home.resolve(".copilot/agents"), "planner.md");
        AgentResolver.Resolution r = AgentResolver.resolve("squad", repo, env);
        assertThat(r.chosen()).isNull();
        assertThat(r.available()).containsExactly("planner", "reviewer");
        assertThat(r.searched()).hasSize(6);
    }

    @Test
    void resolve_danglingSymlinkStillWinsSoTheReadReportsIt() throws IOException {
        Path dir = Files.createDirectories(repo.resolve(".github/agents"));
        Path link = Files.createSymbolicLink(dir.resolve("squad.agent.md"), tmp.resolve("gone"));
        assertThat(AgentResolver.resolve("squad", repo, env).chosen()).isEqualTo(link);
    }

    @Test
    void resolve_withoutGitRepository_searchesFromTheStart() {
        Path plain = tmp.resolve("plain");
        AgentResolver.Resolution r = AgentResolver.resolve("squad", plain, env);
        assertThat(r.gitRoot()).isFalse();
        assertThat(r.root()).isEqualTo(plain);
    }

    @Test
    void resolve_idWithPathParts_isRefused() {
        for (String bad : new String[] {"../squad", "a/b", ".hidden", "", "sq uad"}) {
            assertThatThrownBy(() -> AgentResolver.resolve(bad, repo, env)).isInstanceOf(IllegalArgumentException.class);
        }
    }
}
