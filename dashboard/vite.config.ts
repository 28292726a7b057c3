import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

// Served by the API at /dashboard (SPA fallback) under a strict CSP: same-origin scripts and
// styles only, so nothing inline: one bundled stylesheet, no injected <style>, no inline script.
export default defineConfig({
  base: '/dashboard/',
  plugins: [react()],
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    // CSS is emitted as files and linked; no module-preload polyfill (every supported browser has it).
    cssCodeSplit: true,
    modulePreload: { polyfill: false },
    reportCompressedSize: true,
    chunkSizeWarningLimit: 600,
    // Read by scripts/first-load-size.mjs (dist/.vite/manifest.json: chunks and their static imports).
    manifest: true,
  },
});
