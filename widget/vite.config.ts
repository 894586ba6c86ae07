// The guest widgets' build (scripts/build-widget.mjs runs it): one entry per widget type, hashed file
// names under /widget/assets/, and the manifest the server reads to link a page's script and styles.
import preact from '@preact/preset-vite';
import { defineConfig } from 'vite';

export default defineConfig({
  root: import.meta.dirname,
  base: '/widget/',
  plugins: [preact()],
  build: {
    manifest: true,
    target: 'es2020',
    cssCodeSplit: true,
    modulePreload: { polyfill: false },
    rollupOptions: {
      input: {
        bookings: 'src/entries/bookings.tsx',
        events: 'src/entries/events.tsx',
        vouchers: 'src/entries/vouchers.tsx',
        combo: 'src/entries/combo.tsx',
        manage: 'src/entries/manage.tsx',
        account: 'src/entries/account.tsx',
      },
    },
  },
});
