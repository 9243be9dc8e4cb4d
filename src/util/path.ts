import { relative, sep } from 'node:path';

/** A native path with forward slashes: how findings, globs and git name files. */
export function toPosix(path: string): string {
  return sep === '/' ? path : path.split(sep).join('/');
}

/** `to` relative to `from`, with forward slashes; '' for the same directory. */
export function relativePosix(from: string, to: string): string {
  return toPosix(relative(from, to));
}

/** The last segment of a command word (`/usr/bin/claude`, `.\\bin\\codex`): the program's name. */
export function commandName(word: string): string {
  const slash = Math.max(word.lastIndexOf('/'), word.lastIndexOf('\\'));
  return slash === -1 ? word : word.slice(slash + 1);
}
