import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

/** The API server `npm run dev` starts beside Vite (scripts/dev.mjs). */
const apiTarget = `http://localhost:${process.env.TAVLA_API_PORT ?? '3000'}`;

export default defineConfig({
  root: 'src/web',
  plugins: [react()],
  build: {
    outDir: '../../dist/web',
    emptyOutDir: true,
    sourcemap: true,
    chunkSizeWarningLimit: 900,
  },
  server: {
    port: Number(process.env.TAVLA_WEB_PORT ?? 5173),
    strictPort: true,
    proxy: {
      '/api': { target: apiTarget, ws: true },
    },
  },
});
