package dev.agentwarden.concern;

/**
 * A tool-name glob: {@code *} stands for any run of characters (none included); every other
 * character stands for itself. Hand-written, linear in practice, no regex (dispatch path):
 * {@code mcp__github__*}, {@code mcp__*__delete_*}.
 */
final class ToolGlob {
    private ToolGlob() {
    }

    /** Whether {@code name} matches {@code pattern} as a whole. */
    static boolean matches(String pattern, String name) {
        int p = 0;
        int n = 0;
        int star = -1;
        int resume = 0;
        while (n < name.length()) {
            if (p < pattern.length() && pattern.charAt(p) == '*') {
                star = p++;
                resume = n;
            } else if (p < pattern.length() && pattern.charAt(p) == name.charAt(n)) {
                p++;
                n++;
            } else if (star >= 0) {
                p = star + 1;
                n = ++resume;
            } else {
                return false;
            }
        }
        while (p < pattern.length() && pattern.charAt(p) == '*') {
            p++;
        }
        return p == pattern.length();
    }
}
