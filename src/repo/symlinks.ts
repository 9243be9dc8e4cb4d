import { lstatSync, readlinkSync, realpathSync, statSync } from 'node:fs';
import path from 'node:path';
import type { FileListing } from './listing.js';

export interface SettledLinks {
  /** The listing without the links to directories. */
  files: string[];
  /** Each listed link tripwire does not follow, with why (a finding if a rule needs the file). */
  unfollowed: Map<string, string>;
}

/**
 * Sorts a listing's symbolic links without reading through any of them. A
 * link to a directory inside the repository `top` is dropped: the
 * directory's files are listed under their own paths. A link to a file
 * inside it stays and reads as that file, so a glob or an import that names
 * the link still finds it. A link that leads outside the repository, or to
 * nothing, stays listed but is never followed: tripwire reads nothing
 * outside the repository it checks.
 */
/** A target with a control character (a trailing newline breaks a link) is shown quoted, so the character is visible. */
function shown(target: string): string {
  return /[\u0000-\u001f]/.test(target) ? JSON.stringify(target) : target;
}

export function settleLinks(dir: string, top: string, files: readonly string[], links: Iterable<string>): SettledLinks {
  const dropped = new Set<string>();
  const unfollowed = new Map<string, string>();
  const realTop = realpathSync(top);
  for (const link of links) {
    const absolute = path.join(dir, link);
    const target = shown(readTarget(absolute));
    let real: string;
    try {
      real = realpathSync(absolute);
    } catch (error) {
      // A loop (a → b → a) has no end to exist or not: saying "does not exist" would send the reader looking for a missing file.
      const loop = error instanceof Error && 'code' in error && error.code === 'ELOOP';
      unfollowed.set(
        link,
        loop
          ? `symlink loop, not followed: ${link} → ${target} leads back to itself, so nothing was checked there. Fix or remove the link.`
          : `symlink points to nothing, not followed: ${link} → ${target} does not exist, so nothing was checked there. Fix or remove the link.`,
      );
      continue;
    }
    const rel = path.relative(realTop, real);
    if (rel.startsWith('..') || path.isAbsolute(rel)) {
      unfollowed.set(link, `symlink points outside the repository, not followed: ${link} → ${target}. Nothing it points to was checked; commit the file itself, or list the link in ignore.`);
    } else if (statSync(real).isDirectory()) {
      dropped.add(link);
    }
  }
  return { files: dropped.size === 0 ? [...files] : files.filter((file) => !dropped.has(file)), unfollowed };
}

/** A git listing with its links settled; blob ids (a link never has one) and submodules are kept. */
export function settleListing(dir: string, top: string, listing: FileListing): SettledLinks & { blobIds: Map<string, string>; gitlinks: string[] } {
  return { ...settleLinks(dir, top, listing.files, listing.links), blobIds: listing.blobIds, gitlinks: listing.gitlinks };
}

/** Whether `file` is a symbolic link: for untracked paths, whose mode git does not report. */
export function isSymlink(file: string): boolean {
  try {
    return lstatSync(file).isSymbolicLink();
  } catch {
    return false;
  }
}

function readTarget(link: string): string {
  try {
    return readlinkSync(link);
  } catch {
    return '?';
  }
}
