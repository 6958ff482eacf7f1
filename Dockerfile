# labdesk: the service's container image. The two stages are scripts in scripts/production/.
# CI builds this file with podman and runs the image and compose.yaml (scripts/ci/deployment.sh);
# docs/operations.md tells how to run it; compose.yaml runs two instances behind one port.

FROM node:20-trixie-slim AS build
WORKDIR /app
COPY . .
RUN scripts/production/build.sh

FROM node:20-trixie-slim
COPY scripts/production/runtime.sh /usr/local/sbin/labdesk-runtime-setup
RUN labdesk-runtime-setup
WORKDIR /app
COPY --from=build /app /app
# `labdesk …` as the docs write it: docker exec CONTAINER labdesk backup --out /data/backup-1
RUN ln -s /app/bin/labdesk.js /usr/local/bin/labdesk
ENV NODE_ENV=production HOST=0.0.0.0 PORT=8080 DATA_DIR=/data
VOLUME /data
EXPOSE 8080
USER labdesk
HEALTHCHECK --interval=10s --timeout=3s --start-period=60s \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.PORT || 8080) + '/readyz').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
CMD ["node", "bin/labdesk.js", "serve"]
