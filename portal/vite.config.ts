// The operator portal's build (scripts/build-ui.mjs runs it): one entry (index.html), hashed files under
// /app/assets/, and the locale strings of react-aria trimmed to the ones the portal ships (English).
import optimizeLocales from '@react-aria/optimize-locales-plugin';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

export default defineConfig({
  root: import.meta.dirname,
  base: '/app/',
  plugins: [react(), { ...optimizeLocales.vite({ locales: ['en-GB', 'en-US'] }), enforce: 'pre' }],
  build: {
    target: 'es2022',
    modulePreload: { polyfill: false },
    assetsDir: 'assets',
  },
});
