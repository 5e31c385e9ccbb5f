import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

// The gateway serves the build at /console; in development the Vite server proxies the API to a
// running gateway (CONSOLE_API_URL, default the all-in-one's http://127.0.0.1:3000).
export default defineConfig({
  base: '/console/',
  plugins: [react()],
  build: { outDir: 'dist', emptyOutDir: true, sourcemap: true },
  server: {
    proxy: { '/api': { target: process.env.CONSOLE_API_URL ?? 'http://127.0.0.1:3000', changeOrigin: false } },
  },
});
