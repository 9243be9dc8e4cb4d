/** The output of the `git ls-files -z` listings a file listing is built from. */
export interface LsFilesOutput {
  /** `--stage`: `<mode> <oid> <stage>\t<path>` per entry (an unmerged path once per stage). */
  stage: string;
  /** `--others --exclude-standard`. */
  others: string;
  /** `--deleted`. */
  deleted: string;
  /** `--modified`, or '' when blob ids are not wanted. */
  modified: string;
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
}

/** The pathspec that limits a listing run at the top level to the subdirectory `prefix` ('' for all). */
export function pathspecFor(prefix: string): string[] {
  return prefix === '' ? [] : ['--', `:(top,literal)${prefix}/`];
}

export function splitNul(output: string): string[] {
  return output.split('\0').filter((entry) => entry !== '');
}

/**
 * Files under `prefix` that git would see: tracked and untracked-but-not-ignored,
 * minus tracked files deleted from the work tree, relative to `prefix`; with
 * `withIds`, the blob id of each tracked file the work tree agrees with. No id
 * is given for what reading the path would not return: a symbolic link (its
 * blob holds the link), a conflicted path (one entry per side, markers on
 * disk), or an untracked file shadowing an entry.
 */
export function parseListing(prefix: string, output: LsFilesOutput, withIds: boolean): FileListing {
  const local = (fullName: string): string => (prefix === '' ? fullName : fullName.slice(prefix.length + 1));
  const deleted = new Set(splitNul(output.deleted));
  const modified = new Set(splitNul(output.modified));
  const files = new Set<string>();
  const blobIds = new Map<string, string>();
  const unkeyed = new Set<string>();
  for (const entry of splitNul(output.stage)) {
    const tab = entry.indexOf('\t');
    const [mode, oid, stage] = entry.slice(0, tab).split(' ');
    // Submodules (gitlinks, mode 160000) are not files.
    if (tab === -1 || mode === undefined || oid === undefined || mode === '160000') continue;
    const fullName = entry.slice(tab + 1);
    if (deleted.has(fullName)) continue;
    const rel = local(fullName);
    files.add(rel);
    if (mode === '120000' || stage !== '0') unkeyed.add(rel);
    if (withIds && !modified.has(fullName)) blobIds.set(rel, oid);
  }
  // An untracked nested repository is listed as `dir/`: it is not a file.
  for (const fullName of splitNul(output.others)) {
    if (fullName.endsWith('/')) continue;
    const rel = local(fullName);
    files.add(rel);
    unkeyed.add(rel);
  }
  for (const rel of unkeyed) blobIds.delete(rel);
  return { files: [...files].sort(), blobIds };
}
