#!/bin/sh
# Builds the Java client with the JDK alone (javac, jar; Java 17 or later): build/classes holds the client and the
# conformance driver, build/vigil-client.jar the client. With "test", builds and runs the tests (plain Java, no JUnit).
set -eu
cd "$(dirname "$0")"
rm -rf build
javac --release 17 -Xlint:all -Werror -d build/classes $(find src/main/java src/conformance/java -name '*.java')
jar --create --file build/vigil-client.jar -C build/classes dev/vigil/client
if [ "${1:-}" = "test" ]; then
  javac --release 17 -Xlint:all -Werror -cp build/classes -d build/test-classes $(find src/test/java -name '*.java')
  java -cp build/classes:build/test-classes dev.vigil.client.TestRunner
fi
