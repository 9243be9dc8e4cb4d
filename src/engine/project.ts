import { posix, relative } from 'node:path';
import { loadConfig, loadConfigSync, type LoadedConfig } from '../config/load.js';
import { findWorkspaceRoot } from '../config/root.js';
import { DEFAULT_MAX_FILE_BYTES } from '../config/schema.js';
import { cacheDirectory, openFactCache } from '../facts/cache.js';
import { useCodeCache } from '../parse/typescript.js';
import type { CachedFacts } from '../facts/types.js';
import { FACTS_VERSION, RepoModel, type DiffInput, type WorkspaceScope } from '../model/model.js';
import type { FileChange } from '../repo/diff.js';
import { diffChanges, readStagedState, readTextsAt, resolveBase, stagedTopLevel } from '../repo/diff.js';
import { cacheRefusal, cacheRefusalSync } from '../repo/cache-guard.js';
import { discoverFiles } from '../repo/files.js';
import { discoverFilesSync } from '../repo/files-sync.js';
import { findGitRoot } from '../repo/git.js';
import { VERSION } from '../version.js';
import { UsageError } from '../errors.js';
import { toPosix } from '../util/path.js';
import { type CheckOptions, type BuiltModel } from './types.js';

/** The configuration and the file list; facts are parsed on demand, so this is cheap. */
export async function buildModel(options: CheckOptions): Promise<BuiltModel> {
  const loaded = await loadConfig({ cwd: options.cwd, ...(options.root !== undefined ? { at: options.root } : options.configFile !== undefined && { configFile: options.configFile }) });
  // Listed from the workspace root: a package's imports of its siblings are followed, and only its own files are checked.
  const space = findWorkspaceRoot(loaded.root);
  const scope = scopeOf(toPosix(relative(space, loaded.root)), options.claimed ?? []);
  if (options.staged === true) {
    if (options.base !== undefined) throw new UsageError('--staged and --base cannot be combined: --staged compares the index with HEAD');
    const ahead = options.stagedAhead;
    const gitRoot = await stagedTopLevel(loaded.root, ahead);
    if (gitRoot === null) throw new UsageError(`--staged needs a git repository, and ${loaded.root} is not inside one`);
    const [state, cacheRefused] = await Promise.all([readStagedState(gitRoot, space, loaded.config.limits.maxFileBytes, ahead), refusalOf(loaded.root, options)]);
    const listed = scope.listing(state);
    const diff: DiffInput = { base: state.base, changes: scope.changes(state.changes), oldTexts: scope.keys(state.oldTexts), oldOversized: scope.keys(state.oldOversized) };
    return assembleModel(loaded, listed.files, { ...options, ...listed, overlays: scope.keys(state.indexTexts), oversized: scope.keys(state.indexOversized), cacheRefused }, diff);
  }
  const [found, cacheRefused] = await Promise.all([options.listing ?? discoverFiles(space, { blobIds: options.cache !== false }), refusalOf(loaded.root, options)]);
  const listed = scope.listing(found);
  const diff = options.base === undefined ? undefined : await readDiff(space, options.base, loaded.config.limits.maxFileBytes);
  return assembleModel(loaded, listed.files, { ...options, ...listed, cacheRefused }, diff && { ...diff, changes: scope.changes(diff.changes), oldTexts: scope.keys(diff.oldTexts), ...(diff.oldOversized && { oldOversized: scope.keys(diff.oldOversized) }) });
}

interface Listing {
  files: readonly string[];
  blobIds: ReadonlyMap<string, string>;
  unfollowed: ReadonlyMap<string, string>;
  gitlinks: readonly string[];
}

/**
 * The workspace root's listing as the root sees it: paths renamed relative to
 * the root (`prefix` is the root's path in the workspace root), the root's own
 * files, less the `claimed` directories, as the listing, and every file as
 * what an import may reach (WorkspaceScope). With neither, the listing as is.
 */
function scopeOf(prefix: string, claimed: readonly string[]) {
  const name = (file: string): string => (prefix === '' ? file : posix.relative(prefix, file));
  const listed = (file: string): boolean => !file.startsWith('../') && !claimed.some((dir) => file === dir || file.startsWith(`${dir}/`));
  const identity = prefix === '' && claimed.length === 0;
  const keys = <T>(map: ReadonlyMap<string, T>): Map<string, T> => new Map([...map].map(([file, value]) => [name(file), value]));
  return {
    keys,
    changes: (changes: readonly FileChange[]): FileChange[] => (prefix === '' ? [...changes] : changes.map((change) => ({ ...change, path: name(change.path), ...(change.oldPath !== undefined && { oldPath: name(change.oldPath) }) }))),
    listing(found: Listing): { files: readonly string[]; blobIds: ReadonlyMap<string, string>; unfollowed: ReadonlyMap<string, string>; gitlinks: readonly string[]; workspace?: WorkspaceScope } {
      if (identity) return found;
      const all = found.files.map(name);
      return {
        files: all.filter(listed),
        blobIds: keys(found.blobIds),
        unfollowed: keys(found.unfollowed),
        gitlinks: found.gitlinks.map(name).filter(listed),
        workspace: { prefix, files: new Set(all) },
      };
    },
  };
}

/** Whether the cache this run would use is one the checked change could have written (see cacheRefusal). */
async function refusalOf(root: string, options: CheckOptions): Promise<string | null> {
  if (options.cache === false) return null;
  return options.cacheRefused !== undefined ? options.cacheRefused : cacheRefusal(cacheDirectory(root, options.cacheLocation), root);
}

/** `buildModel` without `--base`, synchronously, for the ESLint surface; `search: false` takes `cwd` as the root. */
export function buildModelSync(options: CheckOptions & { overlays?: ReadonlyMap<string, string>; search?: boolean }): BuiltModel {
  const loaded = loadConfigSync({ cwd: options.cwd, ...(options.configFile !== undefined && { configFile: options.configFile }), ...(options.search === false && { search: false }) });
  const { files, blobIds, unfollowed, gitlinks } = discoverFilesSync(loaded.root, { blobIds: options.cache !== false });
  const cacheRefused = options.cache === false ? null : cacheRefusalSync(cacheDirectory(loaded.root, options.cacheLocation), loaded.root);
  return assembleModel(loaded, files, { ...options, blobIds, unfollowed, gitlinks, cacheRefused }, undefined);
}

function assembleModel(
  loaded: LoadedConfig,
  files: readonly string[],
  options: CheckOptions & { overlays?: ReadonlyMap<string, string>; oversized?: ReadonlyMap<string, number>; blobIds?: ReadonlyMap<string, string>; unfollowed?: ReadonlyMap<string, string>; gitlinks?: readonly string[]; workspace?: WorkspaceScope },
  diff: DiffInput | undefined,
): BuiltModel {
  const { config, root } = loaded;
  // The compiler's compiled code is the user's, not the repository's: kept unless no cache is wanted at all.
  useCodeCache(options.cache !== false);
  const cacheRefused = options.cache === false ? null : (options.cacheRefused ?? null);
  // The configuration the facts depend on (recorded callee names) is part of each entry's key.
  // Facts are only ever taken from files within the size limit: another limit, another cache.
  const version = `${VERSION}-f${FACTS_VERSION}${config.limits.maxFileBytes === DEFAULT_MAX_FILE_BYTES ? '' : `-l${config.limits.maxFileBytes}`}`;
  const cache =
    options.factCaches?.get(version) ??
    openFactCache<CachedFacts>({
      root,
      version,
      enabled: options.cache !== false && cacheRefused === null,
      ...(options.cacheLocation !== undefined && { location: options.cacheLocation }),
    });
  options.factCaches?.set(version, cache);
  const configFile = loaded.file === null ? null : toPosix(relative(root, loaded.file));
  const progress = options.progress;
  const onFacts = progress && (() => progress.facts(model.stats.parsed + model.stats.cached));
  const model: RepoModel = new RepoModel({ root, config, configFile, files, cache, ...(onFacts && { onFacts }), ...(diff && { diff }), ...(options.overlays && { overlays: options.overlays }), ...(options.oversized && { oversized: options.oversized }), ...(options.blobIds && { blobIds: options.blobIds }), ...(options.unfollowed && { unfollowed: options.unfollowed }), ...(options.gitlinks && { gitlinks: options.gitlinks }), ...(options.workspace && { workspace: options.workspace }), ...(options.trackReads === true && cacheRefused === null && { trackReads: true }) });
  return { model, root, configPath: loaded.file, cache, cacheRefused };
}

/** The changes since the merge base, and the old text of every changed file, read in one batch. */
async function readDiff(root: string, ref: string, maxBytes: number): Promise<DiffInput> {
  const gitRoot = await findGitRoot(root);
  if (gitRoot === null) throw new UsageError(`--base needs a git repository, and ${root} is not inside one`);
  const base = await resolveBase(gitRoot, ref);
  const changes = await diffChanges(gitRoot, root, base);
  const oldPaths = changes.flatMap((change) => (change.status === 'added' ? [] : [change.oldPath ?? change.path]));
  const old = await readTextsAt(gitRoot, root, base, oldPaths, maxBytes);
  return { base, changes, oldTexts: old.texts, oldOversized: old.oversized };
}
