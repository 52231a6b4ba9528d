package dev.agentwarden.shell;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * How {@link ShellScript} splits command lines. Each command renders as its words separated by
 * {@code |}, assignments first and marked {@code =}, with {@code ~} after a dynamic word,
 * {@code *} after a pattern word, {@code <pipe} when fed by a pipeline and {@code <<text} for its
 * standard input; commands are separated by {@code " ; "}.
 */
class ShellScriptTest {

    static Stream<Arguments> scripts() {
        return Stream.of(
                a("plainWords", "git commit -m x", "git|commit|-m|x"),
                a("operators", "a; b && c || d | e & f\ng", "a ; b ; c ; d ; e <pipe ; f ; g"),
                a("pipeStderr", "a |& b", "a ; b <pipe"),
                a("singleQuotes", "echo 'a b' 'c\"d'", "echo|a b|c\"d"),
                a("doubleQuotesKeepUnknownEscapes", "echo \"a\\\"b\\n\\$c\"", "echo|a\"b\\n$c"),
                a("backslashOutsideQuotes", "\\git co\\mmit a\\ b", "git|commit|a b"),
                a("adjacentQuotesJoin", "g''it \"com\"'mit'", "git|commit"),
                a("ansiC", "echo $'a\\tb\\x41\\101\\u00e9\\'q'", "echo|a\tbAAé'q"),
                a("localeString", "echo $\"hi\"", "echo|hi"),
                a("lineContinuation", "git \\\ncommit", "git|commit"),
                a("comment", "a # b; c\nd", "a ; d"),
                a("hashInWord", "a#b", "a#b"),
                a("assignments", "A=1 B+=2 cmd C=3", "=A=1|=B+=2|cmd|C=3"),
                a("assignmentOnly", "A=1", "=A=1"),
                a("variableIsDynamic", "echo $x ${y:-z} \"$1\" $@", "echo|~|~|~|~"),
                a("commandSubstitution", "echo a$(git status)b", "git|status ; echo|ab~"),
                a("nestedSubstitution", "echo $(a $(b))", "b ; a|~ ; echo|~"),
                a("substitutionWithParens", "echo $( (a) ; b )", "a ; b ; echo|~"),
                a("backticks", "echo `git log \\`b\\``", "b ; git|log|~ ; echo|~"),
                a("arithmeticIsDynamic", "echo $((1 + 2))", "1|+|2 ; echo|~"),
                a("processSubstitution", "diff <(a) >(b)", "a ; b ; diff|~|~"),
                a("substitutionInParameter", "echo ${x:-$(a)}", "a ; echo|~"),
                a("subshellAndGroup", "(a; b) && { c; }", "a ; b ; c"),
                a("compoundKeywordsDropped", "if a; then b; elif c; else d; fi; while e; do f; done",
                        "a ; b ; c ; d ; e ; f"),
                a("forLineSkipped", "for x in a b; do c $x; done", "c|~"),
                a("casePatternSkipped", "case $x in a) b;; esac", "b"),
                a("functionBody", "f() { a; }", "f ; a"),
                a("negation", "! a", "a"),
                a("redirectionsAreNotWords", "a > f 2>&1 < in >> log &> all 2> x b", "a|b"),
                a("redirectionFdDigitsOnlyBeforeOperator", "a 2 >f", "a|2"),
                a("globAndBrace", "ls *.java a{b,c} {} [x]", "ls|*.java*|a{b,c}*|{}|[x]*"),
                a("quotedGlobIsLiteral", "ls '*' \\?", "ls|*|?"),
                a("heredocBodyIsStdin", "cat <<EOF\nhello $x\nEOF\nb", "cat|<<hello $x\n ; b"),
                a("heredocQuotedDelimiter", "cat <<'E O'\n$(a)\nE O", "cat|<<$(a)\n"),
                a("heredocUnquotedSubstitutionParsed", "cat <<EOF\n$(a)\nEOF", "cat|<<$(a)\n ; a"),
                a("heredocStripTabs", "cat <<-EOF\n\tx\n\tEOF\nb", "cat|<<x\n ; b"),
                a("heredocAfterPipeline", "cat <<EOF | sh\nx\nEOF", "cat|<<x\n ; sh <pipe"),
                a("twoHeredocs", "a <<A; b <<B\n1\nA\n2\nB", "a|<<1\n ; b|<<2\n"),
                a("heredocUnterminated", "cat <<EOF\nx", "cat|<<x\n"),
                a("hereString", "sh <<< 'a b'", "sh|<<a b\n"),
                a("unterminatedQuoteRunsToEnd", "echo 'abc", "echo|abc"),
                a("empty", "", ""),
                a("onlyOperators", ";;&& | ;", ""));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("scripts")
    void parse_splitsLikeAShell(String name, String source, String expected) {
        ShellScript script = ShellScript.parse(source);

        assertThat(render(script)).isEqualTo(expected);
        assertThat(script.complete()).isTrue();
    }

    @Test
    void parse_substitutionsNestedPastTheCap_stopAndSayIncomplete() {
        String deep = "echo " + "$(".repeat(ShellScript.MAX_NESTING + 1) + "a" + ")".repeat(ShellScript.MAX_NESTING + 1);

        assertThat(ShellScript.parse(deep).complete()).isFalse();
        assertThat(ShellScript.parse("echo " + "$(".repeat(ShellScript.MAX_NESTING) + "a"
                + ")".repeat(ShellScript.MAX_NESTING)).complete()).isTrue();
    }

    @Test
    void parse_deepBacktickAndParameterNesting_isBounded() {
        assertThat(ShellScript.parse("${".repeat(100_000)).complete()).isFalse();
        assertThat(ShellScript.parse("\"$(".repeat(100_000)).complete()).isFalse();
    }

    @Test
    void isAssignment_namesOnly() {
        assertThat(ShellScript.isAssignment("A_1=x")).isTrue();
        assertThat(ShellScript.isAssignment("A+=x")).isTrue();
        assertThat(ShellScript.isAssignment("=x")).isFalse();
        assertThat(ShellScript.isAssignment("1A=x")).isFalse();
        assertThat(ShellScript.isAssignment("a[1]=x")).isFalse();
        assertThat(ShellScript.isAssignment("--opt=x")).isFalse();
    }

    private static Arguments a(String name, String source, String expected) {
        return Arguments.of(name, source, expected);
    }

    private static String render(ShellScript script) {
        StringBuilder b = new StringBuilder();
        for (SimpleCommand c : script.commands()) {
            if (b.length() > 0) {
                b.append(" ; ");
            }
            StringBuilder words = new StringBuilder();
            for (ShellWord w : c.assignments()) {
                words.append(words.length() > 0 ? "|" : "").append('=').append(word(w));
            }
            for (ShellWord w : c.words()) {
                words.append(words.length() > 0 ? "|" : "").append(word(w));
            }
            b.append(words);
            if (c.pipedInput()) {
                b.append(" <pipe");
            }
            if (c.stdin() != null) {
                b.append("|<<").append(c.stdin());
            }
        }
        return b.toString();
    }

    private static String word(ShellWord w) {
        return w.text() + (w.dynamic() ? "~" : "") + (w.pattern() ? "*" : "");
    }
}
