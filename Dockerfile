# The engine image: API, admin API and worker in one process, against an external Temporal
# (TEMPORAL_ADDRESS) and PostgreSQL (DATABASE_URL). Scale out with `npm run api` / `npm run worker`.
FROM node:20-bookworm-slim
WORKDIR /app
ENV NODE_ENV=production PIX_SKIP_TEMPORAL_INSTALL=1
COPY package.json package-lock.json ./
# No install scripts: the project's postinstall fetches test tools (Temporal CLI, Schemathesis) and generates
# type declarations, none of which the running engine needs; the driver's patch is applied by hand.
COPY scripts/patch-postgres.mjs ./scripts/
RUN npm ci --omit=dev --ignore-scripts --no-audit --no-fund && node scripts/patch-postgres.mjs
COPY src ./src
COPY contracts ./contracts
COPY workflows ./workflows
COPY activities ./activities
COPY bin ./bin
COPY scripts ./scripts
COPY tsconfig.json ./
# The engine runs from its JavaScript build (scripts/build.mjs); the worker bundles workflows/ from the sources.
RUN node scripts/build.mjs
# DATA_DIR of the compose file: payload keys made on first start (a named volume takes this owner).
RUN mkdir -p /data && chown node:node /data
USER node
EXPOSE 3000 3001
# Launched as `npm start` launches it: scripts/launch.sh holds the engine's Node options and malloc arenas, and
# execs node, which stays PID 1 and gets the container's signals (docs/configuration.md).
CMD ["sh", "scripts/launch.sh", "dist/src/main.js", "all"]
