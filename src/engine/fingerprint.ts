import { createHash } from 'node:crypto';
import { readdirSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

let fingerprint: string | undefined;

/**
 * tripwire's own code, by the size and mtime of every module: a rebuilt or
 * edited tripwire never serves a verdict an older build computed, even when
 * the version number did not change.
 */
export function toolFingerprint(): string {
  if (fingerprint !== undefined) return fingerprint;
  // This module lives in `<code>/src/engine`; the rules in `<code>/rules` (`<code>` is dist/ once built).
  const code = dirname(dirname(dirname(fileURLToPath(import.meta.url))));
  const hash = createHash('sha1');
  for (const dir of ['src', 'rules']) {
    let names: string[];
    try {
      names = readdirSync(join(code, dir), { recursive: true, encoding: 'utf8' }).sort();
    } catch {
      names = [];
    }
    for (const name of names) {
      if (!/\.[cm]?[jt]s$/.test(name)) continue;
      const stat = statSync(join(code, dir, name), { throwIfNoEntry: false });
      if (stat?.isFile()) hash.update(`${dir}/${name} ${stat.size} ${stat.mtimeMs}\0`);
    }
  }
  fingerprint = hash.digest('hex');
  return fingerprint;
}
