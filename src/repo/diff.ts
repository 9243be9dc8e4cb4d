import path from 'node:path';
import { lstatSync, readlinkSync } from 'node:fs';
import { blobId, fileBlobId } from './blob-id.js';
import { createBlobReader, findGitRoot, isOversized, plainGit, subdirectory, type RawGit } from './git.js';
import { parseListing, pathspecFor, splitNul } from './listing.js';
import { settleListing } from './symlinks.js';
import { compareText } from '../util/compare.js';

const FULL_HISTORY = "In CI, check out with full history (actions/checkout 'fetch-depth: 0')";

/** The base of a diff cannot be found locally: the CLI exits 2 and says how to fetch it. */
export class MissingRefError extends Error {
  override readonly name = 'MissingRefError';
  readonly ref: string;

  constructor(ref: string, message: string) {
    super(message);
    this.ref = ref;
  }
}

/**
 * The output of a git command, or null when it failed. simple-git resolves a
 * non-zero exit that printed nothing on stderr (`rev-parse --verify --quiet`,
 * `merge-base` without a common ancestor) with empty output, hence the '' check.
 */
async function attempt(git: RawGit, args: string[]): Promise<string | null> {
  try {
    const output = (await git.raw(args)).trim();
    return output === '' ? null : output;
  } catch {
    return null;
  }
}

function commitOf(git: RawGit, ref: string): Promise<string | null> {
  return attempt(git, ['rev-parse', '--verify', '--quiet', '--end-of-options', `${ref}^{commit}`]);
}

async function fetchHint(git: RawGit, ref: string): Promise<string> {
  const configured = (await attempt(git, ['remote']))?.split('\n').filter((name) => name !== '') ?? [];
  const remotes = configured.length > 0 ? configured : ['origin'];
  const tracking = ref.startsWith('refs/remotes/') ? ref.slice('refs/remotes/'.length) : ref;
  const remote = remotes
    .filter((name) => tracking.startsWith(`${name}/`))
    .sort((a, b) => b.length - a.length)[0];
  if (remote !== undefined) return `run 'git fetch ${remote} ${tracking.slice(remote.length + 1)}'`;
  const origin = remotes.includes('origin') ? 'origin' : (remotes[0] ?? 'origin');
  if (/^[0-9a-f]{7,64}$/i.test(ref)) return `run 'git fetch ${origin} ${ref}'`;
  return `run 'git fetch ${origin} ${ref}' and use '${origin}/${ref}' as the base`;
}

/**
 * The merge base of `ref` and HEAD, as a full commit id: what a pull request's
 * diff is computed against. Throws MissingRefError when `ref` or HEAD does not
 * exist here, or when a shallow clone lacks the commits that join them.
 */
export async function resolveBase(root: string, ref: string): Promise<string> {
  if ((await findGitRoot(root)) === null) throw new Error(`${root} is not inside a git work tree`);
  const git = plainGit(root);
  const head = await commitOf(git, 'HEAD');
  if (head === null) {
    throw new MissingRefError('HEAD', `HEAD has no commit: the repository has no commits yet, so there is no merge base with '${ref}'. Commit first, or compare the index with --staged.`);
  }
  const shallow = (await attempt(git, ['rev-parse', '--is-shallow-repository'])) === 'true';
  const target = await commitOf(git, ref);
  if (target === null) {
    const where = shallow ? ' in this shallow clone' : '';
    throw new MissingRefError(ref, `base ref '${ref}' not found${where}. ${FULL_HISTORY} or ${await fetchHint(git, ref)}.`);
  }
  const base = await attempt(git, ['merge-base', target, head]);
  if (base !== null) return base;
  if (shallow) {
    throw new MissingRefError(ref, `no merge base of '${ref}' and HEAD: this is a shallow clone and the commits that join them were not fetched. ${FULL_HISTORY} or run 'git fetch --unshallow'.`);
  }
  throw new MissingRefError(ref, `no merge base of '${ref}' and HEAD: they share no history.`);
}

export interface ChangedFilesOptions {
  /** Compare with the merge base of this ref and HEAD (see resolveBase); a merge base resolves to itself. */
  base?: string;
  /** Compare the index rather than the work tree: with `base`, merge base → index; alone, HEAD → index. */
  staged?: boolean;
}

/**
 * The files a change touches, relative to `dir` (the project root, at or
 * under the work tree top level `root`), POSIX, sorted and unique. Renames
 * count as their old and new path, deletions count. Against a base, the work
 * tree side includes uncommitted and untracked-not-ignored files.
 */
export async function changedFiles(root: string, dir: string, options: ChangedFilesOptions): Promise<string[]> {
  if (options.base === undefined && options.staged !== true) throw new Error('changedFiles needs a base, staged, or both');
  const prefix = subdirectory(root, dir);
  const pathspec = pathspecFor(prefix);
  const git = plainGit(root);
  // --no-relative: a user's diff.relative setting would make names relative to the cwd.
  const diff = ['diff', '--name-only', '-z', '--no-renames', '--no-relative', '--no-ext-diff'];

  const names: Promise<string[]>[] = [];
  if (options.base === undefined) {
    // Without a commit, `diff --cached` compares with HEAD, or with nothing on an unborn branch. (Index against a tree: git writes nothing.)
    names.push(git.raw([...diff, '--cached', ...pathspec]).then(splitNul));
  } else {
    const base = await resolveBase(root, options.base);
    if (options.staged === true) {
      names.push(git.raw([...diff, '--cached', base, ...pathspec]).then(splitNul));
    } else {
      names.push(workTreeChanges(git, root, base, pathspec, false).then((entries) => entries.flatMap((entry) => (entry.oldPath === undefined ? [entry.path] : [entry.oldPath, entry.path]))));
      names.push(git.raw(['ls-files', '-z', '--others', '--exclude-standard', ...pathspec]).then(splitNul));
    }
  }

  const files = new Set<string>();
  for (const output of await Promise.all(names)) {
    for (const fullName of output) {
      // An untracked nested repository is listed as `dir/`: it is not a file.
      if (fullName.endsWith('/')) continue;
      files.add(prefix === '' ? fullName : fullName.slice(prefix.length + 1));
    }
  }
  return [...files].sort();
}

export interface FileChange {
  status: 'added' | 'modified' | 'deleted' | 'renamed';
  /** The path now (for a deletion: the path that was deleted). */
  path: string;
  /** For a rename: the path at the base. */
  oldPath?: string;
}

/**
 * What changed between the merge base of `base` and the working tree (or the
 * index with `staged`), with git's rename detection, paths relative to `dir`.
 * Untracked files count as added.
 */
export async function diffChanges(root: string, dir: string, mergeBase: string, options: { staged?: boolean } = {}): Promise<FileChange[]> {
  const prefix = subdirectory(root, dir);
  const pathspec = pathspecFor(prefix);
  const git = plainGit(root);
  const [entries, untrackedOutput] = await Promise.all([
    options.staged === true ? git.raw(['diff-index', '--cached', '--raw', '-z', '-M', ...NO_USER_DIFF, mergeBase, ...pathspec]).then(parseRaw) : workTreeChanges(git, root, mergeBase, pathspec, true),
    options.staged === true ? Promise.resolve('') : git.raw(['ls-files', '-z', '--others', '--exclude-standard', ...pathspec]),
  ]);
  const local = (fullName: string): string | null => (prefix === '' ? fullName : fullName.startsWith(`${prefix}/`) ? fullName.slice(prefix.length + 1) : null);
  const changes: FileChange[] = [];
  for (const entry of entries) {
    const to = local(entry.path);
    if (to === null) continue;
    if (entry.status === 'R' || entry.status === 'C') {
      const from = local(entry.oldPath ?? '');
      if (entry.status === 'C' || from === null) changes.push({ status: 'added', path: to });
      else changes.push({ status: 'renamed', path: to, oldPath: from });
      continue;
    }
    changes.push({ status: entry.status === 'A' ? 'added' : entry.status === 'D' ? 'deleted' : 'modified', path: to });
  }
  for (const fullName of splitNul(untrackedOutput)) {
    const path = local(fullName);
    if (path !== null && !fullName.endsWith('/')) changes.push({ status: 'added', path });
  }
  return changes.sort((a, b) => compareText(a.path, b.path));
}

/** Options that keep a user's diff configuration out of plumbing output. */
const NO_USER_DIFF = ['--no-ext-diff'];
const NULL_ID = /^0+$/;

interface RawEntry {
  status: string;
  path: string;
  oldPath?: string;
  oldId: string;
  newId: string;
}

/** `git diff-index --raw -z` / `diff-files` output: `:mode mode id id status\0path\0[path\0]`. */
function parseRaw(output: string): RawEntry[] {
  const fields = splitNul(output);
  const out: RawEntry[] = [];
  for (let i = 0; i < fields.length; i++) {
    const header = fields[i] ?? '';
    if (!header.startsWith(':')) continue;
    const [, , oldId = '', newId = '', rawStatus = ''] = header.slice(1).split(' ');
    const status = rawStatus.charAt(0);
    if (status === 'R' || status === 'C') {
      out.push({ status, oldPath: fields[i + 1] ?? '', path: fields[i + 2] ?? '', oldId, newId });
      i += 2;
    } else {
      out.push({ status, path: fields[i + 1] ?? '', oldId, newId });
      i += 1;
    }
  }
  return out;
}

/**
 * What differs between a tree and the work tree, read with plumbing that never
 * writes the index (`git diff` refreshes stale stat data in `.git/index`; a
 * check must not touch the repository). `diff-index` trusts the index's stat
 * data, so a file whose stat is stale is listed though its content is the
 * tree's: such an entry is dropped when the file's blob id equals the tree's.
 */
async function workTreeChanges(git: RawGit, root: string, tree: string, pathspec: readonly string[], renames: boolean): Promise<RawEntry[]> {
  const entries = parseRaw(await git.raw(['diff-index', '--raw', '-z', renames ? '-M' : '--no-renames', ...NO_USER_DIFF, tree, ...pathspec]));
  return entries.filter((entry) => {
    if (entry.status !== 'M' || !NULL_ID.test(entry.newId)) return true;
    return workTreeBlobId(path.join(root, entry.path)) !== entry.oldId;
  });
}

/** The blob id git would give the work tree's entry: a link's target text, a file's bytes. */
function workTreeBlobId(file: string): string | null {
  try {
    return lstatSync(file).isSymbolicLink() ? blobId(readlinkSync(file)) : fileBlobId(file);
  } catch {
    return null;
  }
}

export interface TextsAt {
  texts: Map<string, string>;
  /** Paths whose blob is over `maxBytes`, with its size: never read into memory. */
  oversized: Map<string, number>;
}

/**
 * The text of each path (relative to `dir`) at `rev`, read through one
 * `git cat-file --batch`; missing paths are left out, and a blob over
 * `maxBytes` is only its size.
 */
export async function readTextsAt(root: string, dir: string, rev: string, paths: readonly string[], maxBytes = Number.POSITIVE_INFINITY): Promise<TextsAt> {
  const prefix = subdirectory(root, dir);
  const reader = createBlobReader(root);
  try {
    const blobs = await Promise.all(paths.map((p) => reader.read(rev, prefix === '' ? p : `${prefix}/${p}`, maxBytes)));
    const texts = new Map<string, string>();
    const oversized = new Map<string, number>();
    for (const [index, blob] of blobs.entries()) {
      const p = paths[index];
      if (blob === null || p === undefined) continue;
      if (isOversized(blob)) oversized.set(p, blob.oversized);
      else texts.set(p, blob.toString('utf8'));
    }
    return { texts, oversized };
  } finally {
    await reader.close();
  }
}

/** git's empty tree: the base of a repository with no commits yet. */
const EMPTY_TREE = '4b825dc642cb6eb9a060e54bf8d69288fbee4904';

export interface StagedState {
  /** The files in the index (what the commit will hold), relative to `dir`. */
  files: string[];
  /** The index blob id of every file whose work tree content equals it. */
  blobIds: Map<string, string>;
  /** The index text of every file whose work tree differs from the index (partially staged, or deleted unstaged). */
  indexTexts: Map<string, string>;
  /** Files whose index content is over the size limit, with its size (not read). */
  indexOversized: Map<string, number>;
  /** HEAD, or the empty tree before the first commit. */
  base: string;
  changes: FileChange[];
  oldTexts: Map<string, string>;
  /** Changed files whose content at the base is over the size limit, with its size (not read). */
  oldOversized: Map<string, number>;
  /** Index entries that are links tripwire does not follow, with why. */
  unfollowed: Map<string, string>;
  /** Submodules in the index. */
  gitlinks: string[];
}

/** What git says of the index, read before its texts: `readStagedState` takes it from `startStagedGit` when it was started for the same directories. */
interface StagedOutputs {
  /** The git top level the commands ran in, and the listed directory's path in it. */
  root: string;
  prefix: string;
  indexed: string;
  /** Files whose work tree content differs from the index, NUL-separated, as git names them. */
  unstaged: string;
  head: string | null;
  againstHead: FileChange[] | null;
}

/** The git commands of a staged state, started before they are asked for (StagedAhead). */
export interface StagedAhead {
  /** The directory whose git top level is `root` (the configuration's root) and the directory listed (its workspace root). */
  at: string;
  dir: string;
  outputs: Promise<StagedOutputs | null>;
}

/**
 * Starts the git commands `readStagedState` needs for `dir`, in the top level
 * of `at`: a hook's check would otherwise wait for them one after another
 * once its configuration is loaded. Never rejects (null: read them again).
 */
export function startStagedGit(at: string, dir: string, given?: KnownIndex): StagedAhead {
  // Its top level is that of `dir`, which is `at`'s only when they are the same directory.
  const known = given?.dir === dir && at === dir ? given : undefined;
  const outputs = (known ? Promise.resolve(known.root) : findGitRoot(at)).then((root) => (root === null ? null : stagedOutputs(root, dir, known)));
  return { at, dir, outputs: outputs.catch(() => null) };
}

/** The git top level of `at`: the one the commands started ahead found when they were started for `at`, else asked of git; null outside a work tree. */
export async function stagedTopLevel(at: string, ahead?: StagedAhead): Promise<string | null> {
  const early = ahead?.at === at ? await ahead.outputs : null;
  return early?.root ?? findGitRoot(at);
}

/**
 * What a check read of the index before it knew it would need the staged
 * state (the result cache's probe): the top level of `dir`, HEAD, and the
 * index listed as `readStagedState` lists it (`git ls-files -z -s -t
 * --cached --full-name` run in `dir`). Offered for another directory, it
 * is not taken.
 */
export interface KnownIndex {
  /** The directory listed: the listing is taken for it only. */
  dir: string;
  root: string;
  head: string | null;
  indexed: string;
}

async function stagedOutputs(root: string, dir: string, known?: KnownIndex): Promise<StagedOutputs> {
  const prefix = subdirectory(root, dir);
  const pathspec = pathspecFor(prefix);
  const git = plainGit(root);
  const [indexed, unstaged, head, againstHead] = await Promise.all([
    known?.indexed ?? git.raw(['ls-files', '-z', '-s', '-t', '--cached', ...pathspec]),
    // Index against work tree with plumbing (never refreshes the index); a stale-stat entry whose content equals the index is dropped.
    git.raw(['diff-files', '--raw', '-z', ...NO_USER_DIFF, ...pathspec]).then((output) =>
      parseRaw(output)
        .filter((entry) => entry.status !== 'M' || workTreeBlobId(path.join(root, entry.path)) !== entry.oldId)
        .map((entry) => entry.path)
        .join('\0'),
    ),
    known ? known.head : attempt(git, ['rev-parse', '--verify', '--quiet', 'HEAD^{commit}']),
    // Asked beside the others rather than after them (a chain of git processes is what a hook waits for); an unborn HEAD fails it.
    diffChanges(root, dir, 'HEAD', { staged: true }).catch(() => null),
  ]);
  return { root, prefix, indexed, unstaged, head, againstHead };
}

/**
 * The repository as the next commit would have it: the index, not the work
 * tree. Works before the first commit and in a linked worktree (git resolves
 * the right index for the directory). `ahead`: the same commands started
 * earlier for `dir` (startStagedGit), taken when they ran in `root`.
 */
export async function readStagedState(root: string, dir: string, maxBytes = Number.POSITIVE_INFINITY, ahead?: StagedAhead): Promise<StagedState> {
  const early = ahead?.dir === dir ? await ahead.outputs : null;
  const { prefix, indexed, unstaged, head, againstHead } = early?.root === root ? early : await stagedOutputs(root, dir);
  const local = (fullName: string): string => (prefix === '' ? fullName : fullName.slice(prefix.length + 1));
  // The index as a listing: no untracked, deleted or modified files, since the work tree is not what is checked.
  const listing = parseListing(prefix, indexed, true);
  // The index says which paths are links; where they lead is only known from the work tree.
  const { files, unfollowed, blobIds: ids, gitlinks } = settleListing(dir, root, listing);
  const fileSet = new Set(files);
  const differing = splitNul(unstaged).map(local).filter((file) => fileSet.has(file));
  // The index id of every file the work tree agrees with: its facts need no read.
  for (const file of differing) ids.delete(file);
  const base = head?.trim() || EMPTY_TREE;
  const changes = base !== EMPTY_TREE && againstHead !== null ? againstHead : await diffChanges(root, dir, base, { staged: true });
  const oldPaths = base === EMPTY_TREE ? [] : changes.flatMap((change) => (change.status === 'added' ? [] : [change.oldPath ?? change.path]));
  const [index, old] = await Promise.all([readTextsAt(root, dir, '', differing, maxBytes), readTextsAt(root, dir, base, oldPaths, maxBytes)]);
  return { files, blobIds: ids, indexTexts: index.texts, indexOversized: index.oversized, base, changes, oldTexts: old.texts, oldOversized: old.oversized, unfollowed, gitlinks };
}
