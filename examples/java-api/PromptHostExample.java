import dev.agentwarden.integrity.AgentSelection;
import dev.agentwarden.integrity.GateSession;
import dev.agentwarden.integrity.GateVerdict;
import dev.agentwarden.integrity.IntegrityGate;
import dev.agentwarden.integrity.agentfile.BoundaryProfile;
import dev.agentwarden.release.ReleaseSource;
import dev.agentwarden.release.ReleaseSources;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;

/**
 * A Java agent host that assembles its own prompt, gated by Warden's integrity API:
 * select → read → attach(the bytes placed in the prompt) → verdict.
 *
 * Run from a Warden checkout (after `mvn -B package`):
 *
 *   java -cp target/warden.jar examples/java-api/PromptHostExample.java AGENT_FILE [RELEASE_MANIFEST]
 *
 * The host keeps at most -Dbudget characters of the agent prompt (default 30000, Copilot's limit
 * for a custom agent), like real hosts do. A coordinator longer than the budget is clipped, the gate
 * sees ATTACHED_PARTIAL and the host refuses to start (exit 3) instead of running on a headless
 * prompt. Evidence goes to ./.warden/state/integrity/evidence.jsonl.
 */
public class PromptHostExample {
    public static void main(String[] args) throws Exception {
        if (args.length < 1) {
            System.err.println("usage: PromptHostExample AGENT_FILE [RELEASE_MANIFEST]");
            System.exit(2);
        }
        Path agentFile = Path.of(args[0]);
        ReleaseSource release = args.length > 1 ? ReleaseSources.unsigned(Path.of(args[1])) : ReleaseSource.NONE;
        IntegrityGate gate = IntegrityGate.builder()
                .profile(BoundaryProfile.squad())
                .release(release)
                .projectEvidenceLog(Path.of(".warden"))
                .sessionPrefix("example")
                .build();

        // 1. Select: recorded before the file is touched.
        GateSession session = gate.select(AgentSelection.of("squad", agentFile)
                .withRole("root-coordinator")
                .withAgentVersion(System.getProperty("agentVersion", "0.13.1"))
                .withClient("example-host", "1.0.0"));

        // 2. Read once; these are the only bytes the host uses.
        byte[] payload = session.read();

        // 3. Assemble the prompt the host's way, then attach exactly what went into it.
        String agentText = new String(payload, StandardCharsets.UTF_8);
        int budget = Integer.getInteger("budget", 30_000);
        String kept = agentText.length() > budget ? agentText.substring(0, budget) : agentText;
        String prompt = "You are running inside example-host.\n\n" + kept;
        session.attach(kept.getBytes(StandardCharsets.UTF_8), "example-host.system-prompt");

        // 4. Verdict, evaluated outside the prompt.
        GateVerdict verdict = session.verdict();
        System.out.println(String.join(" -> ", verdict.steps()));
        System.out.println("outcome: " + verdict.outcome());
        if (verdict.halts()) {
            System.out.println("refusing to start: " + verdict.evaluation().reasons());
            System.exit(3);
        }
        System.out.println("prompt assembled: " + prompt.length() + " characters; starting the model session");
    }
}
