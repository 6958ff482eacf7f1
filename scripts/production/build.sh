#!/usr/bin/env bash
# The image's build stage (Dockerfile), and what .ci/run runs the same way: turns a copy of the
# repository (what `docker build` copies, see .dockerignore) into the tree the service runs in
# production: compiled JavaScript, the web assets and the run-time dependencies, nothing else.
# Run it inside that copy; it changes the copy in place.
set -euo pipefail
cd "${1:-.}"

# The lockfile's versions. (`npm ci` fails on some registry mirrors; .ci/run says why.)
npm install --no-audit --no-fund --prefer-offline
npm run build --silent
npm prune --omit=dev --no-audit --no-fund

# Sources, tests and tooling: the service runs dist/ only (bin/labdesk.js never compiles here:
# TypeScript is gone with the dev dependencies).
rm -rf src facade migrations bench test docs scripts/dev scripts/build-console.js scripts/clean-dist.js web/console dist/bench \
  codegen.yml jest.config.js redocly.yaml tsconfig.json tsconfig.check.json .ci
echo "labdesk: production tree ready in $PWD: $(du -sh . | cut -f1), $(npm ls --omit=dev --all --parseable 2>/dev/null | sort -u | wc -l) packages"
