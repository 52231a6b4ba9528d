package dev.agentwarden.decision;

import dev.agentwarden.io.StateFiles;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code warden log prune --before DATE}: removes whole monthly segments, those whose every day lies
 * before {@code DATE}'s month. A segment is never rewritten, so an append racing the prune is
 * never lost; the month holding {@code DATE} is kept whole.
 */
public final class DecisionPrune {
    private DecisionPrune() {
    }

    /** What a prune did: the months removed and the month kept because it reaches past the date. */
    public record Result(List<String> removed, String keptPartial) {
    }

    /** @param beforeMonth {@code YYYY-MM} of the date: every segment of an earlier month goes */
    public static Result before(String root, String beforeMonth, boolean dayIsFirst) throws IOException {
        List<String> removed = new ArrayList<>();
        String kept = null;
        for (String month : DecisionReader.months(root)) {
            if (month.compareTo(beforeMonth) < 0) {
                if (StateFiles.delete(Path.of(root), DecisionLog.dir(root).resolve(month + ".jsonl"))) {
                    removed.add(month);
                }
            } else if (month.equals(beforeMonth) && !dayIsFirst) {
                kept = month;
            }
        }
        return new Result(removed, kept);
    }
}
