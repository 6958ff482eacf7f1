import path from 'node:path';
import { defineConfig } from 'vite';

/**
 * The web console's production build: hashed files under dist/console/assets (served immutable
 * at /console/assets/), its index.html served for every console route (src/web.ts), and a
 * manifest that scripts/build-console.js reads to print the initial JavaScript's size.
 */
export default defineConfig({
  root: import.meta.dirname,
  base: '/console/',
  publicDir: false,
  logLevel: 'warn',
  oxc: { jsx: { runtime: 'automatic' } },
  build: {
    outDir: path.resolve(import.meta.dirname, '../../dist/console'),
    emptyOutDir: true,
    manifest: true,
    sourcemap: false,
    // No inline data: URLs; the CSP allows scripts, styles and images from this origin only.
    assetsInlineLimit: 0,
    modulePreload: { polyfill: false },
    rolldownOptions: {
      // React libraries mark modules "use client" for server components; meaningless in this bundle.
      onLog(level, log, handler) {
        if (log.code !== 'MODULE_LEVEL_DIRECTIVE') handler(level, log);
      },
    },
  },
});
