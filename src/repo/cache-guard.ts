import { execFile, execFileSync } from 'node:child_process';
import { existsSync, realpathSync, statSync } from 'node:fs';
import path from 'node:path';

// A cache is only as trustworthy as whoever can write it. A file git tracks
// came with the checkout, so the change being checked chose its bytes; a
// cache directory holding one is never read or written. (Every entry is also
// authenticated, src/util/cache-secret.ts; this makes the refusal visible.)

/** Where to ask git about `dir`: its nearest existing ancestor directory, resolved, and `dir` relative to that. */
function anchor(dir: string): { cwd: string; spec: string } | null {
  let existing = path.resolve(dir);
  for (;;) {
    if (isDirectory(existing)) break;
    const parent = path.dirname(existing);
    if (parent === existing) return null;
    existing = parent;
  }
  let cwd: string;
  try {
    // Resolved: a directory reached through a link is asked about where it is.
    cwd = realpathSync(existing);
  } catch {
    return null;
  }
  return { cwd, spec: path.relative(existing, path.resolve(dir)) || '.' };
}

function isDirectory(file: string): boolean {
  try {
    return statSync(file).isDirectory();
  } catch {
    return false;
  }
}

/**
 * Whether git may find a work tree at `dir`: an ancestor (or `dir`) holds
 * `.git` (a directory, or the file a linked worktree or a submodule has), or
 * the environment names a repository or a work tree. Otherwise git finds no
 * work tree there (at most a bare repository, which tracks nothing in it),
 * and is not asked: a cache kept outside every repository costs no process.
 */
export function mayBeInWorkTree(dir: string, env: Readonly<Record<string, string | undefined>> = process.env): boolean {
  if (env.GIT_DIR !== undefined || env.GIT_WORK_TREE !== undefined) return true;
  for (let at = dir; ; at = path.dirname(at)) {
    if (existsSync(path.join(at, '.git'))) return true;
    if (path.dirname(at) === at) return false;
  }
}

// Literal pathspecs: a cache path holding `*` or `[` names itself, not a pattern.
const args = (spec: string): string[] => ['--literal-pathspecs', 'ls-files', '-z', '--cached', '--', spec];

function first(cwd: string, output: string): string | null {
  const name = output.split('\0').find((entry) => entry !== '');
  return name === undefined ? null : path.join(cwd, name);
}

/**
 * Why the cache directory `dir` must not be used, or null when it may be:
 * git tracks a file in it (or the directory itself is a tracked link or
 * file), or, being inside the checked repository `root`, it leads out of it
 * through a symbolic link. Outside every work tree git tracks nothing there.
 */
export async function cacheRefusal(dir: string, root: string): Promise<string | null> {
  const escape = leavesRoot(dir, root);
  if (escape !== null) return escape;
  const where = anchor(dir);
  if (where === null || !mayBeInWorkTree(where.cwd)) return null;
  const output = await new Promise<string>((resolve) => {
    execFile('git', args(where.spec), { cwd: where.cwd, encoding: 'utf8', maxBuffer: 1 << 26 }, (error, stdout) => resolve(error ? '' : stdout));
  });
  return tracked(dir, first(where.cwd, output));
}

/** `cacheRefusal`, synchronously, for the ESLint surface. */
export function cacheRefusalSync(dir: string, root: string): string | null {
  const escape = leavesRoot(dir, root);
  if (escape !== null) return escape;
  const where = anchor(dir);
  if (where === null || !mayBeInWorkTree(where.cwd)) return null;
  let output = '';
  try {
    output = execFileSync('git', args(where.spec), { cwd: where.cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'], maxBuffer: 1 << 26 });
  } catch {
    // Not in a work tree (or git is unusable here): nothing there is tracked.
  }
  return tracked(dir, first(where.cwd, output));
}

function tracked(dir: string, file: string | null): string | null {
  return file === null ? null : `git tracks ${file} in the cache directory ${dir}, so the change being checked chose what it holds: checking without the cache. Remove the cache from git (git rm -r --cached ${dir}).`;
}

/** Why `dir`, lexically inside `root`, resolves outside it; null when it does not. */
function leavesRoot(dir: string, root: string): string | null {
  const lexical = path.relative(path.resolve(root), path.resolve(dir));
  if (lexical.startsWith('..') || path.isAbsolute(lexical)) return null;
  const where = anchor(dir);
  if (where === null) return null;
  let realRoot: string;
  try {
    realRoot = realpathSync(root);
  } catch {
    return null;
  }
  const real = path.relative(realRoot, path.join(where.cwd, where.spec));
  if (!real.startsWith('..') && !path.isAbsolute(real)) return null;
  return `the cache directory ${dir} leads out of the repository through a symbolic link: checking without the cache.`;
}
