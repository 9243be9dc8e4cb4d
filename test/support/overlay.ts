import { cpSync, existsSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { PACKAGE_ROOT } from '../../src/version.js';
import { makeGitRepo } from './repo.js';

/**
 * A temporary git repository holding `fixtures/<base>`, with the files of
 * `fixtures/<overlay>` copied on top (and the paths listed in its DELETE file
 * removed): a bad variant differs from the good harness only where it breaks it.
 */
export function fixtureRepo(base: string, overlay?: string): string {
  const dir = makeGitRepo({}, { commit: false });
  cpSync(join(PACKAGE_ROOT, 'fixtures', base), dir, { recursive: true });
  if (overlay !== undefined) {
    const from = join(PACKAGE_ROOT, 'fixtures', overlay);
    cpSync(from, dir, { recursive: true, filter: (source) => !source.endsWith('/DELETE') });
    const deletions = join(from, 'DELETE');
    if (existsSync(deletions)) {
      for (const path of readFileSync(deletions, 'utf8').split('\n').filter(Boolean)) rmSync(join(dir, path), { force: true });
    }
  }
  return dir;
}
