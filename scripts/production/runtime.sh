#!/usr/bin/env bash
# The image's run-time stage (Dockerfile), and what .ci/run runs the same way: what the service
# needs beside Node.js: bubblewrap for the agent's sandbox, CA certificates for outbound HTTPS,
# PostgreSQL's client tools for `labdesk backup` and `restore`, and an ordinary user to run as
# (the service never needs root; docs/operations.md).
# Idempotent: safe to run on a machine that has some of it already.
set -euo pipefail
LABDESK_UID="${LABDESK_UID:-10001}"

missing=()
command -v bwrap >/dev/null || missing+=(bubblewrap)
[ -e /etc/ssl/certs/ca-certificates.crt ] || missing+=(ca-certificates)
command -v pg_dump >/dev/null || missing+=(postgresql-client)
if [ ${#missing[@]} -gt 0 ]; then
  apt-get update
  apt-get install -y --no-install-recommends "${missing[@]}"
  rm -rf /var/lib/apt/lists/*
fi

if ! id labdesk >/dev/null 2>&1; then
  groupadd --gid "$LABDESK_UID" labdesk
  useradd --uid "$LABDESK_UID" --gid labdesk --home-dir /data --no-create-home --shell /usr/sbin/nologin labdesk
fi
# /workspaces: compose.yaml's shared AGENT_WORKSPACE_DIR; a named volume takes this owner when first mounted.
mkdir -p /data /workspaces
chown labdesk:labdesk /data /workspaces
