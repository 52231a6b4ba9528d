/*
 * Agent Warden's installed hook: the fast path of `bin/warden dispatch` (see bin/warden).
 *
 * Compiled by `bin/warden build-hook` into the user's private cache, with the checkout's path and
 * the launcher facts (hook-facts.h, generated from the jar) compiled in. Per event it does only
 * what answering needs: read the resident's 0600 endpoint file, check that the process it names is
 * this user's live resident in this network namespace, read stdin under the JVM's deadline,
 * connect to the resident's Unix socket in its private directory and require the kernel's word
 * (SO_PEERCRED) that the listener is that process before sending anything, forward the event in one
 * write (the same warden-forward/1 records bin/warden sends), print the answer and exit with its
 * code as the host reads it (host_exit). The protocol, its cases and their shared test vectors:
 * docs/forward-protocol.md. With no usable socket it uses the resident's loopback port as bin/warden does: connect within
 * 2 s, and the resident's proof within 2 s before sending anything.
 *
 * Whatever it cannot do it leaves to bin/warden, which picks a JVM, trains the archive, builds the
 * jar and starts a resident: before stdin is read it execs bin/warden unchanged; after, it execs
 * `bin/warden __replayed dispatch ...` with the payload as stdin (a memfd), which evaluates the
 * event in a JVM without trying the resident again. When the resident took the event and gave no
 * answer in time, or stdin stayed open past its deadline, it applies the fail mode itself, as
 * bin/warden does.
 *
 * With WARDEN_RESIDENT=off it runs the event's JVM itself from the one-event JVM plan bin/warden
 * wrote (own_jvm below), while every file that plan was derived from is unchanged; else bin/warden.
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/types.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "hook-facts.h" /* WARDEN_HOME, SOURCE_MTIME, SOURCE_SIZE, FACT_*, HOST_* (the launcher contracts) */
/* WARDEN_RELEASE: an installed release's client, whose jar hash file came with the jar (its mtime says
   nothing) and whose runtime/bin/java bin/warden picks before $JAVA_HOME and PATH. Without WARDEN_HOME
   (the client a release ships prebuilt, as lib/hook/bin/warden), the home is found from this
   executable's own path. WARDEN_JAR, WARDEN_HOOK_SOURCE: the launcher's paths, when it compiled this. */
#if defined(WARDEN_HOME) && !defined(WARDEN_HOOK_SOURCE)
#define WARDEN_HOOK_SOURCE WARDEN_HOME "/src/main/c/warden-hook.c"
#endif
#define PREBUILT_SUFFIX "/lib/hook/bin/warden"
#ifndef FACT_HOOK_SOCKET_SUFFIX
#define FACT_HOOK_SOCKET_SUFFIX ""
#endif

extern char **environ;

static char **args;  /* argv from "dispatch" on */
static int nargs;

static void cannot_run(const char *why);

/* ---- small growable buffer ------------------------------------------------------------------- */
typedef struct { char *p; size_t n, cap; } buf;

static void put(buf *b, const void *s, size_t n) {
    if (b->n + n + 1 > b->cap) {
        size_t cap = b->cap ? b->cap : 4096;
        while (cap < b->n + n + 1) cap *= 2;
        char *p = realloc(b->p, cap);
        /* the fail mode, never an exit code of its own: Gemini CLI reads any code but 0, 1, 2 as a deny */
        if (!p) cannot_run("out of memory");
        b->p = p;
        b->cap = cap;
    }
    memcpy(b->p + b->n, s, n);
    b->n += n;
    b->p[b->n] = 0;
}
static void puts0(buf *b, const char *s) { put(b, s, strlen(s)); }
/* One NUL-terminated record: kind, then text. */
static void rec(buf *b, char kind, const char *s, size_t n) { put(b, &kind, 1); put(b, s, n); put(b, "", 1); }

static long long now_ms(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (long long) t.tv_sec * 1000 + t.tv_nsec / 1000000;
}

/* ---- giving up: to bin/warden, or the fail mode ---------------------------------------------- */
/* Warden's home and what this client runs under it (locate()). */
static char warden_home[4096], launcher[4200], jar[4200], jar_sum[4300], runtime_java[4200], why_not[4400];

/* `fmt` with `path` into `out` (of `cap` bytes); the fail mode when it does not fit. */
static void path_of(char *out, size_t cap, const char *fmt, const char *path) {
    int n = snprintf(out, cap, fmt, path);
    if (n < 0 || (size_t) n >= cap) cannot_run("Warden's path is too long");
}

static void locate(void) {
#ifdef WARDEN_HOME
    path_of(warden_home, sizeof warden_home, "%s", WARDEN_HOME);
#else
    ssize_t n = readlink("/proc/self/exe", warden_home, sizeof warden_home - 1);
    size_t suffix = sizeof PREBUILT_SUFFIX - 1;
    if (n <= (ssize_t) suffix) cannot_run("cannot tell where Warden is installed (/proc/self/exe)");
    warden_home[n] = 0;
    if (strcmp(warden_home + n - suffix, PREBUILT_SUFFIX) != 0) cannot_run("this hook client is not at <warden>" PREBUILT_SUFFIX);
    warden_home[n - (ssize_t) suffix] = 0;
#endif
    path_of(launcher, sizeof launcher, "%s/bin/warden", warden_home);
#ifdef WARDEN_JAR
    path_of(jar, sizeof jar, "%s", WARDEN_JAR);
#elif defined(WARDEN_RELEASE)
    path_of(jar, sizeof jar, "%s/lib/warden.jar", warden_home);
#else
    path_of(jar, sizeof jar, "%s/target/warden.jar", warden_home);
#endif
    path_of(jar_sum, sizeof jar_sum, "%s.sha256", jar);
    path_of(runtime_java, sizeof runtime_java, "%s/runtime/bin/java", warden_home);
    path_of(why_not, sizeof why_not, "cannot run %s", launcher);
}

/* The dispatch's --host (or --platform) and --native-event, "" when absent. */
static void dispatch_target(const char **host, const char **event) {
    *host = *event = "";
    for (int i = 0; i + 1 < nargs; i++) {
        if (!strcmp(args[i], "--host") || !strcmp(args[i], "--platform")) *host = args[i + 1];
        else if (!strcmp(args[i], "--native-event")) *event = args[i + 1];
    }
}

/* The text for host:event in a table of hook-facts.h (bin/warden's host block), or NULL. */
static const char *host_text(const struct host_text *t, const char *host, const char *event) {
    size_t n = strlen(host);
    for (; t->key; t++)
        if (!strncmp(t->key, host, n) && t->key[n] == ':' && !strcmp(t->key + n + 1, event)) return t->text;
    return NULL;
}

/* "No opinion" on stdout where the host requires an answer there. */
static void no_opinion(void) {
    const char *host, *event, *text;
    dispatch_target(&host, &event);
    if ((text = host_text(HOST_NO_OPINIONS, host, event))) (void) !write(1, text, strlen(text));
}

/* A host is waiting and Warden cannot answer: the runtime failure mode, as bin/warden's cannot_run. */
static void cannot_run(const char *why) {
    const char *mode = getenv("WARDEN_FAIL_MODE");
    if (mode && !strcmp(mode, "closed")) {
        const char *host, *event, *text;
        int code = 2;
        dprintf(2, "warden: %s; refusing (WARDEN_FAIL_MODE=closed)\n", why);
        dispatch_target(&host, &event);
        if ((text = host_text(HOST_REFUSALS, host, event))) (void) !write(1, text, strlen(text));
        for (const struct host_code *c = HOST_CLOSED_EXITS; c->host; c++)
            if (!strcmp(c->host, host)) code = c->code;
        _exit(code);
    }
    dprintf(2, "warden: %s; allowing\n", why);
    no_opinion();
    _exit(0);
}

/*
 * A dispatch answered with exit `code`: what the host reads, as bin/warden's host_exit. Most hosts get
 * the code as it is; to hosts that read some non-zero codes as a deny (HOST_NONZERO_EXITS) a non-zero
 * code is a failure of Warden itself: the fail mode ("fail-mode"), or exit 1, a warning the host shows
 * and allows, or 2 under WARDEN_FAIL_MODE=closed ("warning").
 */
static int host_exit(int code) {
    const char *host, *event, *rule = "passed-on";
    if (code == 0) return 0;
    dispatch_target(&host, &event);
    for (const struct host_text *r = HOST_NONZERO_EXITS; r->key; r++)
        if (!strcmp(r->key, host)) rule = r->text;
    if (!strcmp(rule, "fail-mode")) {
        char why[96];
        snprintf(why, sizeof why, "the JVM exited with status %d; this event was not evaluated", code);
        cannot_run(why);
    }
    if (!strcmp(rule, "warning")) {
        const char *mode = getenv("WARDEN_FAIL_MODE");
        if (mode && !strcmp(mode, "closed")) {
            dprintf(2, "warden: dispatch failed (exit %d); refusing (WARDEN_FAIL_MODE=closed)\n", code);
            return 2;
        }
        dprintf(2, "warden: dispatch failed (exit %d); allowing\n", code);
        return 1;
    }
    return code;
}

/* Stdin untouched: bin/warden does everything this client does not. */
static void to_launcher(void) {
    char **v = calloc((size_t) nargs + 2, sizeof *v);
    if (!v) cannot_run("out of memory");
    v[0] = (char *) launcher;
    for (int i = 0; i < nargs; i++) v[i + 1] = args[i];
    execv(launcher, v);
    cannot_run(why_not);
}

/* Stdin spent: the payload becomes bin/warden's stdin and it evaluates the event in a JVM. */
static void replay(const char *note, const char *payload, size_t len) {
    if (note) dprintf(2, "warden: %s; evaluating this event in a new JVM\n", note);
    int fd = (int) syscall(SYS_memfd_create, "warden-payload", 0);
    if (fd >= 0) {
        size_t off = 0;
        while (off < len) {
            ssize_t w = write(fd, payload + off, len - off);
            if (w <= 0) { close(fd); fd = -1; break; }
            off += (size_t) w;
        }
    }
    if (fd < 0 || lseek(fd, 0, SEEK_SET) != 0 || dup2(fd, 0) < 0) cannot_run("cannot hand the event to a JVM");
    if (fd != 0) close(fd);
    char **v = calloc((size_t) nargs + 3, sizeof *v);
    if (!v) cannot_run("out of memory");
    v[0] = (char *) launcher;
    v[1] = "__replayed";
    for (int i = 0; i < nargs; i++) v[i + 2] = args[i];
    execv(launcher, v);
    cannot_run(why_not);
}

/* ---- parsing helpers ------------------------------------------------------------------------- */
static int all_of(const char *s, size_t min, size_t max, const char *set) {
    size_t n = strlen(s);
    return n >= min && n <= max && strspn(s, set) == n;
}
static const char DIG[] = "0123456789", HEX[] = "0123456789abcdef";

/* Reads a small file whole (at most cap-1 bytes), NUL-terminated; length, or -1. */
static ssize_t slurp(const char *path, char *out, size_t cap, int nofollow) {
    int fd = open(path, O_RDONLY | O_CLOEXEC | (nofollow ? O_NOFOLLOW : 0));
    if (fd < 0) return -1;
    size_t n = 0;
    ssize_t r;
    while (n + 1 < cap && (r = read(fd, out + n, cap - 1 - n)) > 0) n += (size_t) r;
    close(fd);
    out[n] = 0;
    return (ssize_t) n;
}

/* Field `index` (0 = state) of a /proc/PID/stat line, after the command name. */
static int stat_field(const char *line, int index, char *out, size_t cap) {
    const char *p = strrchr(line, ')');
    if (!p || p[1] != ' ') return -1;
    p += 2;
    for (int i = 0; i < index; i++) {
        p = strchr(p, ' ');
        if (!p) return -1;
        p++;
    }
    size_t n = strcspn(p, " \n");
    if (n == 0 || n >= cap) return -1;
    memcpy(out, p, n);
    out[n] = 0;
    return 0;
}

/* A bash variable name, as bin/warden's ${!prefix@} walk lists them. */
static int bash_name(const char *s, size_t n) {
    if (n == 0 || !(s[0] == '_' || (s[0] >= 'A' && s[0] <= 'Z') || (s[0] >= 'a' && s[0] <= 'z'))) return 0;
    for (size_t i = 1; i < n; i++)
        if (!(s[i] == '_' || (s[i] >= 'A' && s[i] <= 'Z') || (s[i] >= 'a' && s[i] <= 'z') || (s[i] >= '0' && s[i] <= '9')))
            return 0;
    return 1;
}

/* ---- the socket, read with deadlines --------------------------------------------------------- */
static int sock = -1;
static char in[8192];
static size_t in_at, in_len;

/* Waits up to ms for fd to be ready for `events`; 1 ready, 0 timed out, -1 error. */
static int wait_fd(int fd, short events, long long ms) {
    struct pollfd p = { fd, events, 0 };
    long long end = now_ms() + ms;
    for (;;) {
        long long left = end - now_ms();
        if (left < 0) left = 0;
        int r = poll(&p, 1, (int) left);
        if (r > 0) return 1;
        if (r == 0) return 0;
        if (errno != EINTR) return -1;
    }
}

/* One byte within ms: the byte, -1 at end or error, -2 when the deadline passed. */
static int getbyte(long long ms) {
    if (in_at == in_len) {
        int w = wait_fd(sock, POLLIN, ms);
        if (w == 0) return -2;
        if (w < 0) return -1;
        ssize_t r = read(sock, in, sizeof in);
        if (r <= 0) return -1;
        in_at = 0;
        in_len = (size_t) r;
    }
    return (unsigned char) in[in_at++];
}

/* A line without its "\n" (and "\r") within ms of each byte; 0, -1 at end or too long, -2 late. */
static int getline_ms(char *out, size_t cap, long long ms) {
    size_t n = 0;
    for (;;) {
        int c = getbyte(ms);
        if (c < 0) return c;
        if (c == '\n') break;
        if (n + 1 >= cap) return -1;
        out[n++] = (char) c;
    }
    if (n && out[n - 1] == '\r') n--;
    out[n] = 0;
    return 0;
}

static int send_all(const char *p, size_t n) {
    while (n) {
        if (wait_fd(sock, POLLOUT, 10000) != 1) return -1;
        ssize_t w = send(sock, p, n, MSG_NOSIGNAL);
        if (w <= 0) {
            if (w < 0 && (errno == EINTR || errno == EAGAIN)) continue;
            return -1;
        }
        p += w;
        n -= (size_t) w;
    }
    return 0;
}

static int write_all(int fd, const char *p, size_t n) {
    while (n) {
        ssize_t w = write(fd, p, n);
        if (w <= 0) {
            if (w < 0 && errno == EINTR) continue;
            return -1;
        }
        p += w;
        n -= (size_t) w;
    }
    return 0;
}

/* The number after "Name:" in a header line (case-insensitive name), or -1. */
static long long header_number(const char *line, const char *name) {
    size_t n = strlen(name);
    if (strncasecmp(line, name, n) != 0) return -1;
    const char *p = line + n;
    while (*p == ' ') p++;
    char digits[16];
    size_t k = 0;
    while (*p >= '0' && *p <= '9' && k < 10) digits[k++] = *p++;
    while (*p == ' ') p++;
    if (k == 0 || *p) return -1;
    digits[k] = 0;
    return atoll(digits);
}

/*
 * The resident's Unix socket at `path`, connected within 2 s, or -1 (nothing was sent): it must be a
 * socket of this user's (not a symlink) and its listener, as the kernel reports it, the process `pid`
 * of this user. The directory holding it was checked to be this user's and mode 0700.
 */
static int unix_connect(const char *path, long pid, uid_t me) {
    struct stat st;
    struct sockaddr_un addr = { .sun_family = AF_UNIX };
    if (!FACT_HOOK_SOCKET_SUFFIX[0] || strlen(path) >= sizeof addr.sun_path) return -1;
    if (lstat(path, &st) != 0 || !S_ISSOCK(st.st_mode) || st.st_uid != me) return -1;
    strcpy(addr.sun_path, path);
    int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (fd < 0) return -1;
    /* a full queue blocks connect: at most 2 s, as on the port */
    struct timeval two = { 2, 0 };
    setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &two, sizeof two);
    struct ucred peer;
    socklen_t len = sizeof peer;
    if (connect(fd, (struct sockaddr *) &addr, sizeof addr) != 0
        || getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &peer, &len) != 0 || len != sizeof peer
        || (long) peer.pid != pid || peer.uid != me
        || fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK) != 0) {
        close(fd);
        return -1;
    }
    return fd;
}

/* ---- the one-event JVM plan (WARDEN_RESIDENT=off) ------------------------------------------- */
/*
 * bin/warden writes, in this checkout's private hook directory (0700), a 0600 plan per jar key and
 * host: the java command line it runs for a one-event dispatch (archive and flags included) and the
 * files that command line was derived from, each with its device, inode, mtime and size (java, the
 * jar and its hash file, the archive, bin/warden, the launcher facts). While every one of them is
 * the very file it was, and java is the one bin/warden would pick now, this client runs that command
 * itself; anything else, and bin/warden runs the event (`bin/warden __plan dispatch ...`: it writes
 * a new plan). The JVM enforces the payload cap and the stdin deadline as ever; what bin/warden does
 * after it (a JVM that died with the archive, exit codes a host reads otherwise) it still does:
 * `bin/warden __jvm_exit CODE dispatch ...`.
 */
#define PLAN_VERSION "warden-jvm-plan/1"

/* Stdin untouched: bin/warden runs the event in a JVM, and writes a plan for the next one. */
static void to_launcher_planning(void) {
    char **v = calloc((size_t) nargs + 3, sizeof *v);
    if (!v) cannot_run("out of memory");
    v[0] = (char *) launcher;
    v[1] = "__plan";
    for (int i = 0; i < nargs; i++) v[i + 2] = args[i];
    execv(launcher, v);
    cannot_run(why_not);
}

/* The planned JVM exited with `code` (128 + signal when it died): bin/warden answers as it would have. */
static void after_jvm(int code) {
    char rc[8];
    snprintf(rc, sizeof rc, "%d", code);
    char **v = calloc((size_t) nargs + 4, sizeof *v);
    if (!v) cannot_run("out of memory");
    v[0] = (char *) launcher;
    v[1] = "__jvm_exit";
    v[2] = rc;
    for (int i = 0; i < nargs; i++) v[i + 3] = args[i];
    execv(launcher, v);
    char why[4400];
    snprintf(why, sizeof why, "the JVM exited and %s cannot be run", launcher);
    cannot_run(why);
}

/* The java bin/warden picks: $WARDEN_JAVA, else a release's runtime, else $JAVA_HOME/bin/java when
   executable, else the first on $PATH. */
static int chosen_java(buf *out) {
    const char *w = getenv("WARDEN_JAVA"), *jh = getenv("JAVA_HOME"), *path = getenv("PATH");
    out->n = 0;
    if (w && *w) { puts0(out, w); return 0; }
#ifdef WARDEN_RELEASE
    if (access(runtime_java, X_OK) == 0) { puts0(out, runtime_java); return 0; }
#endif
    if (jh && *jh) {
        puts0(out, jh);
        puts0(out, "/bin/java");
        if (access(out->p, X_OK) == 0) return 0;
        out->n = 0;
    }
    for (const char *d = path ? path : ""; ; ) {
        size_t n = strcspn(d, ":");
        if (n) {
            out->n = 0;
            put(out, d, n);
            puts0(out, "/java");
            if (access(out->p, X_OK) == 0) return 0;
        }
        if (!d[n]) break;
        d += n + 1;
    }
    return -1;
}

/* Whether `path` is a directory of this user's, no symlink, mode 0700 (nothing for group or others). */
static int private_dir(const char *path, uid_t me) {
    struct stat st;
    return lstat(path, &st) == 0 && S_ISDIR(st.st_mode) && st.st_uid == me && (st.st_mode & 077) == 0;
}

/* One "dev ino sec.nsec size path" record: whether the file at path is still that file. */
static int same_file(const char *r, uid_t me, int mine) {
    unsigned long long dev, ino, sec, nsec, size;
    int at = -1;
    if (sscanf(r, "%llu %llu %llu.%9llu %llu %n", &dev, &ino, &sec, &nsec, &size, &at) != 5 || at < 0 || r[at] != '/')
        return 0;
    struct stat st;
    if (stat(r + at, &st) != 0 || (unsigned long long) st.st_dev != dev || (unsigned long long) st.st_ino != ino
        || (unsigned long long) st.st_mtim.tv_sec != sec || (unsigned long long) st.st_mtim.tv_nsec != nsec
        || (unsigned long long) st.st_size != size)
        return 0;
    /* the archive: this user's alone (its classes would run as this user's code) */
    return !mine || (S_ISREG(st.st_mode) && st.st_uid == me && (st.st_mode & 022) == 0);
}

/*
 * Runs this event's JVM from the plan and exits with its answer; falls back to bin/warden (stdin
 * untouched) when there is no plan it can trust or use.
 */
static void own_jvm(const char *key) {
    const char *host, *event;
    dispatch_target(&host, &event);
    const char *no_archive = getenv("WARDEN_NO_ARCHIVE");
    if (no_archive && !strcmp(no_archive, "1")) to_launcher();
    if (!all_of(host, 1, 32, "abcdefghijklmnopqrstuvwxyz0123456789_-")) to_launcher();
    const char *cache = getenv("WARDEN_CACHE_DIR"), *xdg = getenv("XDG_CACHE_HOME"), *home = getenv("HOME");
    buf dir = {0};
    if (cache && *cache) puts0(&dir, cache);
    else if (xdg && *xdg) { puts0(&dir, xdg); puts0(&dir, "/agent-warden"); }
    else if (home && *home) { puts0(&dir, home); puts0(&dir, "/.cache/agent-warden"); }
    else to_launcher();
    if (dir.p[0] != '/') to_launcher();
    uid_t me = geteuid();
    puts0(&dir, "/hook");
    if (!private_dir(dir.p, me)) to_launcher();
    /* the checkout's directory there, named as bin/warden names it: its path with every / as _ */
    puts0(&dir, "/");
    for (const char *c = warden_home; *c; c++) put(&dir, *c == '/' ? "_" : c, 1);
    if (!private_dir(dir.p, me)) to_launcher_planning();
    puts0(&dir, "/jvm-plan-");
    puts0(&dir, key);
    puts0(&dir, "-");
    puts0(&dir, host);

    int fd = open(dir.p, O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK);
    struct stat st;
    if (fd < 0) to_launcher_planning();
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) || st.st_uid != me || (st.st_mode & 0777) != 0600
        || st.st_size < 1 || st.st_size > 65536) {
        close(fd);
        to_launcher_planning();
    }
    char *plan = malloc((size_t) st.st_size + 1);
    size_t len = 0;
    ssize_t r;
    if (!plan) cannot_run("out of memory");
    while (len < (size_t) st.st_size && (r = read(fd, plan + len, (size_t) st.st_size - len)) > 0) len += (size_t) r;
    close(fd);
    if (len != (size_t) st.st_size || plan[len - 1] != 0) to_launcher_planning();
    plan[len] = 0;

    /* NUL-terminated records: the version, then kind letter and text */
    buf java = {0};
    if (chosen_java(&java) != 0 || java.p[0] != '/') to_launcher();
    char **argv = calloc(len + (size_t) nargs + 1, sizeof *argv);
    if (!argv) cannot_run("out of memory");
    int argn = 0, have_key = 0, have_host = 0, have_java = 0, stamps = 0, passed_on = -1;
    if (strcmp(plan, PLAN_VERSION) != 0) to_launcher_planning();
    for (char *p = plan + strlen(plan) + 1; p < plan + len; p += strlen(p) + 1) {
        const char *t = p + 1;
        switch (p[0]) {
        case 'k': have_key = !strcmp(t, key); break;
        case 'h': have_host = !strcmp(t, host); break;
        case 'n': passed_on = !strcmp(t, "passed-on"); break;
        case 'j': have_java = !strcmp(t, java.p); break;
        case 's': case 'S':
            if (!same_file(t, me, p[0] == 'S')) to_launcher_planning();
            stamps++;
            break;
        case 'a': argv[argn++] = (char *) t; break;
        default: to_launcher_planning();
        }
    }
    if (!have_key || !have_host || !have_java || stamps < 6 || passed_on < 0 || argn < 2 || strcmp(argv[0], java.p) != 0)
        to_launcher_planning();
    for (int i = 0; i < nargs; i++) argv[argn++] = args[i];
    argv[argn] = NULL;

    /* Not exec: a JVM that died (with the archive), or a code the host reads otherwise, is bin/warden's to answer. */
    pid_t child = fork();
    if (child < 0) to_launcher();
    if (child == 0) {
        execv(argv[0], argv);
        dprintf(2, "warden: cannot run %s: %s\n", argv[0], strerror(errno));
        _exit(127);
    }
    int status;
    while (waitpid(child, &status, 0) < 0)
        if (errno != EINTR) cannot_run("lost the JVM it started");
    int code = WIFEXITED(status) ? WEXITSTATUS(status) : WIFSIGNALED(status) ? 128 + WTERMSIG(status) : 255;
    if (code == 0 || (passed_on && code < 128)) _exit(code);
    after_jvm(code);
}

int main(int argc, char **argv) {
    args = argv + 1;
    nargs = argc - 1;
    locate();
    if (nargs < 1 || strcmp(args[0], "dispatch") != 0) to_launcher();
    const char *resident = getenv("WARDEN_RESIDENT");
    int resident_off = resident && !strcmp(resident, "off");
    /* SessionStart is bin/warden's: once a session, it starts the resident and checks the HTTP hook token. */
    for (int i = 0; i < nargs; i++)
        if (!strcmp(args[i], "SessionStart")) to_launcher();

    /* This build still matches its source (else bin/warden rebuilds it), and the jar's hash file is current. */
    struct stat st, st2;
#ifdef SOURCE_MTIME
    if (stat(WARDEN_HOOK_SOURCE, &st) != 0 || (long long) st.st_mtime != SOURCE_MTIME
        || (long long) st.st_size != SOURCE_SIZE)
        to_launcher();
#endif
    if (stat(jar, &st) != 0 || stat(jar_sum, &st2) != 0)
        to_launcher();
#ifndef WARDEN_RELEASE
    if (st.st_mtim.tv_sec > st2.st_mtim.tv_sec
        || (st.st_mtim.tv_sec == st2.st_mtim.tv_sec && st.st_mtim.tv_nsec > st2.st_mtim.tv_nsec))
        to_launcher();
#endif
    char key[64];
    if (slurp(jar_sum, key, sizeof key, 0) != 17 || key[16] != '\n') to_launcher();
    key[16] = 0;
    if (!all_of(key, 16, 16, HEX)) to_launcher();
    if (resident_off) own_jvm(key);

    /* The resident directory, as bin/warden names it; this user's, a directory, no symlink. */
    char cwd[4096];
    const char *pwd = getenv("PWD");
    struct stat dot, pst;
    if (pwd && pwd[0] == '/' && strlen(pwd) < sizeof cwd && stat(".", &dot) == 0 && stat(pwd, &pst) == 0
        && dot.st_dev == pst.st_dev && dot.st_ino == pst.st_ino)
        strcpy(cwd, pwd);
    else if (!getcwd(cwd, sizeof cwd))
        to_launcher();
    buf dir = {0};
    const char *cache = getenv("WARDEN_CACHE_DIR"), *xdg = getenv("XDG_CACHE_HOME"), *home = getenv("HOME");
    if (cache && *cache) puts0(&dir, cache);
    else if (xdg && *xdg) { puts0(&dir, xdg); puts0(&dir, "/agent-warden"); }
    else if (home) { puts0(&dir, home); puts0(&dir, "/.cache/agent-warden"); }
    else to_launcher();
    puts0(&dir, "/resident");
    if (dir.p[0] != '/') {
        buf abs = {0};
        puts0(&abs, cwd);
        puts0(&abs, "/");
        puts0(&abs, dir.p);
        dir = abs;
    }
    uid_t me = geteuid();
    if (lstat(dir.p, &st) != 0 || !S_ISDIR(st.st_mode) || st.st_uid != me) to_launcher();
    /* only a directory of mode 0700 holds a socket to trust; in any other, the port and its proof */
    int dir_private = (st.st_mode & 077) == 0;
    puts0(&dir, "/");
    puts0(&dir, key);
    buf sock_path = {0};
    puts0(&sock_path, dir.p);
    puts0(&sock_path, FACT_HOOK_SOCKET_SUFFIX);
    puts0(&dir, ".endpoint");
    if (stat(dir.p, &st) != 0 || !S_ISREG(st.st_mode) || st.st_uid != me) to_launcher();
    char line[512];
    if (slurp(dir.p, line, sizeof line, 0) < 0) to_launcher();
    char port[8], token[72], pid[16], start[24], proof[72], extra[2];
    if (sscanf(line, "%7s %71s %15s %23s %71s %1s", port, token, pid, start, proof, extra) != 5
        || !all_of(port, 1, 5, DIG) || !all_of(token, 64, 64, HEX) || !all_of(pid, 1, 10, DIG)
        || !all_of(start, 1, 20, DIG) || !all_of(proof, 64, 64, HEX))
        to_launcher();

    /* Ours, alive, the very process that wrote the file (its start time), on this namespace's loopback. */
    char path[64], stat_line[1024], field[32];
    snprintf(path, sizeof path, "/proc/%s", pid);
    if (stat(path, &st) != 0 || st.st_uid != me) to_launcher();
    snprintf(path, sizeof path, "/proc/%s/ns/net", pid);
    if (stat(path, &st) != 0 || stat("/proc/self/ns/net", &st2) != 0 || st.st_dev != st2.st_dev || st.st_ino != st2.st_ino)
        to_launcher();
    snprintf(path, sizeof path, "/proc/%s/stat", pid);
    if (slurp(path, stat_line, sizeof stat_line, 0) < 0 || stat_field(stat_line, 19, field, sizeof field) != 0
        || strcmp(field, start) != 0)
        to_launcher();

    /* The payload cap and stdin deadline, read as the JVM reads them; unusual caps are the JVM's. */
    long long cap = FACT_MAX_PAYLOAD_BYTES, stdin_ms = FACT_STDIN_TIMEOUT_MS, answer_s = 50;
    const char *v = getenv("WARDEN_MAX_PAYLOAD_BYTES");
    if (v) {
        if (!all_of(v, 1, 9, DIG)) to_launcher();
        cap = atoll(v);
        if (cap < 1) cap = 1;
    }
    v = getenv("WARDEN_STDIN_TIMEOUT_MS");
    if (v && all_of(v, 1, 9, DIG)) {
        stdin_ms = atoll(v);
        if (stdin_ms < 1) stdin_ms = 1;
        if (stdin_ms > 600000) stdin_ms = 600000;
    }
    v = getenv("WARDEN_RESIDENT_ANSWER_SECONDS");
    if (v && all_of(v, 1, 5, DIG) && atoll(v) >= 1) answer_s = atoll(v);

    /* The records bin/warden sends: what a JVM of its own would see besides stdin. */
    buf body = {0};
    put(&body, "warden-forward/1", 17);
    rec(&body, 'd', cwd, strlen(cwd));
    for (int i = 0; i < nargs; i++) rec(&body, 'a', args[i], strlen(args[i]));
    for (char **e = environ; *e; e++) {
        const char *eq = strchr(*e, '=');
        if (eq && bash_name(*e, (size_t) (eq - *e))) rec(&body, 'e', *e, strlen(*e));
    }
    char status[4096];
    if (slurp("/proc/self/status", status, sizeof status, 0) > 0) {
        char *u = strstr(status, "\nUmask:");
        if (u) {
            u += 7;
            while (*u == '\t' || *u == ' ') u++;
            rec(&body, 'u', u, strcspn(u, "\n"));
        }
    }
    if (slurp("/proc/self/stat", stat_line, sizeof stat_line, 0) > 0 && stat_field(stat_line, 16, field, sizeof field) == 0)
        rec(&body, 'n', field, strlen(field));
    char limits[8192];
    if (slurp("/proc/self/limits", limits, sizeof limits, 0) > 0) {
        for (char *l = limits; *l;) {
            size_t n = strcspn(l, "\n");
            rec(&body, 'l', l, n);
            l += n;
            if (*l) l++;
        }
    }

    /* Stdin, at most cap + 1 bytes, under the deadline; a stdin still open then is forwarded as far as it came. */
    size_t records = body.n;
    long long stdin_end = now_ms() + stdin_ms;
    int cut = 0;
    char chunk[65536];
    size_t payload_start;
    put(&body, "", 1);
    payload_start = body.n;
    for (;;) {
        long long want = cap + 1 - (long long) (body.n - payload_start);
        if (want <= 0) break;
        long long left = stdin_end - now_ms();
        int w = wait_fd(0, POLLIN, left < 0 ? 0 : left);
        if (w == 0) { cut = 1; break; }
        if (w < 0) break;
        ssize_t r = read(0, chunk, want < (long long) sizeof chunk ? (size_t) want : sizeof chunk);
        if (r < 0 && errno == EINTR) continue;
        if (r <= 0) break;
        put(&body, chunk, (size_t) r);
    }
    size_t payload_len = body.n - payload_start;
    if (cut) {
        /* the t record goes with the others, before the empty one */
        char t[24];
        int n = snprintf(t, sizeof t, "t%lld", stdin_ms);
        buf b2 = {0};
        put(&b2, body.p, records);
        put(&b2, t, (size_t) n + 1);
        put(&b2, "", 1);
        put(&b2, body.p + payload_start, payload_len);
        body = b2;
        payload_start = body.n - payload_len;
    }
    const char *payload = body.p + payload_start;
    char why[160];
    snprintf(why, sizeof why, "stdin still open after %lld ms (WARDEN_STDIN_TIMEOUT_MS)", stdin_ms);
#define FAILED(note) do { if (cut) cannot_run(why); replay(note, payload, payload_len); } while (0)

    signal(SIGPIPE, SIG_IGN);
    /* The Unix socket, its listener proven by the kernel: no greeting to wait for. */
    sock = dir_private ? unix_connect(sock_path.p, atol(pid), me) : -1;
    int via_unix = sock >= 0;
    if (!via_unix) {
        /* The port: connect within 2 s. */
        sock = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
        if (sock < 0) FAILED("the resident server did not answer");
        struct sockaddr_in addr = { .sin_family = AF_INET, .sin_port = htons((unsigned short) atoi(port)) };
        addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
        if (connect(sock, (struct sockaddr *) &addr, sizeof addr) != 0) {
            if (errno != EINPROGRESS) FAILED("the resident server did not answer");
            int w = wait_fd(sock, POLLOUT, 2000), err = 0;
            socklen_t len = sizeof err;
            if (w == 0)
                FAILED("the resident's port accepted no connection within 2 s (its queue is full: a connection flood?); sent it nothing");
            if (w < 0 || getsockopt(sock, SOL_SOCKET, SO_ERROR, &err, &len) != 0 || err != 0)
                FAILED("the resident server did not answer");
        }
        int one = 1;
        setsockopt(sock, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);

        /* The proof within 2 s, before a byte is sent. */
        char greeting[160];
        snprintf(greeting, sizeof greeting, "warden-resident/3 %s", proof);
        if (getline_ms(line, sizeof line, 2000) != 0 || strcmp(line, greeting) != 0)
            FAILED("the server on the resident's port did not prove within 2 s that it is the resident (a stale endpoint file,"
                   " or a resident slowed down by load); sent it nothing");
    }

    /* The request, head and body, in one write: the resident runs it on the worker that takes it. On the
       socket, the send time (CLOCK_MONOTONIC) tells it how long the event waited for a worker. */
    char head[512], sent[48] = "";
    if (via_unix) {
        struct timespec t;
        clock_gettime(CLOCK_MONOTONIC, &t);
        snprintf(sent, sizeof sent, "X-Warden-Sent: %lld\r\n", (long long) t.tv_sec * 1000000000LL + t.tv_nsec);
    }
    int hn = snprintf(head, sizeof head, "POST /forward HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer %s\r\n"
                      "Content-Type: application/octet-stream\r\nContent-Length: %zu\r\n%sConnection: close\r\n\r\n",
                      token, body.n, sent);
    buf request = {0};
    put(&request, head, (size_t) hn);
    put(&request, body.p, body.n);
    if (send_all(request.p, request.n) != 0) FAILED("the resident server did not answer");

    /* Sent: the event is the resident's now (one with no worker free for 10 s refuses it with 503 before it
       runs), so from here a JVM could run it twice, and lateness is the fail mode. */
    int r = getline_ms(line, sizeof line, answer_s * 1000);
    if (r == -2) {
        snprintf(why, sizeof why, "the resident server took this event but gave no answer within %lld s", answer_s);
        cannot_run(why);
    }
    if (r != 0 || strncmp(line, "HTTP/1.1 200 ", 13) != 0) FAILED("the resident server did not answer");
    long long code = -1, out_bytes = -1, body_bytes = 0, n;
    for (;;) {
        if (getline_ms(line, sizeof line, 2000) != 0) FAILED("the resident server did not answer");
        if (!line[0]) break;
        if ((n = header_number(line, "x-warden-exit:")) >= 0) code = n;
        else if ((n = header_number(line, "x-warden-stdout-bytes:")) >= 0) out_bytes = n;
        else if ((n = header_number(line, "content-length:")) >= 0) body_bytes = n;
    }
    if (code < 0 || code > 255 || out_bytes < 0 || out_bytes > body_bytes || body_bytes > 1000000000LL)
        FAILED("the resident server did not answer");
    char *answer = malloc((size_t) body_bytes + 1);
    if (!answer) FAILED("the resident server did not answer");
    for (long long i = 0; i < body_bytes; i++) {
        int c = getbyte(2000);
        if (c < 0) FAILED("the resident server did not answer");
        answer[i] = (char) c;
    }
    /* Everything is read: close with a reset, so neither end lingers in TIME_WAIT (every such socket is a
       row the resident's peer lookup in /proc/net/tcp reads through on the next connection). */
    struct linger reset = { 1, 0 };
    if (!via_unix) setsockopt(sock, SOL_SOCKET, SO_LINGER, &reset, sizeof reset);
    close(sock);
    write_all(1, answer, (size_t) out_bytes);
    write_all(2, answer + out_bytes, (size_t) (body_bytes - out_bytes));
    return host_exit((int) code);
}
