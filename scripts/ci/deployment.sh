#!/usr/bin/env bash
# The deployment as shipped, built and run with podman (.ci/run's last stage; docs/operations.md,
# "Checking a deployment"): the images (scripts/ci/images.sh), then test/deployment.test.ts: the
# image on its own, compose.yaml's stack through its proxy, an upgrade, faults, backup and restore.
set -euo pipefail
cd "$(dirname "$0")/../.."
source scripts/ci/podman.sh

# The upgrade starts from the commit before the newest migration was added, so that it applies
# one (a later edit of a migration's comments does not count). A shallow clone fetches history.
if [ -f "$(git rev-parse --git-dir)/shallow" ]; then git fetch --quiet --unshallow; fi
from="$(git rev-parse --short "$(git log -1 --diff-filter=A --format=%H -- 'migrations/Migration*')^")"
scripts/ci/images.sh "$from" "labdesk:upgrade-from-$from"

echo "== deployment checks ($(date +%T)) =="
LABDESK_DEPLOYMENT_TESTS=required CONTAINER_ENGINE=podman LABDESK_IMAGE=labdesk:local \
  LABDESK_UPGRADE_FROM_IMAGE="labdesk:upgrade-from-$from" npx jest test/deployment.test.ts "$@"
