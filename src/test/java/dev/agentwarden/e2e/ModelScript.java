package dev.agentwarden.e2e;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The turns a scripted model plays in one host session: the main conversation's turns, and inside
 * each {@link Turn.Spawn} the turns of that subagent's conversation.
 *
 * <p>The server is stateless: for every request it finds the conversation by the spawn prompts in
 * the request's user messages ({@link #route}) and the step by the model turns already in it.
 */
final class ModelScript {
    static final String MAIN = "main";

    private final List<Turn> main;
    private final List<Turn.Spawn> spawns;

    private ModelScript(List<Turn> main) {
        this.main = List.copyOf(main);
        this.spawns = new ArrayList<>();
        collectSpawns(this.main, spawns);
    }

    static ModelScript of(Turn... main) {
        return new ModelScript(List.of(main));
    }

    /** A conversation of the script: its name ("main" or the spawn's id) and its turns. */
    record Route(String name, List<Turn> turns) {
        /** The turn at {@code step}, or empty once the script is exhausted. */
        Optional<Turn> at(int step) {
            return step < turns.size() ? Optional.of(turns.get(step)) : Optional.empty();
        }
    }

    /** The conversation a user-message text belongs to: a subagent's when it carries the spawn's prompt. */
    Optional<Route> subagentRoute(String userText) {
        for (Turn.Spawn spawn : spawns) {
            if (userText.contains(spawn.prompt())) {
                return Optional.of(new Route(spawn.id(), spawn.subagent()));
            }
        }
        return Optional.empty();
    }

    Route mainRoute() {
        return new Route(MAIN, main);
    }

    private static void collectSpawns(List<Turn> turns, List<Turn.Spawn> out) {
        for (Turn turn : turns) {
            if (turn instanceof Turn.AfterStart hold) {
                collectSpawns(List.of(hold.turn()), out);
            } else if (turn instanceof Turn.Spawn spawn) {
                out.add(spawn);
                collectSpawns(spawn.subagent(), out);
            }
        }
    }
}
