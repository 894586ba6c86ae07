/**
 * The built guest widgets (scripts/build-widget.mjs → dist/widget/): the Vite manifest naming each
 * widget type's hashed entry, its stylesheets and the chunks it imports, the hashed asset files and
 * the embed loader. Read from disk once and kept: hashed files never change under their name, and a
 * new build comes with a restart. A missing build is looked for again at most every few seconds, so a
 * server started before the build finds it without a restart.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const WIDGET_ENTRIES = {
  bookings: 'src/entries/bookings.tsx',
  events: 'src/entries/events.tsx',
  vouchers: 'src/entries/vouchers.tsx',
  combo: 'src/entries/combo.tsx',
  manage: 'src/entries/manage.tsx',
} as const;
export type WidgetEntry = keyof typeof WIDGET_ENTRIES;

interface ManifestChunk {
  file: string;
  css?: string[];
  imports?: string[];
}

export interface EntryAssets {
  script: string;
  styles: string[];
  preloads: string[];
}

export interface WidgetBuild {
  entry(type: WidgetEntry): EntryAssets;
  /** The bytes of a built file under assets/ (undefined for any other name). */
  asset(name: string): Buffer | undefined;
  loader: Buffer;
}

const RETRY_MS = 5_000;

/** The project root: the nearest directory above this file (in src/ or dist/) with a package.json. */
function projectRoot(): string {
  let dir = path.dirname(fileURLToPath(import.meta.url));
  while (!existsSync(path.join(dir, 'package.json'))) {
    const parent = path.dirname(dir);
    if (parent === dir) return process.cwd();
    dir = parent;
  }
  return dir;
}

export function widgetBuildDir(): string {
  return path.join(projectRoot(), 'dist', 'widget');
}

function loadBuild(dir: string): WidgetBuild {
  const manifest = JSON.parse(readFileSync(path.join(dir, '.vite', 'manifest.json'), 'utf8')) as Record<string, ManifestChunk>;
  const url = (file: string) => `/widget/${file}`;
  const entries = new Map<WidgetEntry, EntryAssets>();
  for (const [type, source] of Object.entries(WIDGET_ENTRIES) as [WidgetEntry, string][]) {
    const chunk = manifest[source];
    if (!chunk) throw new Error(`the widget build has no entry for ${source}`);
    const styles = new Set<string>(chunk.css ?? []);
    const preloads: string[] = [];
    const seen = new Set<string>();
    const walk = (key: string) => {
      if (seen.has(key)) return;
      seen.add(key);
      const imported = manifest[key];
      if (!imported) return;
      preloads.push(url(imported.file));
      for (const css of imported.css ?? []) styles.add(css);
      for (const next of imported.imports ?? []) walk(next);
    };
    for (const key of chunk.imports ?? []) walk(key);
    entries.set(type, { script: url(chunk.file), styles: [...styles].map(url), preloads });
  }
  const assets = new Map<string, Buffer>();
  return {
    entry: (type) => entries.get(type)!,
    asset(name) {
      if (!/^[A-Za-z0-9][A-Za-z0-9._-]*$/.test(name)) return undefined;
      let bytes = assets.get(name);
      if (!bytes) {
        const file = path.join(dir, 'assets', name);
        if (!existsSync(file)) return undefined;
        bytes = readFileSync(file);
        assets.set(name, bytes);
      }
      return bytes;
    },
    loader: readFileSync(path.join(dir, 'loader.js')),
  };
}

/** The build, loaded on first use; undefined while there is none (the pages answer 503). */
export function widgetBuildLoader(dir = widgetBuildDir(), now: () => number = Date.now): () => WidgetBuild | undefined {
  let build: WidgetBuild | undefined;
  let lastTry = Number.NEGATIVE_INFINITY;
  return () => {
    if (build || now() - lastTry < RETRY_MS) return build;
    lastTry = now();
    if (existsSync(path.join(dir, '.built'))) build = loadBuild(dir);
    return build;
  };
}
