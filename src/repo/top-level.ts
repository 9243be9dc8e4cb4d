import { existsSync } from 'node:fs';
import { join } from 'node:path';

/**
 * Whether `dir` is the top level of a git work tree: it holds `.git` (a
 * directory, or a file in a linked worktree or submodule). A look at the file
 * system, not a git process: the ESLint surface asks it for every directory
 * it lints in.
 */
export function isWorkTreeTop(dir: string): boolean {
  return existsSync(join(dir, '.git'));
}
