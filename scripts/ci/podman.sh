# Sourced by the CI scripts: podman configured for these machines (containers.conf, storage.conf).
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
export CONTAINERS_CONF="$here/containers.conf" CONTAINERS_STORAGE_CONF="$here/storage.conf"
