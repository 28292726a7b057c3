# One image for every process of the service (docker-compose.yml, Kubernetes): the API (default command), the
# workers (`node dist/worker/main.js`), and the one-shot jobs (`node dist/src/cli/migrate.js`,
# `node dist/src/cli/temporal-namespace.js`). The compiled build, as `npm run start:cluster` runs it: no tsx.

# Build: every dependency (TypeScript is a dev dependency), then `npm run build` → dist/.
FROM node:24-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY tsconfig.json tsconfig.build.json ./
COPY src ./src
COPY workflows ./workflows
COPY activities ./activities
COPY worker ./worker
RUN npm run build
# The operators' dashboard (dashboard/, served at /dashboard): its own dependencies, then `vite build` →
# dashboard/dist, held to the first load's 350 KB of JavaScript (gzip) as bin/lib/dashboard.sh holds it.
COPY dashboard/package.json dashboard/package-lock.json ./dashboard/
RUN npm ci --prefix dashboard --no-audit --no-fund
COPY dashboard/index.html dashboard/vite.config.ts dashboard/tsconfig.json ./dashboard/
COPY dashboard/src ./dashboard/src
COPY dashboard/scripts ./dashboard/scripts
RUN npm run build --prefix dashboard && node dashboard/scripts/first-load-size.mjs dashboard/dist

# Production dependencies only (the worker bundles dist/workflows with @temporalio/worker's webpack at start).
FROM node:24-slim AS deps
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund --omit=dev

# Runtime: dist/ (with the dashboard's build) and the production node_modules, run by the unprivileged `node` user of the base image.
FROM node:24-slim
ENV NODE_ENV=production
WORKDIR /app
COPY --from=deps /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
# Where the compiled API looks for it (DEFAULT_DASHBOARD_DIST: dashboard/dist four folders above
# dist/src/contexts/dashboard/api). Only index.html and assets/ are served.
COPY --from=build /app/dashboard/dist ./dist/dashboard/dist
COPY package.json ./
USER node
EXPOSE 3000
CMD ["node", "dist/src/api/main.js"]
