# labdesk: the service's container image. Every RUN step is a script in scripts/production/ that
# .ci/run also runs, as it is, on a copy of the checkout (no Docker engine runs in our CI).
# docs/operations.md tells how to run it; compose.yaml runs two instances behind one port.

FROM node:20-slim AS build
WORKDIR /app
COPY . .
RUN scripts/production/build.sh

FROM node:20-slim
COPY scripts/production/runtime.sh /usr/local/sbin/labdesk-runtime-setup
RUN labdesk-runtime-setup
WORKDIR /app
COPY --from=build /app /app
ENV NODE_ENV=production HOST=0.0.0.0 PORT=8080 DATA_DIR=/data
VOLUME /data
EXPOSE 8080
USER labdesk
HEALTHCHECK --interval=10s --timeout=3s --start-period=60s \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.PORT || 8080) + '/readyz').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
CMD ["node", "bin/labdesk.js", "serve"]
