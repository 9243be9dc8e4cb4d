import { createHash, randomUUID } from 'node:crypto';
import { readdirSync, statSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

let fingerprint: string | undefined;

/**
 * tripwire's own code, by the size and mtime of every module: a rebuilt or
 * edited tripwire never serves a verdict an older build computed, even when
 * the version number did not change.
 */
export function toolFingerprint(): string {
  fingerprint ??= fingerprintOf(codeDirectories(fileURLToPath(import.meta.url)));
  return fingerprint;
}

/**
 * The directories of the code that runs, seen from the file of this module.
 * Unbundled (tsc's dist/src/, or the sources under vitest) it is
 * `<code>/src/engine/`, and the rules are in `<code>/rules/`. In the CLI's
 * bundle (dist/cli/, scripts/bundle.mjs) it is part of tripwire.cjs, which
 * holds the rules too, beside the bin and the worker's bundle.
 */
export function codeDirectories(file: string): string[] {
  const here = dirname(file);
  if (basename(here) !== 'engine' || basename(dirname(here)) !== 'src') return [here];
  const code = dirname(dirname(here));
  return [join(code, 'src'), join(code, 'rules')];
}

/** The modules under `directories`, by name, size and mtime; when there is none, a value no other run has, so that no cache is ever served. */
export function fingerprintOf(directories: readonly string[]): string {
  const hash = createHash('sha1');
  let modules = 0;
  for (const dir of directories) {
    let names: string[];
    try {
      names = readdirSync(dir, { recursive: true, encoding: 'utf8' }).sort();
    } catch {
      names = [];
    }
    for (const name of names) {
      if (!/\.[cm]?[jt]s$/.test(name)) continue;
      const stat = statSync(join(dir, name), { throwIfNoEntry: false });
      if (!stat?.isFile()) continue;
      hash.update(`${basename(dir)}/${name} ${stat.size} ${stat.mtimeMs}\0`);
      modules++;
    }
  }
  // Hashing nothing would give every build the same fingerprint: a rebuilt tripwire could serve an older build's verdicts.
  return modules === 0 ? `unknown-${randomUUID()}` : hash.digest('hex');
}
