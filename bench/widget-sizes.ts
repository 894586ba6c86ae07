/**
 * `npm run widget:sizes`: what each widget page loads before the guest does anything (its entry script,
 * the chunks it imports, its stylesheets), raw and gzipped, read from the built widgets (dist/widget) the
 * way the server links them (`widget-build.ts`). docs/widgets.md reports these; the budget is 35 KB
 * gzipped of JavaScript per page, checked by src/modules/widgets/widget-budget.test.ts.
 */
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { WIDGET_ENTRIES, widgetBuildDir, widgetBuildLoader, type WidgetEntry } from '../src/modules/widgets/widget-build.js';

interface Size {
  raw: number;
  gzip: number;
}

export function widgetSizes(dir = widgetBuildDir()): Record<WidgetEntry | 'loader', { js: Size; css: Size }> {
  const build = widgetBuildLoader(dir)();
  if (!build) throw new Error(`no widget build in ${dir}: run npm run build:widget`);
  // The server links files as /widget/<file>; they live at <dir>/<file>.
  const size = (url: string): Size => {
    const bytes = fs.readFileSync(path.join(dir, url.replace(/^\/widget\//, '')));
    return { raw: bytes.length, gzip: zlib.gzipSync(bytes, { level: 9 }).length };
  };
  const sum = (urls: string[]) => urls.map(size).reduce((a, b) => ({ raw: a.raw + b.raw, gzip: a.gzip + b.gzip }), { raw: 0, gzip: 0 });
  const pages = Object.fromEntries(
    (Object.keys(WIDGET_ENTRIES) as WidgetEntry[]).map((type) => {
      const entry = build.entry(type);
      return [type, { js: sum([entry.script, ...entry.preloads]), css: sum(entry.styles) }];
    }),
  ) as Record<WidgetEntry, { js: Size; css: Size }>;
  return { ...pages, loader: { js: sum(['/widget/loader.js']), css: { raw: 0, gzip: 0 } } };
}

if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(import.meta.filename)) {
  const kb = (n: number) => `${(n / 1024).toFixed(1)} KB`;
  console.log('| page | JS raw | JS gzip | CSS raw | CSS gzip |\n|---|---|---|---|---|');
  for (const [page, { js, css }] of Object.entries(widgetSizes())) {
    console.log(`| ${page} | ${kb(js.raw)} | ${kb(js.gzip)} | ${kb(css.raw)} | ${kb(css.gzip)} |`);
  }
}
