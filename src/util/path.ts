import { relative, sep } from 'node:path';

/** A native path with forward slashes: how findings, globs and git name files. */
export function toPosix(path: string): string {
  return sep === '/' ? path : path.split(sep).join('/');
}

/** `to` relative to `from`, with forward slashes; '' for the same directory. */
export function relativePosix(from: string, to: string): string {
  return toPosix(relative(from, to));
}
