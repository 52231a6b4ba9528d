package dev.agentwarden.ledger;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The {@code subagent-ledger} concern's settings, read from its manifest entry:
 *
 * <pre>
 * subagent-ledger:
 *   script: builtin:subagent-ledger
 *   ttl: 24h                         # open records older than this are reaped and excluded
 *   stop_loss_arms: [5m, 15m, 30m, 2h]
 *   duration_budgets:                # per agent type, for the Phase-1 falsifier in `ledger stats`
 *     general-purpose: 15m
 *     "*": 10m                       # any type not listed
 * </pre>
 *
 * Durations follow {@link DurationText}.
 *
 * @param ttlMs           open-record time to live
 * @param stopLossArmsMs  the arms, ascending; a stop records each arm its duration exceeded
 * @param budgetsMs       duration budget per agent type; key {@code *} applies to unlisted types
 */
public record LedgerSettings(long ttlMs, List<Long> stopLossArmsMs, Map<String, Long> budgetsMs) {
    /** Setting keys this concern reads. */
    public static final Set<String> KEYS = Set.of("ttl", "stop_loss_arms", "duration_budgets");
    public static final long DEFAULT_TTL_MS = 24 * 3_600_000L;
    public static final List<Long> DEFAULT_ARMS_MS = List.of(5 * 60_000L, 15 * 60_000L, 30 * 60_000L, 2 * 3_600_000L);
    /** The budget key for agent types not listed. */
    public static final String ANY_TYPE = "*";
    /** Most stop-loss arms. */
    static final int MAX_ARMS = 16;

    public static final LedgerSettings DEFAULTS = new LedgerSettings(DEFAULT_TTL_MS, DEFAULT_ARMS_MS, Map.of());

    /**
     * Reads settings; absent keys take their defaults.
     *
     * @throws IllegalArgumentException naming the key when a value is invalid
     */
    public static LedgerSettings from(Map<String, Object> settings) {
        long ttl = settings.containsKey("ttl") ? DurationText.parse(settings.get("ttl"), "ttl") : DEFAULT_TTL_MS;
        if (ttl <= 0) {
            throw new IllegalArgumentException("ttl: must be longer than 0");
        }
        List<Long> arms = DEFAULT_ARMS_MS;
        if (settings.containsKey("stop_loss_arms")) {
            if (!(settings.get("stop_loss_arms") instanceof List<?> list) || list.isEmpty() || list.size() > MAX_ARMS) {
                throw new IllegalArgumentException("stop_loss_arms: must be a list of 1 to " + MAX_ARMS + " durations");
            }
            arms = new ArrayList<>();
            for (int i = 0; i < list.size(); i++) {
                long arm = DurationText.parse(list.get(i), "stop_loss_arms[" + i + "]");
                if (!arms.isEmpty() && arm <= arms.get(arms.size() - 1)) {
                    throw new IllegalArgumentException("stop_loss_arms[" + i + "]: arms must be strictly ascending");
                }
                arms.add(arm);
            }
            arms = List.copyOf(arms);
        }
        Map<String, Long> budgets = new LinkedHashMap<>();
        if (settings.containsKey("duration_budgets")) {
            if (!(settings.get("duration_budgets") instanceof Map<?, ?> map)) {
                throw new IllegalArgumentException("duration_budgets: must be a mapping of agent type to duration");
            }
            for (Map.Entry<?, ?> e : map.entrySet()) {
                String type = String.valueOf(e.getKey());
                long budget = DurationText.parse(e.getValue(), "duration_budgets." + type);
                if (budget <= 0) {
                    throw new IllegalArgumentException("duration_budgets." + type + ": must be longer than 0");
                }
                budgets.put(type, budget);
            }
        }
        return new LedgerSettings(ttl, arms, Map.copyOf(budgets));
    }

    /** The budget for an agent type (the {@code *} budget when it has none), or {@code null}. */
    public Long budgetFor(String agentType) {
        Long b = agentType == null ? null : budgetsMs.get(agentType);
        return b != null ? b : budgetsMs.get(ANY_TYPE);
    }

    /** Arm labels ({@code 5m}, …) in order. */
    public List<String> armLabels() {
        return stopLossArmsMs.stream().map(DurationText::format).toList();
    }
}
