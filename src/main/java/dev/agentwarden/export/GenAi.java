package dev.agentwarden.export;

/**
 * The attribute names and operation names of the OpenTelemetry GenAI semantic conventions this
 * export follows (docs/opentelemetry.md says which version), and Warden's own under {@code warden.*}.
 */
final class GenAi {
    static final String OPERATION = "gen_ai.operation.name";
    static final String INVOKE_AGENT = "invoke_agent";
    static final String EXECUTE_TOOL = "execute_tool";
    static final String APPLY_GUARDRAIL = "apply_guardrail";
    static final String AGENT_NAME = "gen_ai.agent.name";
    static final String AGENT_ID = "gen_ai.agent.id";
    static final String CONVERSATION_ID = "gen_ai.conversation.id";
    static final String TOOL_NAME = "gen_ai.tool.name";
    static final String GUARDRAIL_NAME = "gen_ai.guardrail.name";
    static final String POLICY_ID = "gen_ai.guardrail.policy.id";
    static final String POLICY_VERSION = "gen_ai.guardrail.policy.version";
    static final String RESULT_TYPE = "gen_ai.guardrail.result.type";
    static final String RESULT_VALUE = "gen_ai.guardrail.result.value";
    static final String RESULT_REASON = "gen_ai.guardrail.result.reason";

    private GenAi() {
    }
}
