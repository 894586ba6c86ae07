/**
 * `npm run widget:sizes`: the JavaScript and CSS each widget page loads before the guest does anything
 * (its entry, the chunks it imports, its stylesheets), raw and gzipped, from the built manifest
 * (dist/widget/.vite/manifest.json). docs/widgets.md reports these; the budget is 35 KB gzipped of
 * JavaScript per page, checked by src/modules/widgets/widget-budget.test.ts.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import zlib from 'node:zlib';

const DIST = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'dist', 'widget');

export function widgetSizes(dist = DIST) {
  const manifest = JSON.parse(fs.readFileSync(path.join(dist, '.vite', 'manifest.json'), 'utf8'));
  const size = (file) => {
    const bytes = fs.readFileSync(path.join(dist, file));
    return { raw: bytes.length, gzip: zlib.gzipSync(bytes, { level: 9 }).length };
  };
  const pages = {};
  for (const [key, chunk] of Object.entries(manifest)) {
    if (!chunk.isEntry) continue;
    const files = new Set([chunk.file]);
    const styles = new Set(chunk.css ?? []);
    const walk = (name) => {
      const imported = manifest[name];
      if (!imported || files.has(imported.file)) return;
      files.add(imported.file);
      for (const css of imported.css ?? []) styles.add(css);
      for (const next of imported.imports ?? []) walk(next);
    };
    for (const name of chunk.imports ?? []) walk(name);
    const sum = (list) => [...list].map(size).reduce((a, b) => ({ raw: a.raw + b.raw, gzip: a.gzip + b.gzip }), { raw: 0, gzip: 0 });
    pages[path.basename(key).replace(/\.tsx$/, '')] = { js: sum(files), css: sum(styles) };
  }
  pages.loader = { js: size('loader.js'), css: { raw: 0, gzip: 0 } };
  return pages;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const kb = (n) => `${(n / 1024).toFixed(1)} KB`;
  console.log('| page | JS raw | JS gzip | CSS raw | CSS gzip |\n|---|---|---|---|---|');
  for (const [page, { js, css }] of Object.entries(widgetSizes())) {
    console.log(`| ${page} | ${kb(js.raw)} | ${kb(js.gzip)} | ${kb(css.raw)} | ${kb(css.gzip)} |`);
  }
}
