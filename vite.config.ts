import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

// The web app lives in web/; in development /api is proxied to the Fastify server (npm run dev).
export default defineConfig({
  root: 'web',
  plugins: [react()],
  build: { outDir: 'dist', emptyOutDir: true, chunkSizeWarningLimit: 2000 },
  server: { port: 5173, proxy: { '/api': 'http://localhost:3000', '/simulators': 'http://localhost:3000' } },
});
