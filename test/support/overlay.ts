import { cpSync, existsSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { PACKAGE_ROOT } from '../../src/version.js';
import { git, makeGitRepo } from './repo.js';

/** Copies `fixtures/<base>` into `dir`, then `fixtures/<overlay>` on top, removing the paths its DELETE file lists. */
function writeState(dir: string, base: string, overlay?: string): void {
  cpSync(join(PACKAGE_ROOT, 'fixtures', base), dir, { recursive: true });
  if (overlay === undefined) return;
  const from = join(PACKAGE_ROOT, 'fixtures', overlay);
  cpSync(from, dir, { recursive: true, filter: (source) => !source.endsWith('/DELETE') });
  const deletions = join(from, 'DELETE');
  if (existsSync(deletions)) {
    for (const path of readFileSync(deletions, 'utf8').split('\n').filter(Boolean)) rmSync(join(dir, path), { force: true });
  }
}

/**
 * A temporary git repository holding `fixtures/<base>`, with the files of
 * `fixtures/<overlay>` copied on top (and the paths listed in its DELETE file
 * removed): a bad variant differs from the good harness only where it breaks it.
 */
export function fixtureRepo(base: string, overlay?: string): string {
  const dir = makeGitRepo({}, { commit: false });
  writeState(dir, base, overlay);
  return dir;
}

/**
 * A temporary git repository with two commits, for the findings that need
 * `--base`: HEAD~1 holds `fixtures/<base>` with `fixtures/<before>` copied on
 * top (`before` may be `base` itself, for "the repository as it was"), and
 * HEAD holds `fixtures/<base>` with `fixtures/<overlay>` on top. Every file of
 * the first commit is removed before the second is written, so HEAD is exactly
 * the case's own state and the diff HEAD~1..HEAD is exactly the change.
 */
export function fixtureRepoWithBase(base: string, before: string, overlay?: string): string {
  const dir = makeGitRepo({}, { commit: false });
  writeState(dir, base, before === base ? undefined : before);
  git(dir, 'add', '-A');
  git(dir, 'commit', '-q', '-m', 'base');
  for (const entry of readdirSync(dir)) if (entry !== '.git') rmSync(join(dir, entry), { recursive: true, force: true });
  writeState(dir, base, overlay);
  git(dir, 'add', '-A');
  git(dir, 'commit', '-q', '--allow-empty', '-m', 'change');
  return dir;
}
