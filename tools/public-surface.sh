#!/usr/bin/env bash
# Prints, per package of src/main/java, the number of top-level types, how many are public, and how
# many of the public ones no file outside the package names (a candidate for package-private).
#
# "Outside the package" is any file that names the type by its qualified name (an import, a
# fully-qualified use, a class name in a string) and is not a source file of that same package in
# src/main/java or src/test/java: other packages' sources and tests, bench/, bin/, resources, pom.xml.
# Warden uses no wildcard imports of its own packages, so a qualified name is the only way in.
#
# Usage: tools/public-surface.sh [--list]   (--list also names each public type used only inside)
set -euo pipefail
cd "$(dirname "$0")/.."
list=${1:-}

refs=$(mktemp); types=$(mktemp)
trap 'rm -f "$refs" "$types"' EXIT

# file -> referenced qualified type, from every text file that could name a class.
grep -rIoE 'dev[./]agentwarden([./][a-z0-9_]+)*[./][A-Z][A-Za-z0-9_]*' \
    src bench bin pom.xml docs 2>/dev/null | tr '/' '.' | sed -E 's/^([^:]*):/\1 /' > "$refs" || true
# The file name went through tr as well: map it back to the package it belongs to, or "other".
awk '{
  f=$1; pkg="other";
  if (match(f, /^src\.(main|test)\.java\.dev\.agentwarden\./)) {
    p=f; sub(/^src\.(main|test)\.java\./, "", p); sub(/\.[A-Za-z0-9_]+\.java$/, "", p); pkg=p
  }
  print pkg, $2
}' "$refs" | sort -u > "$refs.pkg"; mv "$refs.pkg" "$refs"

find src/main/java -name '*.java' ! -name package-info.java | sort | while read -r f; do
  name=$(basename "$f" .java)
  pkg=$(dirname "$f" | sed 's|^src/main/java/||; s|/|.|g')
  if grep -qE "^public( (final|abstract|sealed|non-sealed|strictfp))* (class|interface|record|enum|@interface) $name\b" "$f"; then
    pub=1
  else
    pub=0
  fi
  echo "$pkg $name $pub"
done > "$types"

awk -v list="$list" '
  FNR == NR { outside[$2] = outside[$2] " " $1; next }
  {
    pkg = $1; fq = $1 "." $2; total[pkg]++; T++
    if ($3 == 1) {
      pub[pkg]++; P++
      n = split(outside[fq], users, " "); ext = 0
      for (i = 1; i <= n; i++) if (users[i] != pkg) ext = 1
      if (!ext) { inner[pkg]++; I++; if (list == "--list") names[pkg] = names[pkg] " " $2 }
    }
  }
  END {
    for (p in total) printf "%-34s %6d %6d %12d%s\n", p, total[p], pub[p], inner[p], names[p] ? "  " names[p] : ""
    printf "%-34s %6d %6d %12d\n", "~TOTAL", T, P, I
  }' "$refs" "$types" | sort | sed '1i package                             types public public-inner'

