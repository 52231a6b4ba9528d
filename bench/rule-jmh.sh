#!/usr/bin/env bash
# JMH benchmarks of builtin:rule as the resident runs it (bench/jmh: a Maven project of its own, never
# built by the root build): target/warden.jar is rebuilt from this checkout (tests skipped), then the
# benchmarks are compiled against it and run. Arguments are JMH's (default -f 1 -wi 3 -i 5); e.g.
#
#   bench/rule-jmh.sh                                   every benchmark, 1 fork, 3 warm-up and 5 measured iterations
#   bench/rule-jmh.sh -f 1 -wi 3 -w 2s -i 5 -r 2s       shorter iterations, for a busy machine
#   bench/rule-jmh.sh ResidentDispatchBench -p rule=NONE,REGEX
set -euo pipefail
home="$(cd "$(dirname "$0")/.." && pwd)"
cd "$home"
mvn -B -q package -Dmaven.test.skip=true -Dwarden.dist.skip=true
args="${*:--f 1 -wi 3 -i 5}"
mvn -B -q -f bench/jmh/pom.xml compile exec:exec -Djmh.args="$args"
