# Sourced by the bench scripts: where things are, a scratch directory with its own Warden cache
# (removed on exit unless the script sets its own trap), the jar built if missing, and pct.
here="$(cd "$(dirname "${BASH_SOURCE[1]}")" && pwd)"
home="$(cd "$here/.." && pwd)"
work="$(mktemp -d)"
export WARDEN_CACHE_DIR="$work/cache"
trap 'rm -rf "$work"' EXIT
[ -f "$home/target/warden.jar" ] || (cd "$home" && mvn -B -q -DskipTests -Dwarden.dist.skip=true package)

# pct FILE P [DECIMALS]: the P quantile (nearest rank) of the numbers in FILE, to DECIMALS places (default 1).
pct() { sort -n "$1" | awk -v p="$2" -v d="${3:-1}" '{a[NR]=$1} END {i=int((NR-1)*p+0.5)+1; printf "%." d "f", a[i]}'; }

# scratch_payload DIR: writes the captured Claude Code PreToolUse payload with its cwd set to DIR (it
# names the capturing machine's project, which does not exist here) to $work and prints its path.
scratch_payload() {
  python3 -c 'import json, sys
p = json.load(open(sys.argv[1])); p["cwd"] = sys.argv[2]
print(json.dumps(p, separators=(",", ":")))' "$here/pretooluse-bash.json" "$1" > "$work/pretooluse-bash.json"
  echo "$work/pretooluse-bash.json"
}
