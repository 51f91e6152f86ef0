#!/usr/bin/env bash
# The test suite as an ordinary user, so that a contributor who is not root can run it and trust
# it. Run as root: copies the checkout (node_modules included, .git and the other Node lines left
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
if ! id "$user" >/dev/null 2>&1 || ! command -v runuser >/dev/null; then
  echo "test-as-user: no user $user or no runuser on this machine; not run" >&2
  exit 0
fi
work="$(mktemp -d /tmp/tokenintel-user-XXXXXX)"
trap 'rm -rf "$work"' EXIT
tar --exclude='./.cache' --exclude=./.git --exclude=./dist -cf - . | tar -C "$work" -xf -
mkdir "$work/.home" "$work/.bin"
# A node the user cannot reach (installed under /root, say) is copied in beside the checkout.
if ! runuser -u "$user" -- "$(command -v node)" --version >/dev/null 2>&1; then
  cp "$(command -v node)" "$work/.bin/node"
fi
PATH="$work/.bin:$PATH"
chown -R "$user" "$work"
chmod 700 "$work/.home"
echo "=== the test suite as $user ($(runuser -u "$user" -- id -u)) ==="
cd "$work"
as_user() { runuser -u "$user" -- env -i PATH="$PATH" HOME="$work/.home" LANG="${LANG:-C.UTF-8}" "$@"; }
# Built again by the user, as a contributor would: the build's records name the folder it ran in.
as_user node scripts/build.mjs
as_user node node_modules/vitest/vitest.mjs run
