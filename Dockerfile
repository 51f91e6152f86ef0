# tokenintel's MCP server over HTTP (`tokenintel mcp --http`), for running behind a TLS proxy.
#   docker build -t tokenintel-mcp .
#   docker volume create tokenintel-data
#   docker run --rm -v tokenintel-data:/data tokenintel-mcp mcp tokens add my-agent
#   docker run -d --name tokenintel -p 127.0.0.1:8080:8080 -v tokenintel-data:/data \
#     -e TOKENINTEL_API_KEY --stop-timeout 15 tokenintel-mcp \
#     mcp --http 0.0.0.0:8080 --allowed-hosts mcp.example.com
# Everything tokenintel keeps (tokens, the payment ledger, config, cache) is in the one volume /data.
# See docs/remote-mcp.md.

ARG NODE_VERSION=24

FROM node:${NODE_VERSION}-slim AS build
WORKDIR /src
COPY package.json package-lock.json ./
COPY bin ./bin
COPY scripts ./scripts
COPY src ./src
COPY tsconfig.json README.md LICENSE CHANGELOG.md ./
# npm ci builds dist/ (the prepare script); the package is what `npm pack` would publish.
RUN npm ci --no-audit --no-fund && mkdir /pkg && npm pack --pack-destination /pkg

FROM node:${NODE_VERSION}-slim
COPY --from=build /pkg /pkg
# The package has no runtime dependencies (dist/ is bundled), and nothing of it runs at install.
RUN npm install --global --ignore-scripts --no-audit --no-fund /pkg/tokenintel-*.tgz && rm -rf /pkg \
  && mkdir /data && chown node:node /data && chmod 700 /data
ENV NODE_ENV=production \
    TOKENINTEL_DATA_DIR=/data \
    TOKENINTEL_CONFIG_DIR=/data/config \
    TOKENINTEL_CACHE_DIR=/data/cache
USER node
VOLUME /data
EXPOSE 8080
# /healthz answers 200 without a token, and nothing else; 503 while the server stops.
HEALTHCHECK --interval=30s --timeout=3s --start-period=10s \
  CMD ["node", "-e", "fetch('http://127.0.0.1:8080/healthz').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
# SIGTERM (docker stop) lets calls in flight finish for up to 10 s: give it --stop-timeout 15.
STOPSIGNAL SIGTERM
ENTRYPOINT ["tokenintel"]
CMD ["mcp", "--http", "0.0.0.0:8080"]
