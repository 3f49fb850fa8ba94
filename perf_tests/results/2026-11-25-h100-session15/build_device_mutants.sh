#!/bin/bash
# Builds libegemm once per device-code mutant (device_mutants.py) in the repository's build-dev,
# (or only those named as arguments), keeps each stripped library in /tmp/mutdev/libs, restores backends/ after each (commit first).
HERE=$(cd "$(dirname "$0")" && pwd)
cd "$HERE/../../.."  # the repository
export PATH=$PATH:/usr/local/cuda/bin
mkdir -p /tmp/mutdev/libs
names=${*:-$(python3 -c "import sys; sys.path.insert(0, '$HERE'); from device_mutants import MUTANTS; print(' '.join(m[0] for m in MUTANTS))")}
for name in $names; do
  python3 - "$name" "$HERE" <<'PY' || exit 1
import sys; sys.path.insert(0, sys.argv[2]); from device_mutants import MUTANTS
name = sys.argv[1]; m = [x for x in MUTANTS if x[0] == name][0]
s = open(m[1]).read(); assert s.count(m[2]) == 1, (name, s.count(m[2])); open(m[1], "w").write(s.replace(m[2], m[3]))
PY
  t0=$SECONDS
  if cmake --build build-dev -j2 --target egemm > /tmp/mutdev/$name.build.log 2>&1; then
    strip --strip-debug -o /tmp/mutdev/libs/$name.so build-dev/src/libegemm.so.0.1.0
    echo "$name built in $((SECONDS - t0)) s"
  else
    echo "$name FAILED to build"; tail -5 /tmp/mutdev/$name.build.log
  fi
  git checkout -- backends
done
cmake --build build-dev -j2 --target egemm > /tmp/mutdev/clean.build.log 2>&1 && echo "clean library rebuilt"
