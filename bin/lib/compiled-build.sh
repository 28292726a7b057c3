#!/usr/bin/env bash
# bin/lib/compiled-build.sh — brings the compiled build in dist/ (`npm run build`: tsc -p tsconfig.build.json) up to
# date, once: every runner of the production topology calls it (start:cluster, the cluster bench and crash
# campaign, the drills, the deploy scripts, the tests that start such a topology). Several may call it at once (two
# jest workers, a drill beside a test): one compiles, under a lock, and the others wait and find the build current,
# instead of rewriting dist/ under processes that are starting from it. Current means: dist/.build-stamp holds the
# hash of the sources it was compiled from (src, workflows, activities, worker, the tsconfigs, package-lock.json).
# Progress goes to stderr, prefixed with [setup].
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd -P)"
cd "$ROOT"
# shellcheck source=common.sh
source bin/lib/common.sh
mkdir -p .data
exec 9>.data/compiled-build.lock
flock 9
sources_hash() {
  { find src workflows activities worker -type f \( -name '*.ts' -o -name '*.json' \) -print0 | sort -z | xargs -0 sha256sum
    sha256sum tsconfig.json tsconfig.build.json package-lock.json; } | sha256sum | cut -c1-32
}
wanted="$(sources_hash)"
if [ -f dist/worker/main.js ] && [ "$(cat dist/.build-stamp 2>/dev/null || true)" = "$wanted" ]; then
  say "compiled build in dist/ is up to date"
  exit 0
fi
say "compiling the service (npm run build → dist/)"
rm -f dist/.build-stamp
node_modules/.bin/tsc -p tsconfig.build.json
echo "$wanted" >dist/.build-stamp
