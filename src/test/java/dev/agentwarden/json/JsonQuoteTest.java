package dev.agentwarden.json;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * {@link Json#quote} appends a string with nothing to escape in one go; what it writes is what
 * the character-by-character loop writes, for every character class it treats apart (quote,
 * backslash, controls, U+2028/U+2029, paired and lone surrogates) alone, mixed and at random.
 */
class JsonQuoteTest {

    @Test
    void quote_plainAndEscapedStrings_writeWhatTheCharacterLoopWrites() {
        List<String> strings = new ArrayList<>(List.of("", "plain ascii", "é中文 and ✓", "a\"b", "back\\slash",
                "line\nbreak", "\r\t\b\f", "\u0000\u001f", "\u2028\u2029", "\ud83d\ude00 pair", "lone \ud83d high",
                "lone \ude00 low", "end high \ud83d", "\u007f\u0080\u00ff"));
        Random random = new Random(17);
        char[] alphabet = {'a', 'Z', '0', ' ', '"', '\\', '\n', '\u0001', '\u001f', '\u0020', '\u2028', '\u2029',
            '\ud83d', '\ude00', 'é', '\uffff', '\u007f'};
        for (int i = 0; i < 2000; i++) {
            StringBuilder s = new StringBuilder();
            for (int n = random.nextInt(12); n > 0; n--) {
                s.append(alphabet[random.nextInt(alphabet.length)]);
            }
            strings.add(s.toString());
        }
        for (String s : strings) {
            StringBuilder out = new StringBuilder("prefix:");
            Json.quote(out, s);
            assertThat(out.toString()).as("%s", s.chars().boxed().toList()).isEqualTo("prefix:" + characterLoop(s));
        }
    }

    /** The quoting as it was written before the one-go case: character by character. */
    private static String characterLoop(String s) {
        StringBuilder out = new StringBuilder().append('"');
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '"' -> out.append("\\\"");
                case '\\' -> out.append("\\\\");
                case '\n' -> out.append("\\n");
                case '\r' -> out.append("\\r");
                case '\t' -> out.append("\\t");
                case '\b' -> out.append("\\b");
                case '\f' -> out.append("\\f");
                default -> {
                    if (Character.isHighSurrogate(c) && i + 1 < s.length() && Character.isLowSurrogate(s.charAt(i + 1))) {
                        out.append(c).append(s.charAt(++i));
                    } else if (c < 0x20 || c == 0x2028 || c == 0x2029 || Character.isSurrogate(c)) {
                        out.append(String.format("\\u%04x", (int) c));
                    } else {
                        out.append(c);
                    }
                }
            }
        }
        return out.append('"').toString();
    }
}
