# One image for every service; SERVICES (see docker-compose.yml) picks what a container hosts.
FROM node:20-bookworm-slim AS build
WORKDIR /app
RUN npm i -g pnpm@10
COPY pnpm-lock.yaml pnpm-workspace.yaml package.json tsconfig.base.json tsconfig.json ./
COPY libs libs
COPY services services
COPY platform platform
COPY bench/package.json bench/package.json
# The web console: pnpm install's postinstall builds it to apps/console/dist.
COPY apps apps
RUN pnpm install --frozen-lockfile
COPY scripts scripts
RUN node scripts/bundle.mjs

FROM node:20-bookworm-slim AS runtime
ENV NODE_ENV=production
WORKDIR /app
COPY --from=build /app/dist ./dist
COPY --from=build /app/apps/console/dist ./console
ENV CONSOLE_DIR=/app/console
# The guides the gateway serves at /docs/*.md (linked from /api/docs and /llm.txt).
COPY docs ./docs
# The sync client's README, which the gateway serves as /docs/sync-client.md (services/gateway/src/guides.ts).
COPY libs/sync-client/README.md ./docs/sync-client.md
ENV GUIDES_DIR=/app/docs
# The packages the bundle leaves out (native binaries, static assets), at the versions it was built with.
RUN cd dist && npm install --omit=dev --no-audit --no-fund
USER node
EXPOSE 3000
# Also in dist: the operator commands `node dist/promote-owner.mjs <email>` and `node dist/two-factor-off.mjs <email>` (docker compose exec identity ...).
CMD ["node", "dist/platform.mjs"]
