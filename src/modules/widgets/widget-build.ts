/**
 * The built guest widgets (scripts/build-widget.mjs → dist/widget/): the Vite manifest naming each
 * widget type's hashed entry, its stylesheets and the chunks it imports, the hashed asset files and
 * the embed loader. Read from disk once and kept: hashed files never change under their name, and a
 * new build comes with a restart. A missing build is looked for again at most every few seconds, so a
 * server started before the build finds it without a restart.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { assetReader, builtAppDir, builtAppLoader } from '../../platform/built-app.js';

export const WIDGET_ENTRIES = {
  bookings: 'src/entries/bookings.tsx',
  events: 'src/entries/events.tsx',
  vouchers: 'src/entries/vouchers.tsx',
  combo: 'src/entries/combo.tsx',
  manage: 'src/entries/manage.tsx',
  account: 'src/entries/account.tsx',
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

export const widgetBuildDir = (): string => builtAppDir('widget');

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
  return {
    entry: (type) => entries.get(type)!,
    asset: assetReader(dir),
    loader: readFileSync(path.join(dir, 'loader.js')),
  };
}

/** The build, loaded on first use; undefined while there is none (the pages answer 503). */
export const widgetBuildLoader = (dir = widgetBuildDir(), now: () => number = Date.now): (() => WidgetBuild | undefined) =>
  builtAppLoader(dir, loadBuild, now);
