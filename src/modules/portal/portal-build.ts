/**
 * The built operator portal (scripts/build-portal.mjs → dist/portal/): its index.html and the hashed files
 * under assets/, loaded as platform/built-app.ts loads a built app.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { assetReader, builtAppDir, builtAppLoader } from '../../platform/built-app.js';

export interface PortalBuild {
  index: string;
  /** The bytes of a built file under assets/ (undefined for any other name). */
  asset(name: string): Buffer | undefined;
}

export const portalBuildDir = (): string => builtAppDir('portal');

function loadBuild(dir: string): PortalBuild {
  return { index: readFileSync(path.join(dir, 'index.html'), 'utf8'), asset: assetReader(dir) };
}

/** The build, loaded on first use; undefined while there is none (the portal answers 503). */
export const portalBuildLoader = (dir = portalBuildDir(), now: () => number = Date.now): (() => PortalBuild | undefined) =>
  builtAppLoader(dir, loadBuild, now);
