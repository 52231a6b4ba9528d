package dev.agentwarden.rule;

import dev.agentwarden.text.NearMiss;
import dev.cel.common.CelAbstractSyntaxTree;
import dev.cel.common.CelIssue;
import dev.cel.common.CelOptions;
import dev.cel.common.CelValidationException;
import dev.cel.common.CelValidationResult;
import dev.cel.common.ast.CelReference;
import dev.cel.common.types.CelType;
import dev.cel.common.types.ListType;
import dev.cel.common.types.MapType;
import dev.cel.common.types.SimpleType;
import dev.cel.compiler.CelCompiler;
import dev.cel.compiler.CelCompilerBuilder;
import dev.cel.compiler.CelCompilerFactory;
import dev.cel.extensions.CelExtensions;
import dev.cel.parser.CelStandardMacro;
import dev.cel.runtime.CelEvaluationException;
import dev.cel.runtime.CelRuntime;
import dev.cel.runtime.CelRuntimeFactory;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

/**
 * Parses and type-checks a rule's CEL (standard macros and functions, and the {@code strings} and
 * {@code lists} extensions) against the {@link RuleField} declarations and plans it for
 * the runtime, once per distinct rule per process (a small cache keyed by the settings). A problem
 * is an {@link IllegalArgumentException} {@code <key>: CEL line L column C: <message>}, which the
 * manifest compiler reports at the key's line.
 */
final class RuleCompiler {
    /** Most iterations of one comprehension ({@code exists}, {@code all}, {@code map}, ...). */
    static final int MAX_COMPREHENSION_ITERATIONS = 1_000;
    /** Most rules kept compiled per process. */
    private static final int MAX_CACHED = 64;

    private static final CelOptions OPTIONS = CelOptions.current()
            .comprehensionMaxIterations(MAX_COMPREHENSION_ITERATIONS)
            .maxExpressionCodePointSize(RuleSettings.MAX_SOURCE_CHARS)
            .build();
    private static final CelCompiler CONDITION = declarations().setResultType(SimpleType.BOOL).build();
    private static final CelCompiler TEXT = declarations().setResultType(SimpleType.STRING).build();
    private static final CelRuntime RUNTIME = CelRuntimeFactory.standardCelRuntimeBuilder().setOptions(OPTIONS)
            .addLibraries(CelExtensions.strings(), CelExtensions.lists()).build();

    private static final Map<RuleSettings, CompiledRule> CACHE = new LinkedHashMap<>();

    private RuleCompiler() {
    }

    /** The compiled rule for {@code settings}. @throws IllegalArgumentException naming the key and CEL position */
    static CompiledRule compile(RuleSettings settings) {
        synchronized (CACHE) {
            CompiledRule hit = CACHE.get(settings);
            if (hit != null) {
                return hit;
            }
        }
        Set<RuleField> fields = EnumSet.noneOf(RuleField.class);
        CelRuntime.Program when = program("when", settings.when(), CONDITION, fields);
        Map<String, CelRuntime.Program> rewrite = new LinkedHashMap<>();
        for (Map.Entry<String, String> e : settings.rewrite().entrySet()) {
            rewrite.put(e.getKey(), program("rewrite." + e.getKey(), e.getValue(), TEXT, fields));
        }
        ReasonTemplate reason = settings.reason() == null ? null : ReasonTemplate.parse(settings.reason());
        if (reason != null) {
            fields.addAll(reason.fields());
        }
        CompiledRule rule = new CompiledRule(settings, when, rewrite, reason, fields);
        synchronized (CACHE) {
            if (CACHE.size() >= MAX_CACHED) {
                CACHE.clear();
            }
            CACHE.put(settings, rule);
        }
        return rule;
    }

    private static CelRuntime.Program program(String key, String source, CelCompiler compiler, Set<RuleField> fields) {
        CelValidationResult result = compiler.compile(source);
        if (result.hasError()) {
            CelIssue first = result.getErrors().get(0);
            throw new IllegalArgumentException(key + ": CEL line " + first.getSourceLocation().getLine() + " column "
                    + (first.getSourceLocation().getColumn() + 1) + ": " + explain(first, source));
        }
        try {
            CelAbstractSyntaxTree ast = result.getAst();
            for (CelReference ref : ast.getReferenceMap().values()) {
                RuleField f = RuleField.of(ref.name());
                if (f != null) {
                    fields.add(f);
                }
            }
            return RUNTIME.createProgram(ast);
        } catch (CelValidationException | CelEvaluationException e) {
            throw new IllegalArgumentException(key + ": " + e.getMessage());
        }
    }

    /**
     * The issue in a rule author's words: an undeclared reference names the whole dotted field the
     * author wrote ({@code tool.nmae}) and the fields there are.
     */
    private static String explain(CelIssue issue, String source) {
        String message = issue.getMessage();
        if (!message.startsWith("undeclared reference to '")) {
            return message;
        }
        String written = identifierAt(source, issue.getSourceLocation().getLine(), issue.getSourceLocation().getColumn());
        if (written.isEmpty()) {
            return message;
        }
        return "unknown field '" + written + "'; the fields are " + RuleField.names()
                + NearMiss.hint(written, RuleField.names());
    }

    /** The dotted identifier that starts at (line, column) of {@code source} (1-based line, 0-based column). */
    private static String identifierAt(String source, int line, int column) {
        int at = 0;
        for (int l = 1; l < line && at >= 0; l++) {
            at = source.indexOf('\n', at);
            at = at < 0 ? -1 : at + 1;
        }
        if (at < 0 || at + column > source.length()) {
            return "";
        }
        int start = at + column;
        int end = start;
        while (end < source.length() && (Character.isLetterOrDigit(source.charAt(end)) || source.charAt(end) == '_'
                || source.charAt(end) == '.')) {
            end++;
        }
        return source.substring(start, end);
    }

    private static CelCompilerBuilder declarations() {
        CelCompilerBuilder b = CelCompilerFactory.standardCelCompilerBuilder()
                .setOptions(OPTIONS)
                .setStandardMacros(CelStandardMacro.STANDARD_MACROS)
                .addLibraries(CelExtensions.strings(), CelExtensions.lists());
        for (RuleField f : RuleField.values()) {
            b.addVar(f.wire(), celType(f.type()));
        }
        return b;
    }

    private static CelType celType(RuleField.Type type) {
        switch (type) {
            case INT:
                return SimpleType.INT;
            case BOOL:
                return SimpleType.BOOL;
            case LIST:
                return ListType.create(SimpleType.STRING);
            case MAP:
                return MapType.create(SimpleType.STRING, SimpleType.DYN);
            case STRING:
            default:
                return SimpleType.STRING;
        }
    }
}
