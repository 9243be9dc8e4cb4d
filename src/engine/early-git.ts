import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { startGit, type EarlyGit } from '../repo/early-git.js';
import { lsFilesArgs } from '../repo/listing.js';

export { handEarlyGit } from '../repo/early-git.js';

// The listing a work-tree check starts with (its result cache's probe asks
// for it first), started by the CLI's launcher (cli/launch.ts) before the
// bundle loads: git lists the files while the bundle loads, not after (at
// 10k files, about 40 ms of a warm check's 0.35 s). A staged check starts
// none: its worker thread is loading the compiler then, and each fork made
// beside it cost the launcher as much as the wait it saved (measured).

/** The command line's options, as the launcher reads them before the CLI's parser loads: what comes before `--`. */
export function optionsOf(argv: readonly string[]): readonly string[] {
  const end = argv.indexOf('--');
  return end === -1 ? argv : argv.slice(0, end);
}

/**
 * The listing `tripwire <argv>` run in `cwd` will ask first, started now:
 * only for `check` with its caches (a run with `--no-cache` probes nothing),
 * neither `--staged` nor `--base` (they list the index), at the top level of
 * a work tree (below it, a check lists from its workspace root). Null
 * otherwise.
 */
export function startEarlyGit(argv: readonly string[], cwd: string): EarlyGit | null {
  const options = optionsOf(argv);
  const indexed = options.some((option) => option === '--staged' || option === '--base' || option.startsWith('--base='));
  if (argv[0] !== 'check' || indexed || options.includes('--no-cache') || !existsSync(join(cwd, '.git'))) return null;
  return startGit(cwd, lsFilesArgs('', true));
}
