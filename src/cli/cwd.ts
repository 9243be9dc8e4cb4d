import { statSync } from 'node:fs';
import { resolve } from 'node:path';
import { UsageError } from '../errors.js';

/**
 * The directory a command works in: `--cwd` resolved against the process's
 * working directory. A `--cwd` that is not a directory is a usage error, never
 * an empty repository with nothing in it to report.
 */
export function resolveCwd(processCwd: string, given: string | undefined): string {
  const dir = resolve(processCwd, given ?? '.');
  if (given === undefined) return dir;
  let isDirectory: boolean;
  try {
    isDirectory = statSync(dir).isDirectory();
  } catch {
    throw new UsageError(`--cwd ${given}: no such directory`);
  }
  if (!isDirectory) throw new UsageError(`--cwd ${given}: not a directory`);
  return dir;
}
