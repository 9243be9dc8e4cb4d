import { eachRecord, fieldEnd } from '../util/records.js';

/**
 * The one `git ls-files` that lists everything a file listing needs: each
 * tracked entry with its mode, blob id and stage (`-s`), tagged (`-t`) as
 * cached (H, or S/M/U for skip-worktree and unmerged entries), changed in the
 * work tree (C), deleted from it (R), or untracked and not ignored (?).
 * `--modified` (C) is only asked for when blob ids are wanted.
 */
export function lsFilesArgs(prefix: string, withIds: boolean): string[] {
  return ['ls-files', '-z', '-s', '-t', '--cached', '--deleted', '--others', '--exclude-standard', ...(withIds ? ['--modified'] : []), ...pathspecFor(prefix)];
}

export interface FileListing {
  /** Relative to the listed directory, POSIX, sorted and unique. */
  files: string[];
  /**
   * The git blob id of each listed file whose work tree content git considers
   * unchanged from the index: its content is known without reading it. Empty
   * unless the `--modified` listing was taken.
   */
  blobIds: Map<string, string>;
  /** The listed files that are symbolic links (mode 120000; an untracked one as `isUntrackedLink` says), to settle with `settleLinks`. */
  links: string[];
  /** Submodules (gitlinks, mode 160000): directories whose files git lists in another repository, never here. Sorted. */
  gitlinks: string[];
}

/** The pathspec that limits a listing run at the top level to the subdirectory `prefix` ('' for all). */
export function pathspecFor(prefix: string): string[] {
  return prefix === '' ? [] : ['--', `:(top,literal)${prefix}/`];
}

export function splitNul(output: string): string[] {
  return output.split('\0').filter((entry) => entry !== '');
}

/**
 * Files under `prefix` that git would see, from the output of `lsFilesArgs`:
 * tracked and untracked-but-not-ignored, minus tracked files deleted from the
 * work tree, relative to `prefix`; with `withIds`, the blob id of each tracked
 * file the work tree agrees with. No id is given for what reading the path
 * would not return: a symbolic link (its blob holds the link), a conflicted
 * path (one entry per side, markers on disk), or an untracked file shadowing
 * an entry.
 */
export function parseListing(prefix: string, output: string, withIds: boolean, isUntrackedLink: (fullName: string) => boolean = () => false): FileListing {
  const local = (fullName: string): string => (prefix === '' ? fullName : fullName.slice(prefix.length + 1));
  const tracked = new Map<string, string>();
  const deleted = new Set<string>();
  const modified = new Set<string>();
  const others: string[] = [];
  const unkeyed = new Set<string>();
  const linked = new Set<string>();
  const gitlinks = new Set<string>();
  // Read in place, record by record (a 10k repository lists 15,000).
  eachRecord(output, '\0', (at, end) => {
    const tag = output[at];
    // The tag, a space, then the rest.
    const rest = at + 2;
    if (tag === '?') {
      // An untracked nested repository is listed as `dir/`: it is not a file.
      if (output.charCodeAt(end - 1) !== 0x2f || end <= rest) others.push(output.slice(rest, end));
      return;
    }
    // `<mode> <oid> <stage>\t<path>`; an unmerged path appears once per stage.
    const tab = output.indexOf('\t', rest);
    if (tab === -1 || tab >= end) return;
    const modeEnd = fieldEnd(output, rest, tab);
    if (modeEnd === tab) return;
    const mode = output.slice(rest, modeEnd);
    const second = fieldEnd(output, modeEnd + 1, tab);
    const oid = output.slice(modeEnd + 1, second);
    const stage = second === tab ? undefined : output.slice(second + 1, fieldEnd(output, second + 1, tab));
    const fullName = output.slice(tab + 1, end);
    // Submodules (gitlinks, mode 160000) are not files: listed apart, so that what they hide can be reported.
    if (mode === '160000') {
      gitlinks.add(local(fullName));
      return;
    }
    if (tag === 'R') deleted.add(fullName);
    else if (tag === 'C') modified.add(fullName);
    else if (tag !== 'K') tracked.set(fullName, oid);
    if (mode === '120000' || stage !== '0') unkeyed.add(fullName);
    if (mode === '120000') linked.add(fullName);
  });
  const files = new Set<string>();
  const blobIds = new Map<string, string>();
  const links = new Set<string>();
  for (const [fullName, oid] of tracked) {
    if (deleted.has(fullName)) continue;
    const rel = local(fullName);
    files.add(rel);
    if (linked.has(fullName)) links.add(rel);
    if (withIds && !modified.has(fullName) && !unkeyed.has(fullName)) blobIds.set(rel, oid);
  }
  for (const fullName of others) {
    const rel = local(fullName);
    files.add(rel);
    blobIds.delete(rel);
    if (isUntrackedLink(fullName)) links.add(rel);
    else links.delete(rel);
  }
  return { files: [...files].sort(), blobIds, links: [...links].sort(), gitlinks: [...gitlinks].sort() };
}
