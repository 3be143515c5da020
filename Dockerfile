# Tavla in a container: the README's own two steps (`npm ci`, `npm run build`),
# then a slim runtime that holds only what `node dist/server/main.js` needs.

# --- build: the server and the web app
FROM node:24-bookworm-slim AS build
WORKDIR /app
# No compiler: on Node 24 Tavla loads better-sqlite3's 13 line, whose binary ships
# in the package. The 12 line (`better-sqlite3-node20`, for Node 20 only) is an
# optional dependency that cannot compile here, so npm leaves it out.
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY . .
RUN npm run build \
 && npm prune --omit=dev --no-audit --no-fund

# --- runtime
FROM node:24-bookworm-slim
ENV NODE_ENV=production \
    PORT=3000 \
    HOST=0.0.0.0 \
    DATA_DIR=/data
WORKDIR /app
COPY --from=build /app/package.json ./
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
# The command line: `tavla <command>` (on the PATH) or `npx tavla <command>` run dist/server/cli.js through it.
COPY --from=build /app/bin ./bin
# The `node` user (uid 1000) of the base image runs the service and owns its data.
RUN mkdir -p /data && chown node:node /data \
 && ln -s /app/bin/tavla.mjs /usr/local/bin/tavla
USER node
VOLUME ["/data"]
EXPOSE 3000
HEALTHCHECK --interval=30s --timeout=5s --start-period=30s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:'+(process.env.PORT||3000)+'/api/health').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]
CMD ["node", "dist/server/main.js"]
