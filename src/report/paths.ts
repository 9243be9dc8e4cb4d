import { join } from 'node:path';
import { relativePosix } from '../util/path.js';

/** A finding's path (relative to `cwd`) as the repository names it: relative to `repoRoot`, POSIX. */
export function repositoryPath(file: string, options: { cwd: string; repoRoot?: string }): string {
  if (options.repoRoot === undefined) return file;
  const prefix = relativePosix(options.repoRoot, options.cwd);
  return prefix === '' ? file : `${prefix}/${file}`;
}

/** A finding's path (relative to `cwd`) as seen from where the user stands (`from`), POSIX. */
export function displayPath(file: string, options: { cwd: string; from?: string }): string {
  if (options.from === undefined || options.from === options.cwd) return file;
  return relativePosix(options.from, join(options.cwd, file));
}
