package dev.agentwarden.integrity;

import java.nio.file.Path;

/**
 * What a host selected, as it knows it before touching the agent file. Build it with
 * {@link #of(String, Path)} and the {@code with…} methods.
 *
 * @param name          agent id ({@code custom_agent.name})
 * @param file          the agent file to read
 * @param fileLabel     how the file is named in evidence ({@code custom_agent.file}), e.g. project-relative
 * @param role          {@code custom_agent.role}, or {@code null}
 * @param agentVersion  the agent/template version the host expects, or {@code null}
 * @param clientId      host client identifier, or {@code null}
 * @param clientVersion host client version, or {@code null}
 * @param hostSessionId the host's own session id, or {@code null}
 * @param resolution    which lookup location won, or {@code null}
 */
public record AgentSelection(String name, Path file, String fileLabel, String role, String agentVersion,
                             String clientId, String clientVersion, String hostSessionId, String resolution) {

    public static AgentSelection of(String name, Path file) {
        return new AgentSelection(name, file, file == null ? null : file.toString(), null, null, null, null, null, null);
    }

    public AgentSelection withFileLabel(String label) {
        return new AgentSelection(name, file, label, role, agentVersion, clientId, clientVersion, hostSessionId, resolution);
    }

    public AgentSelection withRole(String r) {
        return new AgentSelection(name, file, fileLabel, r, agentVersion, clientId, clientVersion, hostSessionId, resolution);
    }

    public AgentSelection withAgentVersion(String v) {
        return new AgentSelection(name, file, fileLabel, role, v, clientId, clientVersion, hostSessionId, resolution);
    }

    public AgentSelection withClient(String id, String version) {
        return new AgentSelection(name, file, fileLabel, role, agentVersion, id, version, hostSessionId, resolution);
    }

    public AgentSelection withHostSessionId(String id) {
        return new AgentSelection(name, file, fileLabel, role, agentVersion, clientId, clientVersion, id, resolution);
    }

    public AgentSelection withResolution(String r) {
        return new AgentSelection(name, file, fileLabel, role, agentVersion, clientId, clientVersion, hostSessionId, r);
    }
}
