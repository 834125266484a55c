import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** Per-user default data folder, like other desktop apps (XDG / AppData / Application Support). */
export function defaultDataDir(): string {
  if (process.env.GRIDCODE_DATA_DIR) return path.resolve(process.env.GRIDCODE_DATA_DIR);
  const home = os.homedir();
  if (process.platform === 'win32') return path.join(process.env.APPDATA ?? path.join(home, 'AppData', 'Roaming'), 'GridCode');
  if (process.platform === 'darwin') return path.join(home, 'Library', 'Application Support', 'GridCode');
  return path.join(process.env.XDG_DATA_HOME ?? path.join(home, '.local', 'share'), 'gridcode');
}

let cachedRoot: string | undefined;
/**
 * The project (or unpacked app) root: the nearest folder above this module holding package.json.
 * Works from src/ under tsx and from out/ in the Electron build.
 */
export function projectRoot(): string {
  if (cachedRoot) return cachedRoot;
  let dir = path.dirname(fileURLToPath(import.meta.url));
  for (;;) {
    if (fs.existsSync(path.join(dir, 'package.json'))) return (cachedRoot = dir);
    const parent = path.dirname(dir);
    if (parent === dir) return (cachedRoot = process.cwd());
    dir = parent;
  }
}

/** Bundled demo data. Electron packaging puts it under process.resourcesPath (GRIDCODE_RESOURCES_DIR). */
export function resourcesDir(): string {
  return process.env.GRIDCODE_RESOURCES_DIR ? path.resolve(process.env.GRIDCODE_RESOURCES_DIR) : path.join(projectRoot(), 'resources');
}

/** Model folders + manifest.json. */
export function modelsDir(): string {
  return process.env.GRIDCODE_MODELS_DIR ? path.resolve(process.env.GRIDCODE_MODELS_DIR) : path.join(projectRoot(), 'models');
}

/** Shared read-only corpora (../shared beside the checkout) for tests, eval and bench. */
export function sharedDir(): string {
  return process.env.GRIDCODE_SHARED_DIR ? path.resolve(process.env.GRIDCODE_SHARED_DIR) : path.resolve(projectRoot(), '..', 'shared');
}
