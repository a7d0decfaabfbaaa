# The portal image: the server (`docker compose` service app) and the Temporal worker (service worker) run from it.
# Debian, not Alpine: the Temporal worker's native core is built for glibc.
FROM node:20-bookworm-slim

WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund

COPY . .
# The web app is built once here, not on every start (npm start builds it for a fresh checkout).
RUN node_modules/.bin/vite build --logLevel warn && node_modules/.bin/vite build --ssr --logLevel warn

EXPOSE 3000
CMD ["node_modules/.bin/tsx", "server/main.ts"]
