import { existsSync, statSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { createRequire } from 'node:module';
import type FastGlob from 'fast-glob';
import { UsageError } from '../errors.js';
import { findGitRoot, isIgnoredDirectory, isInsideGitDir, listFilesWithIds, listTopLevel } from './git.js';
import type { GitignoreSource } from './gitignore.js';
import { settleLinks, settleListing } from './symlinks.js';

export type ReadResult = { ok: true; text: string } | { ok: false; error: string };

export interface DiscoveredFiles {
  files: string[];
  git: boolean;
  blobIds: Map<string, string>;
  /** Listed symbolic links that are not followed (outside the repository, or dangling), with why. */
  unfollowed: Map<string, string>;
  /** Submodules under `dir` (none outside git): their files are not listed. */
  gitlinks: string[];
}

/**
 * The files under `dir`, relative to it, POSIX, sorted. Inside a git work
 * tree this is what git sees (tracked plus untracked-not-ignored); elsewhere,
 * or in a directory git ignores, a walk that honours every `.gitignore` under
 * `dir` (checking an ignored directory must not silently check nothing).
 * With `blobIds`, the git blob id of every file whose content git knows
 * unchanged (none outside git). Symbolic links are settled (`settleLinks`)
 * against the repository: the git top level, or `dir` outside git.
 * A `dir` that is not a directory, or that is a git directory (a bare
 * repository, `.git` itself) rather than a work tree, is a UsageError: walking
 * objects and refs as files would check nothing and say so in green.
 */
export async function discoverFiles(dir: string, options: { blobIds?: boolean } = {}): Promise<DiscoveredFiles> {
  // The usual case, a check at the repository root, costs one git process.
  if (existsSync(path.join(dir, '.git'))) {
    const listing = await listTopLevel(dir, options.blobIds === true);
    if (listing) return { ...settleListing(dir, dir, listing), git: true };
  }
  if (!isDirectory(dir)) throw new UsageError(`cannot check ${dir}: no such directory`);
  const root = await findGitRoot(dir);
  if (root !== null && !(await isIgnoredDirectory(root, dir))) return { ...settleListing(dir, root, await listFilesWithIds(root, dir, options.blobIds === true)), git: true };
  if (root === null && (await isInsideGitDir(dir))) {
    throw new UsageError(`cannot check ${dir}: no work tree (it is a bare repository or a .git directory); check a clone or a worktree of it`);
  }
  const walked = await walk(dir);
  return { ...settleLinks(dir, dir, walked.files, walked.links), git: false, blobIds: new Map(), gitlinks: [] };
}

function isDirectory(dir: string): boolean {
  try {
    return statSync(dir).isDirectory();
  } catch {
    return false;
  }
}

async function walk(dir: string): Promise<{ files: string[]; links: string[] }> {
  // Like git: list symlinks as entries but never follow a linked directory.
  const entries = await loadFastGlob()('**/*', {
    cwd: dir,
    dot: true,
    onlyFiles: false,
    followSymbolicLinks: false,
    objectMode: true,
    ignore: ['**/node_modules/**', '**/.git/**', '**/.git'],
  });
  const all = entries
    .filter((entry) => entry.dirent.isFile() || entry.dirent.isSymbolicLink())
    .map((entry) => entry.path);
  const links = entries.filter((entry) => entry.dirent.isSymbolicLink()).map((entry) => entry.path);

  const sources: GitignoreSource[] = [];
  for (const rel of all) {
    if ((rel !== '.gitignore' && !rel.endsWith('/.gitignore')) || links.includes(rel)) continue;
    const read = await readText(dir, rel);
    if (read.ok) sources.push({ dir: rel === '.gitignore' ? '' : rel.slice(0, -'/.gitignore'.length), text: read.text });
  }
  // Only a walk needs the ignore rules (and picomatch): a git listing, every warm run's, does not load them.
  const { createIgnoreFilter } = await import('./gitignore.js');
  const ignored = createIgnoreFilter(sources);
  return { files: all.filter((rel) => !ignored(rel)).sort(), links: links.filter((rel) => !ignored(rel)) };
}

function describe(error: unknown): string {
  if (error instanceof Error) {
    // Node puts the absolute path after the comma (`ENOENT: no such file or directory, open '/…'`);
    // findings carry repo-relative paths only.
    const head = /^([A-Z0-9_]+: [^,]+)/.exec(error.message);
    return head?.[1] ?? error.message;
  }
  return String(error);
}

/** The UTF-8 text of a repo-relative file (BOM removed); a failure is a value, never a throw. */
export async function readText(root: string, rel: string): Promise<ReadResult> {
  try {
    const text = await readFile(path.join(root, rel), 'utf8');
    return { ok: true, text: text.charCodeAt(0) === 0xfeff ? text.slice(1) : text };
  } catch (error) {
    return { ok: false, error: describe(error) };
  }
}

/** fast-glob walks only outside a git work tree: loaded there, on first use. */
function loadFastGlob(): typeof FastGlob {
  return createRequire(import.meta.url)('fast-glob') as typeof FastGlob;
}
