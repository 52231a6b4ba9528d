#!/usr/bin/env bash
# Builds Warden's linux-x64 release from target/warden.jar (run by `mvn package` after shade; skipped
# with -Dwarden.dist.skip=true):
#
#   target/dist/warden-<version>-linux-x64.tar.gz   unpack anywhere; warden-<version>/bin/warden inside
#   target/dist/agent-warden-<version>.tgz          npm pack output; `npm install -g` puts warden on PATH
#
# Both hold the same tree, which needs no JDK, no Maven and no source checkout:
#
#   bin/warden                the launcher (bin/warden of the checkout; it tells the layouts apart by lib/warden.jar)
#   lib/warden.jar            the shaded jar
#   lib/warden.jar.sha256     its hash key, lib/launcher-facts.sh the launcher's facts: what the launcher
#                             would otherwise write beside the jar on first use (the install may be read-only)
#   lib/warden-hook.c         the hook client's source: `warden install` compiles it into the user's
#                             cache where cc exists, with this install's path compiled in (as in a checkout)
#   lib/warden.classlist      the classes a dispatch loads, recorded here with the bundled runtime: the
#                             first training of the start-up archive dumps from it instead of recording
#   runtime/                  a jlink image of the modules the jar uses (jdeps) plus jdk.crypto.ec (TLS)
#   examples/                 what demo, test and init read
#   package.json              the npm package (bin: warden)
#
# The archive itself is not shipped: a JDK 17 static archive records the jar's path and mtime and the
# runtime's path, so one trained here would not map after unpacking elsewhere; the launcher trains one
# per install under the user's cache (warden install does it in the foreground).
#
# Usage: make-dist.sh VERSION JAVA_HOME (the JDK running Maven; its jlink and jdeps).
set -euo pipefail

version="$1"
jdk="$2"
base="$(cd "$(dirname "$0")/../.." && pwd -P)"
target="$base/target"
jar="$target/warden.jar"
name="warden-$version"
work="$target/dist-work"
stage="$work/$name"
dist="$target/dist"

say() { printf 'make-dist: %s\n' "$*" >&2; }

[ -f "$jar" ] || { say "$jar is missing"; exit 1; }
for tool in jlink jdeps; do
  [ -x "$jdk/bin/$tool" ] || { say "$jdk/bin/$tool is missing (a JDK, not a JRE, must run the build)"; exit 1; }
done
command -v npm >/dev/null || { say "npm is missing: it packs the npm package"; exit 1; }

rm -rf "$work" "$dist"
mkdir -p "$stage/bin" "$stage/lib" "$dist"

# The runtime: what jdeps finds, plus the TLS curves java.net.http needs for most servers.
modules="$("$jdk/bin/jdeps" --multi-release 17 --ignore-missing-deps --print-module-deps "$jar")"
modules="$modules,jdk.crypto.ec"
say "jlink runtime with $modules"
"$jdk/bin/jlink" --add-modules "$modules" --strip-debug --no-header-files --no-man-pages --compress=2 \
  --generate-cds-archive --output "$stage/runtime" >"$work/jlink.log" 2>&1 \
  || { cat "$work/jlink.log" >&2; say "jlink failed"; exit 1; }
# Packers drop or refuse symbolic links (some JDK builds link their legal notices): plain copies instead.
while IFS= read -r -d '' link; do
  cp --remove-destination -L -- "$link" "$link.copy" && mv -f -- "$link.copy" "$link"
done < <(find "$stage/runtime" -type l -print0)
java="$stage/runtime/bin/java"

install -m 0755 "$base/bin/warden" "$stage/bin/warden"
install -m 0644 "$jar" "$stage/lib/warden.jar"
install -m 0644 "$base/src/main/c/warden-hook.c" "$stage/lib/warden-hook.c"
cp -R "$base/examples" "$stage/examples"

sum="$(sha256sum "$stage/lib/warden.jar")"
printf '%s\n' "${sum:0:16}" > "$stage/lib/warden.jar.sha256"
"$java" -cp "$stage/lib/warden.jar" dev.agentwarden.Main __facts > "$stage/lib/launcher-facts.sh"

# The class list: a warm-up run (compiles the manifest cache), then the recorded run, as bin/warden's train().
train_cache="$(mktemp -d)"
trap 'rm -rf "$train_cache"' EXIT
WARDEN_TRAIN_CACHE="$train_cache" "$java" -Xshare:off -cp "$stage/lib/warden.jar" dev.agentwarden.Main __train \
  </dev/null >/dev/null
WARDEN_TRAIN_CACHE="$train_cache" "$java" -Xshare:off -XX:DumpLoadedClassList="$stage/lib/warden.classlist" \
  -cp "$stage/lib/warden.jar" dev.agentwarden.Main __train </dev/null >/dev/null
[ -s "$stage/lib/warden.classlist" ] || { say "recording the class list failed"; exit 1; }

said="$("$java" -cp "$stage/lib/warden.jar" dev.agentwarden.Main --version)"
commit="${said##*commit }"
commit="${commit%)}"
cat > "$stage/package.json" <<EOF
{
  "name": "agent-warden",
  "version": "$version",
  "description": "Agent Warden: policy, ledger and integrity runtime for AI coding-agent hooks (linux-x64, Java runtime included).",
  "license": "UNLICENSED",
  "os": ["linux"],
  "cpu": ["x64"],
  "bin": {"warden": "bin/warden"},
  "files": ["bin/", "lib/", "runtime/", "examples/", "README.md"],
  "gitHead": "${commit:-unknown}"
}
EOF
cat > "$stage/README.md" <<EOF
# Agent Warden $version (linux-x64)

A host-side runtime for AI coding agents, with its own Java runtime: no JDK or Maven needed.

    bin/warden version
    bin/warden install --host claude     # in your project
    bin/warden doctor

npm: \`npm install -g agent-warden-$version.tgz\` puts \`warden\` on PATH.
The first run after installing trains a start-up archive for this copy under ~/.cache/agent-warden.
EOF

# The sums and facts are current for the jar: the same mtime, so the launcher never rewrites them.
touch -r "$stage/lib/warden.jar" "$stage/lib/warden.jar.sha256" "$stage/lib/launcher-facts.sh"

tar -C "$work" --owner=0 --group=0 --numeric-owner -czf "$dist/$name-linux-x64.tar.gz" "$name"
(cd "$work" && npm pack --pack-destination "$dist" --ignore-scripts --loglevel=error "./$name" >/dev/null)
[ -f "$dist/agent-warden-$version.tgz" ] || { say "npm pack made no $dist/agent-warden-$version.tgz"; exit 1; }
rm -rf "$work"
for f in "$dist"/*; do
  say "$(du -h "$f" | cut -f1) $f"
done
