import { chmodSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { PACKAGE_ROOT } from '../../src/version.js';
import { makeGitRepo } from './repo.js';

/** Every file under `dir`, by POSIX path relative to it. */
export function readTree(dir: string): Record<string, string> {
  const files: Record<string, string> = {};
  const walk = (current: string): void => {
    for (const entry of readdirSync(current, { withFileTypes: true })) {
      const path = join(current, entry.name);
      if (entry.isDirectory()) walk(path);
      else files[relative(dir, path).split('\\').join('/')] = readFileSync(path, 'utf8');
    }
  };
  walk(dir);
  return files;
}

/** A fixture repository (`fixtures/<name>`) committed into a fresh git repository in a temporary directory. */
export function fixtureRepo(name: string, options: { without?: string[] } = {}): string {
  const without = new Set(options.without ?? []);
  const files = Object.entries(readTree(join(PACKAGE_ROOT, 'fixtures', name))).filter(([path]) => !without.has(path));
  return makeGitRepo(Object.fromEntries(files));
}

/**
 * `node_modules/.bin/<name>` in `dir`, running a script of this checkout the way
 * npm's bin links would: the temporary repositories get the tools a developer's
 * `npm install` would give them, without a registry.
 */
export function installBin(dir: string, name: string, script: string): void {
  const bin = join(dir, 'node_modules', '.bin');
  mkdirSync(bin, { recursive: true });
  const file = join(bin, name);
  writeFileSync(file, `#!/bin/sh\nexec '${process.execPath}' '${join(PACKAGE_ROOT, script)}' "$@"\n`);
  chmodSync(file, 0o755);
}
