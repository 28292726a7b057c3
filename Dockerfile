# One image for both processes: `api` (default) and `worker` (see docker-compose.yml).
FROM node:24-slim
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund --omit=dev
COPY tsconfig.json ./
COPY src ./src
COPY workflows ./workflows
COPY activities ./activities
COPY worker ./worker
ENV NODE_ENV=production
EXPOSE 3000
CMD ["node_modules/.bin/tsx", "src/api/main.ts"]
