#!/bin/sh
# The Java client's conformance driver as one command (docs/llm-wire-contract.md, "The driver protocol"): compiles the
# client and the driver with javac into a cache directory named by the sources' checksum (once per change of the
# sources), then runs the driver; stdin, stdout and the environment pass through.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
sources=$(find "$here/src/main/java" "$here/src/conformance/java" -name '*.java' | sort)
sum=$(cat $sources | cksum | cut -d ' ' -f 1)
out="${TMPDIR:-/tmp}/vigil-java-driver-$sum"
if [ ! -f "$out/.built" ]; then
  tmp=$(mktemp -d "${TMPDIR:-/tmp}/vigil-java-driver-build.XXXXXX")
  javac --release 17 -d "$tmp" $sources >&2
  touch "$tmp/.built"
  # Another run may have finished first: its directory is as good as this one.
  mv -T "$tmp" "$out" 2>/dev/null || rm -rf "$tmp"
fi
exec java -cp "$out" dev.vigil.conformance.ConformanceDriver
