# What the container tests share (sourced): podman set up for this machine,
# look-alike base images under the official names, and `build_image`, which
# builds loaderd:test from the unmodified Dockerfile (layers cached between
# runs, so a second build of the same tree takes seconds).
#
# No Docker engine or registry here: debian:bookworm-slim is made by
# debootstrap; swift:6.3-bookworm is Debian plus the toolchain's build
# dependencies, with the machine's toolchain mounted read-only during the
# build. They stay in podman's storage, so later runs reuse them.
#
#   source Tests/system/podman_env.sh OUTPUT_DIR
podman_out=$(mkdir -p "$1" && cd "$1" && pwd)
need() { command -v "$1" >/dev/null 2>&1; }
if ! need podman || ! need buildah || ! need runc || ! need debootstrap; then
  if ! (apt-get update -qq >/dev/null && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq podman buildah runc debootstrap >/dev/null); then
    echo "SKIPPED: podman cannot be installed on this machine"
    exit 0
  fi
fi
# Root here lacks CAP_SYS_RESOURCE (podman's default ulimits fail) and crun
# refuses this machine's hybrid cgroups; runc works.
export CONTAINERS_CONF="$podman_out/containers.conf"
cat > "$CONTAINERS_CONF" <<'CONF'
[containers]
default_ulimits = ["nofile=20000:20000", "nproc=4096:4096"]
[engine]
runtime = "runc"
cgroup_manager = "cgroupfs"
CONF

if ! podman image exists docker.io/library/debian:bookworm-slim; then
  echo "making debian:bookworm-slim (debootstrap)"
  rootfs=$(mktemp -d)
  debootstrap --variant=minbase bookworm "$rootfs" >/dev/null
  tar -C "$rootfs" -c . | podman import - docker.io/library/debian:bookworm-slim >/dev/null
  rm -rf "$rootfs"
fi
toolchain=$(dirname "$(dirname "$(dirname "$(readlink -f "$(command -v swift)")")")")
if ! podman image exists docker.io/library/swift:6.3-bookworm; then
  echo "making swift:6.3-bookworm (Debian, the toolchain's build dependencies, PATH to $toolchain)"
  podman build -q -t docker.io/library/swift:6.3-bookworm -f - . >/dev/null <<DOCKERFILE
FROM docker.io/library/debian:bookworm-slim
RUN apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends \
    binutils git libc6-dev libcurl4-openssl-dev libedit2 libgcc-12-dev libncurses-dev libsqlite3-0 \
    libstdc++-12-dev libxml2-dev pkg-config tzdata zlib1g-dev && rm -rf /var/lib/apt/lists/*
ENV PATH=$toolchain/usr/bin:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin
DOCKERFILE
fi


# BUILDAH_FORMAT=docker, as docs/DEPLOY.md tells podman users: podman's own
# format (OCI) has no HEALTHCHECK and would drop the Dockerfile's.
build_image() {
  echo "building the image from ./Dockerfile"
  start=$(date +%s)
  BUILDAH_FORMAT=docker podman build -q -v "$toolchain:$toolchain:ro" -t loaderd:test . >/dev/null
  echo "image built in $(( $(date +%s) - start )) s"
}

# Look-alikes of the official redis:7 and nginx:1.27 under their names, from
# Debian's packages, laid out as the official images are (redis: user 999,
# /data, redis-server as entrypoint; nginx: conf.d/*.conf in the http
# context, nothing else listening, logs to the container's output).
redis_image() {
  podman image exists docker.io/library/redis:7 && return
  echo "making redis:7 (Debian's redis-server)"
  podman build -q -t docker.io/library/redis:7 -f - . >/dev/null <<'DOCKERFILE'
FROM docker.io/library/debian:bookworm-slim
RUN apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends redis-server \
 && rm -rf /var/lib/apt/lists/* && usermod -u 999 redis && groupmod -g 999 redis && mkdir -p /data && chown 999:999 /data
WORKDIR /data
ENTRYPOINT ["redis-server"]
DOCKERFILE
}

nginx_image() {
  podman image exists docker.io/library/nginx:1.27 && return
  echo "making nginx:1.27 (Debian's nginx-light)"
  podman build -q -t docker.io/library/nginx:1.27 -f - . >/dev/null <<'DOCKERFILE'
FROM docker.io/library/debian:bookworm-slim
RUN apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends nginx-light \
 && rm -rf /var/lib/apt/lists/* /etc/nginx/sites-enabled/* \
 && ln -sf /dev/stdout /var/log/nginx/access.log && ln -sf /dev/stderr /var/log/nginx/error.log
CMD ["nginx", "-g", "daemon off;"]
DOCKERFILE
}

# What both Compose stages need: the loaderd image as the files' `loaderd:latest`,
# the Redis and nginx look-alikes, podman-compose, and what a user puts in
# deploy/compose: the secrets file (here in the output directory, named by
# LOADERD_SECRETS_FILE as deploy/compose/.env may) and LOADERD_HTTP_PORT,
# exported, with the password itself as REDIS_PASSWORD for the tests.
random_secret() { head -c 32 /dev/urandom | od -An -tx1 | tr -d ' \n'; }
compose_env() {
  build_image
  podman tag loaderd:test localhost/loaderd:latest
  redis_image
  nginx_image
  if ! command -v podman-compose >/dev/null 2>&1; then
    apt-get update -qq >/dev/null && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq podman-compose >/dev/null
  fi
  REDIS_PASSWORD=$(random_secret)
  LOADERD_SECRETS_FILE=$podman_out/secrets.env
  (umask 077; echo "LOADERD_REDIS_PASSWORD=$REDIS_PASSWORD" > "$LOADERD_SECRETS_FILE")
  LOADERD_HTTP_PORT=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
  export REDIS_PASSWORD LOADERD_SECRETS_FILE LOADERD_HTTP_PORT
}
