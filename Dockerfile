# syntax=docker/dockerfile:1
# The headless bridge in a container: Node 22 (slim), with uv/uvx and Python for `uvx` servers.
# Config and state live in the /data volume. See compose.yaml and the README ("Docker").
# This file is built by .github/workflows/docker.yml (no Docker engine on the development machines).

ARG NODE_IMAGE=node:22-bookworm-slim
ARG UV_VERSION=0.12

# uv's official image, only to copy its two binaries from.
FROM ghcr.io/astral-sh/uv:${UV_VERSION} AS uv

# Build the bundles and pack the npm package: the very tarball scripts/pack.mjs makes (and the tests install).
# JavaScript only, so it is built once on the build machine's platform, whatever the target.
FROM --platform=$BUILDPLATFORM ${NODE_IMAGE} AS build
WORKDIR /src
ENV ELECTRON_SKIP_BINARY_DOWNLOAD=1
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY . .
RUN node scripts/pack.mjs --pack-destination /tmp && mv /tmp/xiaozhi-tray-*.tgz /tmp/xiaozhi-tray.tgz

FROM ${NODE_IMAGE}
# python3 for uvx servers that use the system Python (uv downloads others into the volume when asked),
# tini to pass signals on and reap what servers leave behind, ca-certificates for https endpoints.
RUN apt-get update \
 && apt-get install -y --no-install-recommends python3 tini ca-certificates \
 && rm -rf /var/lib/apt/lists/*
COPY --from=uv /uv /uvx /usr/local/bin/
COPY --from=build /tmp/xiaozhi-tray.tgz /tmp/xiaozhi-tray.tgz
RUN npm install --global --no-audit --no-fund /tmp/xiaozhi-tray.tgz \
 && rm /tmp/xiaozhi-tray.tgz \
 && npm cache clean --force \
 && mkdir /data && chown node:node /data

# HOME in the volume: npx's and uv's caches survive a restart, so servers start fast the second time.
ENV HOME=/data
USER node
WORKDIR /data
VOLUME ["/data"]
# The web UI is off unless asked for (see compose.yaml); 8080 is the port the examples use.
EXPOSE 8080
ENTRYPOINT ["tini", "--", "xiaozhi-tray"]
CMD ["run", "--config", "/data/xiaozhi-tray.json"]
