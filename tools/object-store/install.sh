#!/usr/bin/env bash
# Installs the local S3-compatible object store used by tools/lib/object-store.ts: Ceph RADOS
# Gateway with one monitor and one OSD (Debian packages; 16.2.x on bookworm). Installing starts
# no daemon (there is no cluster config); tools/lib/object-store.ts runs them itself, as children.
# Idempotent, and silent when everything is already installed. Run as root (or with sudo).
set -euo pipefail

# ceph-common: ceph, radosgw-admin, monmaptool, ceph-authtool
packages=(ceph-common ceph-mon ceph-osd radosgw)

missing=()
for pkg in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q 'install ok installed'; then
    missing+=("$pkg")
  fi
done
[ ${#missing[@]} -eq 0 ] && exit 0

sudo=()
if [ "$(id -u)" -ne 0 ]; then
  if command -v sudo >/dev/null 2>&1; then
    sudo=(sudo)
  else
    echo "install.sh: root (or sudo) is needed to install: ${missing[*]}" >&2
    exit 1
  fi
fi

echo "installing ${missing[*]} ..."
log=$(mktemp)
trap 'rm -f "$log"' EXIT
apt() {
  if ! "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get "$@" >"$log" 2>&1; then
    cat "$log" >&2
    echo "install.sh: apt-get $* failed" >&2
    exit 1
  fi
}
apt update -qq
apt install -y -qq --no-install-recommends "${missing[@]}"
echo "installed: $(radosgw --version | head -n1)"
