#!/usr/bin/env bash
# The test suite as an ordinary user (issue 24: a contributor who is not root can run it and trust
# it). Run as root: copies the checkout (node_modules included, .git and the other Node lines left
# out) into a fresh folder owned by the user, and builds and runs vitest there as that user, with a
# HOME of its own. Anyone else runs it in place.
#   scripts/test-as-user.sh            as nobody
#   TEST_USER=alice scripts/test-as-user.sh
set -euo pipefail
cd "$(dirname "$0")/.."
if [ "$(id -u)" != 0 ]; then
  exec node node_modules/vitest/vitest.mjs run
fi
user="${TEST_USER:-nobody}"
work="$(mktemp -d /tmp/tokenintel-user-XXXXXX)"
trap 'rm -rf "$work"' EXIT
tar --exclude='./.cache' --exclude=./.git --exclude=./dist -cf - . | tar -C "$work" -xf -
mkdir "$work/.home"
chown -R "$user" "$work"
chmod 700 "$work/.home"
echo "=== the test suite as $user ($(runuser -u "$user" -- id -u)) ==="
cd "$work"
as_user() { runuser -u "$user" -- env -i PATH="$PATH" HOME="$work/.home" LANG="${LANG:-C.UTF-8}" "$@"; }
# Built again by the user, as a contributor would: the build's records name the folder it ran in.
as_user node scripts/build.mjs
as_user node node_modules/vitest/vitest.mjs run
