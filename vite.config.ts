import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { compression } from 'vite-plugin-compression2';
import { preloadFonts, serviceWorker } from './web/build/shell-plugins';

// The web app lives in web/; in development /api is proxied to the Fastify server (npm run dev).
// The build writes gzip and brotli copies of every text asset next to it; the server sends them as they are
// (server/plugins/web.ts, preCompressed), so no request pays for compression.
export default defineConfig({
  root: 'web',
  plugins: [react(), preloadFonts(), serviceWorker(), compression({ algorithms: ['gzip', 'brotliCompress'], include: /\.(js|css|html|svg|json|txt|xml)$/, threshold: 1024 })],
  build: { outDir: 'dist', emptyOutDir: true, chunkSizeWarningLimit: 2000 },
  server: { port: 5173, proxy: { '/api': 'http://localhost:3000', '/simulators': 'http://localhost:3000' } },
});
