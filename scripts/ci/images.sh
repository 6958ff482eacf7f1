#!/usr/bin/env bash
# Builds the images the deployment checks run (scripts/ci/deployment.sh), with podman, on a
# machine that reaches no image registry: stand-ins for the base images the Dockerfile and
# compose.yaml name (Debian trixie from debootstrap, plus this machine's Node.js or Debian's
# packages; scripts/ci/standins/), then the Dockerfile, unchanged, as `labdesk:local`.
# Kept between runs under LABDESK_CI_CACHE and podman's store; a stand-in is rebuilt when
# missing or its recipe changed, labdesk:local on every run.
#   scripts/ci/images.sh             the stand-ins and labdesk:local from this checkout
#   scripts/ci/images.sh REF TAG     also the image of git REF, as TAG (the upgrade's old side)
set -euo pipefail
cd "$(dirname "$0")/../.."
source scripts/ci/podman.sh
cache="${LABDESK_CI_CACHE:-/var/cache/labdesk-ci}"
# Docker's image format: OCI's has no HEALTHCHECK (podman drops it with a warning).
build=(podman build --format docker --network host --pull=never --quiet)
step() { echo "== images: $* ($(date +%T))"; }

have() { podman image exists "$1"; }

# Debian trixie, as the registry's debian:trixie-slim is made (debootstrap minbase, no apt lists).
if ! have labdesk-ci/trixie; then
  root="$cache/trixie-root"
  if [ ! -e "$root/.complete" ]; then
    step "debootstrap trixie"
    rm -rf "$root" && mkdir -p "$cache"
    debootstrap --variant=minbase trixie "$root" http://deb.debian.org/debian >/dev/null
    cat > "$root/etc/apt/sources.list" <<'LIST'
deb http://deb.debian.org/debian trixie main
deb http://deb.debian.org/debian trixie-updates main
deb http://deb.debian.org/debian-security trixie-security main
LIST
    rm -rf "$root"/var/cache/apt/archives/*.deb "$root"/var/lib/apt/lists/*
    touch "$root/.complete"
  fi
  step "import labdesk-ci/trixie"
  tar -C "$root" --exclude=./.complete -c . | podman import --quiet - labdesk-ci/trixie >/dev/null
fi

# A stand-in is rebuilt when its recipe changed: its Containerfile, the standins' scripts, and
# (for node) the machine's Node.js, hashed into a label.
recipe() { { cat "scripts/ci/standins/$1" scripts/ci/standins/*.sh; node --version; } | sha256sum | cut -c1-16; }
current() { [ "$(podman image inspect --format '{{index .Labels "labdesk-ci.recipe"}}' "$1" 2>/dev/null)" = "$(recipe "$2")" ]; }
standin() { # name, Containerfile, context
  current "$1" "$2" && return 0
  step "stand-in $1"
  "${build[@]}" --label "labdesk-ci.recipe=$(recipe "$2")" -t "$1" -f "scripts/ci/standins/$2" "$3" >/dev/null
}

# node:20-trixie-slim: this machine's Node.js and npm in the trixie root.
if ! current docker.io/library/node:20-trixie-slim node.Containerfile; then
  context="$(mktemp -d)"
  cp "$(command -v node)" "$context/node"
  cp -r "$(dirname "$(readlink -f "$(command -v npm)")")/.." "$context/npm"
  cp "${NODE_EXTRA_CA_CERTS:-/etc/ssl/certs/ca-certificates.crt}" "$context/ca.crt"
  standin docker.io/library/node:20-trixie-slim node.Containerfile "$context"
  rm -rf "$context"
fi
standin docker.io/library/postgres:17 postgres.Containerfile scripts/ci/standins
standin docker.io/library/redis:7 redis.Containerfile scripts/ci/standins
standin docker.io/library/nginx:1.27 nginx.Containerfile scripts/ci/standins
standin labdesk-ci/s3rver s3.Containerfile scripts/ci/standins

step "labdesk:local from the checkout"
"${build[@]}" -t labdesk:local . >/dev/null

if [ $# -ge 2 ]; then
  ref="$1" tag="$2"
  if ! have "$tag"; then
    step "$tag from $ref"
    # Older Dockerfiles name node:20-slim (bookworm in the registry): the trixie stand-in serves,
    # as the upgrade is about the data and the schema, not the base.
    have docker.io/library/node:20-slim || podman tag docker.io/library/node:20-trixie-slim docker.io/library/node:20-slim
    old="$(mktemp -d)"
    git archive "$ref" | tar -x -C "$old"
    "${build[@]}" -t "$tag" "$old" >/dev/null
    rm -rf "$old"
  fi
fi
echo "== images: ready ($(date +%T))"
