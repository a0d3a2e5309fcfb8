#!/usr/bin/env bash
# Offline stand-ins for the two base images of Dockerfile and deploy/compose.yaml, for a machine whose Docker
# engine cannot pull from a registry but reaches Debian's mirror (and PyPI, for the app's own build):
#   python:3.11-slim     Debian bookworm's python3 (3.11) as a venv at /usr/local, so python, pip and what pip
#                        installs land in /usr/local/bin as in the official image, and pip needs no
#                        --break-system-packages
#   nginx:stable-alpine  Debian's nginx, with the official image's `nginx` user, log links and CMD
# Only a substitute to check the recipe here: users get the real images. Skips an image that already exists,
# so it never replaces a real one.   bash bench/docker_standins.sh
set -euo pipefail
mirror=${DEBIAN_MIRROR:-http://deb.debian.org/debian}
base=attention-standin/bookworm:minbase
have() { docker image inspect "$1" > /dev/null 2>&1; }
root= cas=
trap 'rm -rf "$root" "$cas"' EXIT

# BUILD_NETWORK=host where the bridge network cannot resolve or reach the mirror.
network=${BUILD_NETWORK:-default}

if ! have python:3.11-slim || ! have nginx:stable-alpine; then
  if ! have "$base"; then
    root=$(mktemp -d "${TMPDIR:-/tmp}/bookworm.XXXXXX")
    debootstrap --variant=minbase bookworm "$root" "$mirror"
    # As in Debian's official slim images: services never start during a build, downloaded .debs are dropped, no
    # manuals, docs or translations (so that image sizes compare with the real ones).
    printf '#!/bin/sh\nexit 101\n' > "$root/usr/sbin/policy-rc.d"
    chmod +x "$root/usr/sbin/policy-rc.d"
    echo 'DPkg::Post-Invoke { "rm -f /var/cache/apt/archives/*.deb || true"; };' > "$root/etc/apt/apt.conf.d/docker-clean"
    printf 'path-exclude /usr/share/%s/*\n' doc man groff info locale lintian > "$root/etc/dpkg/dpkg.cfg.d/docker-slim"
    echo 'path-include /usr/share/doc/*/copyright' >> "$root/etc/dpkg/dpkg.cfg.d/docker-slim"
    find "$root"/usr/share/{doc,man,groff,info,locale,lintian} -mindepth 1 ! -name copyright ! -type d -delete 2>/dev/null || true
    rm -rf "$root"/var/cache/apt/archives/*.deb
    printf 'deb %s bookworm main\ndeb %s bookworm-updates main\ndeb http://deb.debian.org/debian-security bookworm-security main\n' \
      "$mirror" "$mirror" > "$root/etc/apt/sources.list"
    rm -rf "$root"/var/lib/apt/lists/* "$root"/var/cache/apt/*.bin
    # The label marks everything built on a stand-in, so a report can say which base it measured.
    tar -C "$root" -c . | docker import --change 'LABEL attention.standin=bookworm' --change 'CMD ["bash"]' - "$base"
  fi

  # A host that reaches PyPI through a TLS-intercepting proxy trusts that proxy's CA; the stand-in does too, or
  # pip could not install anything here. (The real image on such a host would need the same.)
  cas=$(mktemp -d "${TMPDIR:-/tmp}/standin-ca.XXXXXX")
  cp /usr/local/share/ca-certificates/*.crt "$cas/" 2>/dev/null || true
fi

if ! have python:3.11-slim; then
  docker build --network "$network" -t python:3.11-slim -f - "$cas" <<EOF
FROM $base
RUN apt-get update && apt-get install -y --no-install-recommends python3 python3-venv ca-certificates netbase tzdata \
 && python3 -m venv /usr/local && rm -rf /var/lib/apt/lists/*
COPY . /usr/local/share/ca-certificates/
RUN update-ca-certificates
ENV PATH=/usr/local/bin:/usr/local/sbin:/usr/sbin:/usr/bin:/sbin:/bin LANG=C.UTF-8 PYTHON_VERSION=3.11
CMD ["python3"]
EOF
fi

if ! have nginx:stable-alpine; then
  # Logs to the container's output and an `nginx` user, as in the official image. Its workers run as `nginx` by its
  # build default; Debian's build default is nobody, so with compose's nginx.conf (no `user` line) they do here.
  docker build --network "$network" -t nginx:stable-alpine -f - "$cas" <<EOF
FROM $base
RUN apt-get update && apt-get install -y --no-install-recommends nginx && rm -rf /var/lib/apt/lists/* \
 && groupadd --system --gid 101 nginx \
 && useradd --system --uid 101 --gid nginx --no-create-home --home-dir /nonexistent --shell /bin/false nginx \
 && rm -f /etc/nginx/sites-enabled/default && mkdir -p /etc/nginx/conf.d /var/cache/nginx \
 && ln -sf /dev/stdout /var/log/nginx/access.log && ln -sf /dev/stderr /var/log/nginx/error.log
EXPOSE 80
STOPSIGNAL SIGQUIT
CMD ["nginx", "-g", "daemon off;"]
EOF
fi
docker image ls --format '{{.Repository}}:{{.Tag}}  {{.Size}}' | grep -E '^(python:3.11-slim|nginx:stable-alpine|attention-standin)'
