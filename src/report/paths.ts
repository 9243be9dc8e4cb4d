import { join, relative, sep } from 'node:path';

/** A finding's path (relative to `cwd`) as the repository names it: relative to `repoRoot`, POSIX. */
export function repositoryPath(file: string, options: { cwd: string; repoRoot?: string }): string {
  if (options.repoRoot === undefined) return file;
  const prefix = relative(options.repoRoot, options.cwd).split(sep).join('/');
  return prefix === '' ? file : `${prefix}/${file}`;
}

/** A finding's path (relative to `cwd`) as seen from where the user stands (`from`), POSIX. */
export function displayPath(file: string, options: { cwd: string; from?: string }): string {
  if (options.from === undefined || options.from === options.cwd) return file;
  return relative(options.from, join(options.cwd, file)).split(sep).join('/');
}
