package dev.agentwarden.inventory;

import dev.agentwarden.json.Json;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A scripted stdio MCP server for failure cases. Modes (first argument): {@code crash} (exits 3 at
 * once), {@code hang} (never answers), {@code garbage} (prints text), {@code duplicate} (lists
 * {@code echo} twice), {@code paginate} (three pages), {@code cursor-loop} (the same cursor forever),
 * {@code late-tool} (after {@code initialized}: registers one more tool and sends list_changed),
 * {@code hang-list} (answers initialize, never tools/list), {@code file PATH} (lists the tool names
 * the file holds, one a line; a line {@code hang} makes tools/list hang, {@code delay MS} delays its
 * answer; sends list_changed whenever the file's size or modification time changes).
 */
public final class FakeMcpServer {
    private FakeMcpServer() {
    }

    /** Waits (bounded) until no {@link FakeMcpServer} this JVM started is still running, so no later test sees one. */
    public static void awaitNoneRunning() {
        long deadline = System.nanoTime() + java.time.Duration.ofSeconds(30).toNanos();
        while (ProcessHandle.current().descendants().anyMatch(p -> p.info().commandLine().orElse("")
                .contains(FakeMcpServer.class.getName()))) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("a FakeMcpServer outlived its test");
            }
            try {
                Thread.sleep(20);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }

    public static void main(String[] args) throws Exception {
        String mode = args[0];
        PrintStream out = new PrintStream(System.out, true, StandardCharsets.UTF_8);
        if (mode.equals("crash")) {
            System.err.println("boom: fake server crashed");
            System.exit(3);
        }
        if (mode.equals("garbage")) {
            out.println("Welcome! this is not JSON-RPC");
        }
        if (mode.equals("file")) {
            fileMode(out, java.nio.file.Path.of(args[1]));
            return;
        }
        List<String> tools = new ArrayList<>(List.of("alpha", "beta"));
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        String line;
        while ((line = in.readLine()) != null) {
            if (mode.equals("hang") || mode.equals("garbage")) {
                continue;
            }
            Map<String, Object> m = Json.parseObject(line);
            Object method = m.get("method");
            Object id = m.get("id");
            if ("initialize".equals(method)) {
                Map<String, Object> result = new LinkedHashMap<>();
                result.put("protocolVersion", "2025-06-18");
                result.put("capabilities", Map.of("tools", Map.of("listChanged", true)));
                result.put("serverInfo", Map.of("name", "fake", "version", "1"));
                reply(out, id, result);
            } else if ("notifications/initialized".equals(method) && mode.equals("late-tool")) {
                tools.add("gamma");
                out.println("{\"jsonrpc\":\"2.0\",\"method\":\"notifications/tools/list_changed\"}");
            } else if ("tools/list".equals(method)) {
                if (mode.equals("hang-list")) {
                    continue;
                }
                reply(out, id, list(mode, tools, (Map<?, ?>) m.get("params")));
            }
        }
    }

    private static void fileMode(PrintStream out, java.nio.file.Path file) throws Exception {
        Thread watcher = new Thread(() -> {
            String seen = stamp(file);
            while (true) {
                try {
                    Thread.sleep(20);
                } catch (InterruptedException e) {
                    return;
                }
                String now = stamp(file);
                if (!now.equals(seen)) {
                    seen = now;
                    synchronized (out) {
                        out.println("{\"jsonrpc\":\"2.0\",\"method\":\"notifications/tools/list_changed\"}");
                    }
                }
            }
        });
        watcher.setDaemon(true);
        watcher.start();
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        String line;
        while ((line = in.readLine()) != null) {
            Map<String, Object> m = Json.parseObject(line);
            Object method = m.get("method");
            Object id = m.get("id");
            if ("initialize".equals(method)) {
                Map<String, Object> result = new LinkedHashMap<>();
                result.put("protocolVersion", "2025-06-18");
                result.put("capabilities", Map.of("tools", Map.of("listChanged", true)));
                result.put("serverInfo", Map.of("name", "fake-file", "version", "1"));
                synchronized (out) {
                    reply(out, id, result);
                }
            } else if ("tools/list".equals(method)) {
                List<Object> page = new ArrayList<>();
                boolean hang = false;
                for (String t : java.nio.file.Files.readAllLines(file)) {
                    if (t.equals("hang")) {
                        hang = true;
                    } else if (t.startsWith("delay ")) {
                        Thread.sleep(Long.parseLong(t.substring(6).trim()));
                    } else if (!t.isBlank()) {
                        page.add(tool(t.strip(), "the " + t.strip() + " tool"));
                    }
                }
                if (hang) {
                    continue;
                }
                Map<String, Object> result = new LinkedHashMap<>();
                result.put("tools", page);
                synchronized (out) {
                    reply(out, id, result);
                }
            }
        }
    }

    private static String stamp(java.nio.file.Path file) {
        try {
            return java.nio.file.Files.size(file) + ":" + java.nio.file.Files.getLastModifiedTime(file).toMillis();
        } catch (java.io.IOException e) {
            return "gone";
        }
    }

    private static Map<String, Object> list(String mode, List<String> names, Map<?, ?> params) {
        Map<String, Object> result = new LinkedHashMap<>();
        List<Object> page = new ArrayList<>();
        Object cursor = params == null ? null : params.get("cursor");
        switch (mode) {
            case "duplicate" -> {
                page.add(tool("echo", "first"));
                page.add(tool("echo", "second"));
            }
            case "paginate" -> {
                String at = cursor == null ? "p1" : (String) cursor;
                page.add(tool("tool-" + at, "page " + at));
                if (!at.equals("p3")) {
                    result.put("nextCursor", at.equals("p1") ? "p2" : "p3");
                }
            }
            case "cursor-loop" -> {
                page.add(tool("again", "forever"));
                result.put("nextCursor", "same");
            }
            default -> {
                for (String n : names) {
                    page.add(tool(n, "the " + n + " tool"));
                }
            }
        }
        result.put("tools", page);
        return result;
    }

    private static Map<String, Object> tool(String name, String description) {
        Map<String, Object> t = new LinkedHashMap<>();
        t.put("name", name);
        t.put("description", description);
        t.put("inputSchema", Map.of("type", "object"));
        return t;
    }

    private static void reply(PrintStream out, Object id, Map<String, Object> result) {
        Map<String, Object> r = new LinkedHashMap<>();
        r.put("jsonrpc", "2.0");
        r.put("id", id);
        r.put("result", result);
        out.println(Json.write(r));
    }
}
