# Production image: build once, run the compiled service as an unprivileged user.
# The build context is what .dockerignore lets in: the package files, the TypeScript configuration,
# apps/ and libs/ (never node_modules, dist, data/, .env or key material from the host).
FROM node:24-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
# The lockfile's exact versions, installed afresh (never the host's node_modules).
RUN npm ci --no-audit --no-fund
COPY nest-cli.json tsconfig.json tsconfig.build.json ./
COPY apps ./apps
COPY libs ./libs
RUN npm run build && npm prune --omit=dev

FROM node:24-slim
ENV NODE_ENV=production PORT=3000 DATA_DIR=/data
WORKDIR /app
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
COPY --from=build /app/package.json ./
RUN mkdir -p /data && chown node:node /data
USER node
EXPOSE 3000
HEALTHCHECK --interval=30s --timeout=3s --start-period=60s --retries=3 CMD node -e "fetch('http://127.0.0.1:'+process.env.PORT+'/health/live').then(r=>process.exit(r.ok?0:1)).catch(()=>process.exit(1))"
CMD ["node", "dist/apps/accounting-api/src/main.js"]
