import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The package root, found upwards from this module: the same from `src/` under vitest and from `dist/src/` when built. */
export const PACKAGE_ROOT = findPackageRoot(dirname(fileURLToPath(import.meta.url)));

function findPackageRoot(start: string): string {
  let dir = start;
  while (!existsSync(join(dir, 'package.json')) || !existsSync(join(dir, 'rules'))) {
    const parent = dirname(dir);
    if (parent === dir) throw new Error(`tripwire: cannot find its package.json above ${start}`);
    dir = parent;
  }
  return dir;
}

const manifest: unknown = JSON.parse(readFileSync(join(PACKAGE_ROOT, 'package.json'), 'utf8'));

export const VERSION = typeof manifest === 'object' && manifest !== null && 'version' in manifest && typeof manifest.version === 'string' ? manifest.version : '0.0.0';
export const PACKAGE_NAME = 'eslint-plugin-tripwire';
