package dev.agentwarden.redact;

/**
 * Replaces what looks like a secret in a short text (a shell command, a file path, a prompt's first
 * line) with {@code [REDACTED:<kind>]} before the text is written anywhere. One left-to-right pass,
 * no {@code java.util.regex} and no lambdas: it runs on the dispatch path.
 *
 * <p>Kinds, in the order they are tried at a position:
 * <ul>
 *   <li>{@code private_key}: a PEM block from {@code -----BEGIN … PRIVATE KEY-----} through its
 *       {@code -----END …-----} line (or to the end of the text);</li>
 *   <li>{@code url_password}: the password of {@code scheme://user:password@host};</li>
 *   <li>{@code aws_key} ({@code AKIA}/{@code ASIA} + 16), {@code github_token} ({@code ghp_ gho_ ghu_ ghs_ ghr_},
 *       {@code github_pat_}), {@code anthropic_key} ({@code sk-ant-}), {@code openai_key} ({@code sk-}),
 *       {@code slack_token} ({@code xoxa- xoxb- xoxp- xoxr- xoxs-}), {@code google_key} ({@code AIza}),
 *       {@code jwt} (three base64url parts, the first {@code eyJ}), each at the start of a word;</li>
 *   <li>{@code secret}: the value of {@code NAME=value}, {@code "NAME": "value"}, {@code --NAME value}
 *       or {@code Bearer value} when NAME looks secret ({@link #secretName});</li>
 *   <li>{@code high_entropy}: a run of base64 characters of at least {@link #ENTROPY_MIN_LENGTH} that
 *       has a letter and a digit, is not hexadecimal alone (git object names, digests and UUIDs
 *       survive), and whose Shannon entropy per character reaches {@link #entropyThreshold}.</li>
 * </ul>
 */
public final class Redactor {
    /** Shortest run the entropy rule considers. */
    static final int ENTROPY_MIN_LENGTH = 20;
    /** Longest text redacted; a longer one is cut first, at a word boundary ({@link #redactPrefix}). */
    static final int MAX_INPUT_CHARS = 4096;

    private static final String[] SECRET_WORDS = {"token", "secret", "password", "passwd", "pwd", "api_key", "apikey",
        "api-key", "access_key", "accesskey", "private_key", "privatekey", "private-key", "credential", "auth",
        "client_key", "session_key", "signing_key", "encryption_key", "passphrase"};
    /** Name endings that say the value is where a secret is kept, not the secret. */
    private static final String[] NOT_SECRET_ENDINGS = {"file", "path", "dir", "_url", "env", "length", "len",
        "count", "type", "name", "id"};

    private Redactor() {
    }

    /** {@code text} with its secrets replaced; {@code null} for {@code null}. */
    public static String redact(String text) {
        if (text == null) {
            return null;
        }
        return redactPrefix(text, MAX_INPUT_CHARS);
    }

    /**
     * The first {@code maxChars} of {@code text}, cut before a word that would straddle the limit (the
     * cut word is dropped whole and {@code " […]"} marks the cut), then redacted.
     */
    public static String redactPrefix(String text, int maxChars) {
        String s = text;
        boolean cut = false;
        if (s.length() > maxChars) {
            int end = maxChars;
            while (end > 0 && !isSpace(s.charAt(end))) {
                end--;
            }
            s = s.substring(0, end);
            cut = true;
        }
        StringBuilder out = new StringBuilder(s.length() + 16);
        int i = 0;
        int n = s.length();
        while (i < n) {
            int next = rule(s, i, out);
            if (next > i) {
                i = next;
            } else {
                out.append(s.charAt(i));
                i++;
            }
        }
        if (cut) {
            out.append(" […]");
        }
        return out.toString();
    }

    /**
     * Applies the first rule that matches at {@code i}, appending what stands for the matched text;
     * returns the index after it, or {@code i} when none matched.
     */
    private static int rule(String s, int i, StringBuilder out) {
        char c = s.charAt(i);
        if (c == '-' && s.startsWith("-----BEGIN", i)) {
            int end = pemEnd(s, i);
            if (end > i) {
                out.append("[REDACTED:private_key]");
                return end;
            }
        }
        if (c == ':' && s.startsWith("://", i)) {
            int end = urlPassword(s, i, out);
            if (end > i) {
                return end;
            }
        }
        boolean wordStart = i == 0 || !isWordChar(s.charAt(i - 1));
        if (!wordStart) {
            return i;
        }
        int end = knownToken(s, i, out);
        if (end > i) {
            return end;
        }
        end = namedSecret(s, i, out);
        if (end > i) {
            return end;
        }
        if (i == 0 || !isBase64Char(s.charAt(i - 1))) {
            end = highEntropy(s, i, out);
            if (end > i) {
                return end;
            }
        }
        return i;
    }

    /** The end of a PEM private-key block starting at {@code i}, or {@code i} when it is not one. */
    private static int pemEnd(String s, int i) {
        int headerEnd = s.indexOf("-----", i + 10);
        if (headerEnd < 0) {
            return i;
        }
        String label = s.substring(i + 10, headerEnd);
        if (!label.endsWith("PRIVATE KEY") || label.indexOf('\n') >= 0) {
            return i;
        }
        int endMarker = s.indexOf("-----END", headerEnd + 5);
        if (endMarker < 0) {
            return s.length();
        }
        int close = s.indexOf("-----", endMarker + 8);
        return close < 0 ? s.length() : close + 5;
    }

    /** At {@code "://"}: {@code ://user:[REDACTED:url_password]@} when the authority carries a password. */
    private static int urlPassword(String s, int i, StringBuilder out) {
        int from = i + 3;
        int colon = -1;
        int at = -1;
        for (int j = from; j < s.length(); j++) {
            char c = s.charAt(j);
            if (c == '@') {
                at = j;
            } else if (c == '/' || c == '?' || c == '#' || isSpace(c) || c == '"' || c == '\'') {
                break;
            } else if (c == ':' && colon < 0 && at < 0) {
                colon = j;
            }
        }
        if (colon < 0 || at < colon + 1) {
            return i;
        }
        out.append(s, i, colon + 1).append("[REDACTED:url_password]");
        return at;
    }

    /** A token of a known issuer's shape at {@code i}. */
    private static int knownToken(String s, int i, StringBuilder out) {
        char c = s.charAt(i);
        int end;
        switch (c) {
            case 'A':
                if ((s.startsWith("AKIA", i) || s.startsWith("ASIA", i)) && (end = run(s, i + 4, UPPER_DIGIT)) - i - 4 >= 16
                        && endsWord(s, end)) {
                    return replace(out, "aws_key", end);
                }
                if (s.startsWith("AIza", i) && (end = run(s, i + 4, URL_SAFE)) - i - 4 >= 30) {
                    return replace(out, "google_key", end);
                }
                return i;
            case 'g':
                if (s.startsWith("github_pat_", i) && (end = run(s, i + 11, URL_SAFE)) - i - 11 >= 20) {
                    return replace(out, "github_token", end);
                }
                if (s.length() > i + 4 && s.charAt(i + 1) == 'h' && "pousr".indexOf(s.charAt(i + 2)) >= 0
                        && s.charAt(i + 3) == '_' && (end = run(s, i + 4, ALNUM)) - i - 4 >= 20) {
                    return replace(out, "github_token", end);
                }
                return i;
            case 's':
                if (s.startsWith("sk-ant-", i) && (end = run(s, i + 7, URL_SAFE)) - i - 7 >= 20) {
                    return replace(out, "anthropic_key", end);
                }
                if (s.startsWith("sk-", i) && (end = run(s, i + 3, URL_SAFE)) - i - 3 >= 20 && hasDigit(s, i + 3, end)) {
                    return replace(out, "openai_key", end);
                }
                return i;
            case 'x':
                if (s.startsWith("xox", i) && s.length() > i + 4 && "abprs".indexOf(s.charAt(i + 3)) >= 0
                        && s.charAt(i + 4) == '-' && (end = run(s, i + 5, URL_SAFE)) - i - 5 >= 10) {
                    return replace(out, "slack_token", end);
                }
                return i;
            case 'e':
                if (s.startsWith("eyJ", i)) {
                    end = jwtEnd(s, i);
                    if (end > i) {
                        return replace(out, "jwt", end);
                    }
                }
                return i;
            default:
                return i;
        }
    }

    /** The end of {@code header.payload.signature} (base64url parts, the first two at least 8 long), or {@code i}. */
    private static int jwtEnd(String s, int i) {
        int a = run(s, i, B64URL);
        if (a - i < 8 || a >= s.length() || s.charAt(a) != '.') {
            return i;
        }
        int b = run(s, a + 1, B64URL);
        if (b - a - 1 < 8 || b >= s.length() || s.charAt(b) != '.') {
            return i;
        }
        return run(s, b + 1, B64URL);
    }

    /**
     * {@code NAME=value}, {@code "NAME": "value"}, {@code --NAME value} or {@code Bearer value} at
     * {@code i}: the name kept, the value replaced.
     */
    private static int namedSecret(String s, int i, StringBuilder out) {
        int nameEnd = run(s, i, NAME);
        if (nameEnd == i) {
            return i;
        }
        boolean quoted = i > 0 && (s.charAt(i - 1) == '"' || s.charAt(i - 1) == '\'');
        int p = nameEnd;
        if (quoted && p < s.length() && s.charAt(p) == s.charAt(i - 1)) {
            p++;
        }
        boolean bearer = nameEnd - i == 6 && s.regionMatches(true, i, "bearer", 0, 6);
        boolean flag = s.charAt(i) == '-';
        int valueFrom;
        if (p < s.length() && (s.charAt(p) == '=' || quoted && s.charAt(p) == ':')) {
            valueFrom = p + 1;
            while (valueFrom < s.length() && s.charAt(valueFrom) == ' ' && s.charAt(p) == ':') {
                valueFrom++;
            }
        } else if ((flag || bearer) && p < s.length() && s.charAt(p) == ' ') {
            valueFrom = p + 1;
            if (valueFrom < s.length() && s.charAt(valueFrom) == '-') {
                return i;
            }
        } else {
            return i;
        }
        if (!bearer && !secretName(s, i, nameEnd)) {
            return i;
        }
        int valueEnd = valueEnd(s, valueFrom);
        if (valueEnd <= valueFrom || valueEnd == valueFrom + 2 && s.charAt(valueFrom) == s.charAt(valueFrom + 1)
                && (s.charAt(valueFrom) == '"' || s.charAt(valueFrom) == '\'')) {
            return i;
        }
        out.append(s, i, valueFrom);
        char q = s.charAt(valueFrom);
        boolean quotedValue = q == '"' || q == '\'';
        if (quotedValue) {
            out.append(q);
        }
        out.append("[REDACTED:secret]");
        if (quotedValue && valueEnd - 1 > valueFrom && s.charAt(valueEnd - 1) == q) {
            out.append(q);
        }
        return valueEnd;
    }

    /** Whether the name in {@code s[from, to)} (leading dashes aside) names a secret, case aside. */
    static boolean secretName(String s, int from, int to) {
        while (from < to && s.charAt(from) == '-') {
            from++;
        }
        if (to - from < 3) {
            return false;
        }
        String name = s.substring(from, to).toLowerCase(java.util.Locale.ROOT);
        for (String ending : NOT_SECRET_ENDINGS) {
            if (name.endsWith(ending) && !name.equals(ending)) {
                return false;
            }
        }
        for (String w : SECRET_WORDS) {
            int at = name.indexOf(w);
            if (at < 0) {
                continue;
            }
            if (w.equals("auth") && name.startsWith("author", at) && !name.startsWith("authoriz", at)) {
                continue;
            }
            if (w.equals("pwd") && name.equals("pwd")) {
                continue; // the shell's working directory
            }
            return true;
        }
        return false;
    }

    /** The end of a value at {@code from}: a quoted string through its closing quote, else up to a separator. */
    private static int valueEnd(String s, int from) {
        if (from >= s.length()) {
            return from;
        }
        char q = s.charAt(from);
        if (q == '"' || q == '\'') {
            int close = s.indexOf(q, from + 1);
            return close < 0 ? s.length() : close + 1;
        }
        int j = from;
        while (j < s.length()) {
            char c = s.charAt(j);
            if (isSpace(c) || c == ';' || c == '&' || c == '|' || c == ',' || c == '"' || c == '\'' || c == ')'
                    || c == '}') {
                break;
            }
            j++;
        }
        return j;
    }

    /** A high-entropy run of base64 characters at {@code i}. */
    private static int highEntropy(String s, int i, StringBuilder out) {
        int end = run(s, i, BASE64);
        while (end < s.length() && s.charAt(end) == '=') {
            end++;
        }
        int len = end - i;
        if (len < ENTROPY_MIN_LENGTH || !endsWord(s, end)) {
            return i;
        }
        boolean digit = false;
        boolean letter = false;
        boolean upper = false;
        boolean lower = false;
        boolean hexOnly = true;
        int slashes = 0;
        for (int j = i; j < end; j++) {
            char c = s.charAt(j);
            if (c >= '0' && c <= '9') {
                digit = true;
            } else if (c >= 'a' && c <= 'z') {
                letter = true;
                lower = true;
                hexOnly &= c <= 'f';
            } else if (c >= 'A' && c <= 'Z') {
                letter = true;
                upper = true;
                hexOnly &= c <= 'F';
            } else if (c == '/') {
                slashes++;
                hexOnly = false;
            } else if (c != '-') {
                hexOnly = false;
            }
        }
        if (!digit || !letter || hexOnly) {
            return i;
        }
        if (slashes > 0 && (!upper || !lower || slashes * 12 > len || s.charAt(i) == '/')) {
            return i; // a path: segments between slashes, mostly one case
        }
        if (entropy(s, i, end) < entropyThreshold(len)) {
            return i;
        }
        return replace(out, "high_entropy", end);
    }

    /**
     * The entropy per character a run of {@code len} must reach: 85% of the most a text of that
     * length can have ({@code log2 len}), at most 4.5 bits.
     */
    static double entropyThreshold(int len) {
        return Math.min(4.5, 0.85 * Math.log(len) / Math.log(2));
    }

    /** Shannon entropy per character of {@code s[from, to)}, in bits. */
    static double entropy(String s, int from, int to) {
        int[] counts = new int[128];
        for (int j = from; j < to; j++) {
            counts[s.charAt(j) & 127]++;
        }
        double n = to - from;
        double h = 0;
        for (int k : counts) {
            if (k > 0) {
                double p = k / n;
                h -= p * Math.log(p);
            }
        }
        return h / Math.log(2);
    }

    private static int replace(StringBuilder out, String kind, int end) {
        out.append("[REDACTED:").append(kind).append(']');
        return end;
    }

    private static final int UPPER_DIGIT = 1;
    private static final int ALNUM = 2;
    private static final int URL_SAFE = 3;
    private static final int B64URL = 4;
    private static final int BASE64 = 5;
    private static final int NAME = 6;

    /** The end of the run of {@code cls} characters from {@code from}. */
    private static int run(String s, int from, int cls) {
        int j = from;
        while (j < s.length() && in(s.charAt(j), cls)) {
            j++;
        }
        return j;
    }

    private static boolean in(char c, int cls) {
        boolean digit = c >= '0' && c <= '9';
        boolean upper = c >= 'A' && c <= 'Z';
        boolean alnum = digit || upper || c >= 'a' && c <= 'z';
        switch (cls) {
            case UPPER_DIGIT:
                return digit || upper;
            case ALNUM:
                return alnum;
            case URL_SAFE:
            case B64URL:
                return alnum || c == '_' || c == '-';
            case BASE64:
                return alnum || c == '_' || c == '-' || c == '+' || c == '/';
            default:
                return alnum || c == '_' || c == '-' || c == '.';
        }
    }

    private static boolean hasDigit(String s, int from, int to) {
        for (int j = from; j < to; j++) {
            if (s.charAt(j) >= '0' && s.charAt(j) <= '9') {
                return true;
            }
        }
        return false;
    }

    /** Whether no word character follows {@code end}: a token is redacted whole or not at all. */
    private static boolean endsWord(String s, int end) {
        return end >= s.length() || !isWordChar(s.charAt(end));
    }

    private static boolean isWordChar(char c) {
        return c >= '0' && c <= '9' || c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || c == '_';
    }

    private static boolean isBase64Char(char c) {
        return in(c, BASE64);
    }

    private static boolean isSpace(char c) {
        return c == ' ' || c == '\t' || c == '\n' || c == '\r';
    }
}
