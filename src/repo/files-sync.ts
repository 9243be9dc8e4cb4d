import { execFileSync } from 'node:child_process';
import { realpathSync } from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import type FastGlob from 'fast-glob';
import { createIgnoreFilter, type GitignoreSource } from './gitignore.js';
import type { DiscoveredFiles } from './files.js';
import { lsFilesArgs, parseListing, type FileListing } from './listing.js';
import { MAX_INPUT_BYTES, readBounded } from './read.js';
import { isSymlink, settleLinks, settleListing } from './symlinks.js';
import { relativePosix } from '../util/path.js';

/**
 * `discoverFiles`, synchronously, for the ESLint surface: ESLint rules cannot
 * wait for a promise, and simple-git has no synchronous API, so this runs the
 * same `git ls-files` listings through `execFileSync`.
 */
export function discoverFilesSync(dir: string, options: { blobIds?: boolean } = {}): DiscoveredFiles {
  const top = gitOutput(dir, ['rev-parse', '--show-toplevel'])?.trim();
  if (top) {
    const prefix = relativePosix(realpathSync(top), realpathSync(dir));
    const ignored = prefix !== '' && gitOutput(top, ['check-ignore', '-q', prefix]) !== null;
    if (!prefix.startsWith('..') && !ignored) return { ...settleListing(dir, top, listFilesSync(top, prefix, options.blobIds === true)), git: true };
  }
  const walked = walkSync(dir);
  return { ...settleLinks(dir, dir, walked.files, walked.links), git: false, blobIds: new Map(), gitlinks: [] };
}

function gitOutput(cwd: string, args: string[]): string | null {
  try {
    return execFileSync('git', args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'], maxBuffer: 1 << 30 });
  } catch {
    return null;
  }
}

function listFilesSync(top: string, prefix: string, withIds: boolean): FileListing {
  return parseListing(prefix, gitOutput(top, lsFilesArgs(prefix, withIds)) ?? '', withIds, (fullName) => isSymlink(path.join(top, fullName)));
}

function walkSync(dir: string): { files: string[]; links: string[] } {
  const entries = loadFastGlob().sync('**/*', { cwd: dir, dot: true, onlyFiles: false, followSymbolicLinks: false, objectMode: true, ignore: ['**/node_modules/**', '**/.git/**', '**/.git'] });
  const all = entries.filter((entry) => entry.dirent.isFile() || entry.dirent.isSymbolicLink()).map((entry) => entry.path);
  const links = entries.filter((entry) => entry.dirent.isSymbolicLink()).map((entry) => entry.path);
  const sources: GitignoreSource[] = [];
  for (const rel of all) {
    if ((rel !== '.gitignore' && !rel.endsWith('/.gitignore')) || links.includes(rel)) continue;
    // An unreadable .gitignore ignores nothing, as in git.
    const read = readBounded(path.join(dir, rel), MAX_INPUT_BYTES);
    if (read.ok) sources.push({ dir: rel === '.gitignore' ? '' : rel.slice(0, -'/.gitignore'.length), text: read.bytes.toString('utf8') });
  }
  const ignored = createIgnoreFilter(sources);
  return { files: all.filter((rel) => !ignored(rel)).sort(), links: links.filter((rel) => !ignored(rel)) };
}

/** fast-glob walks only outside a git work tree: loaded there, on first use. */
function loadFastGlob(): typeof FastGlob {
  return createRequire(import.meta.url)('fast-glob') as typeof FastGlob;
}
