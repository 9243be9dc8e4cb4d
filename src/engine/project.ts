import { relative } from 'node:path';
import { loadConfig, loadConfigSync, type LoadedConfig } from '../config/load.js';
import { DEFAULT_MAX_FILE_BYTES } from '../config/schema.js';
import { cacheDirectory, openFactCache } from '../facts/cache.js';
import type { CachedFacts } from '../facts/types.js';
import { FACTS_VERSION, RepoModel, type DiffInput } from '../model/model.js';
import { diffChanges, readStagedState, readTextsAt, resolveBase } from '../repo/diff.js';
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
  const loaded = await loadConfig({ cwd: options.cwd, ...(options.configFile !== undefined && { configFile: options.configFile }) });
  if (options.staged === true) {
    if (options.base !== undefined) throw new UsageError('--staged and --base cannot be combined: --staged compares the index with HEAD');
    const gitRoot = await findGitRoot(loaded.root);
    if (gitRoot === null) throw new UsageError(`--staged needs a git repository, and ${loaded.root} is not inside one`);
    const [state, cacheRefused] = await Promise.all([readStagedState(gitRoot, loaded.root, loaded.config.limits.maxFileBytes), refusalOf(loaded.root, options)]);
    const diff: DiffInput = { base: state.base, changes: state.changes, oldTexts: state.oldTexts, oldOversized: state.oldOversized };
    return assembleModel(loaded, state.files, { ...options, overlays: state.indexTexts, oversized: state.indexOversized, blobIds: state.blobIds, unfollowed: state.unfollowed, gitlinks: state.gitlinks, cacheRefused }, diff);
  }
  const [{ files, blobIds, unfollowed, gitlinks }, cacheRefused] = await Promise.all([options.listing ?? discoverFiles(loaded.root, { blobIds: options.cache !== false }), refusalOf(loaded.root, options)]);
  const diff = options.base === undefined ? undefined : await readDiff(loaded.root, options.base, loaded.config.limits.maxFileBytes);
  return assembleModel(loaded, files, { ...options, blobIds, unfollowed, gitlinks, cacheRefused }, diff);
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
  options: CheckOptions & { overlays?: ReadonlyMap<string, string>; oversized?: ReadonlyMap<string, number>; blobIds?: ReadonlyMap<string, string>; unfollowed?: ReadonlyMap<string, string>; gitlinks?: readonly string[] },
  diff: DiffInput | undefined,
): BuiltModel {
  const { config, root } = loaded;
  const cacheRefused = options.cache === false ? null : (options.cacheRefused ?? null);
  const cache = openFactCache<CachedFacts>({
    root,
    // The configuration the facts depend on (recorded callee names) is part of each entry's key.
    // Facts are only ever taken from files within the size limit: another limit, another cache.
    version: `${VERSION}-f${FACTS_VERSION}${config.limits.maxFileBytes === DEFAULT_MAX_FILE_BYTES ? '' : `-l${config.limits.maxFileBytes}`}`,
    enabled: options.cache !== false && cacheRefused === null,
    ...(options.cacheLocation !== undefined && { location: options.cacheLocation }),
  });
  const configFile = loaded.file === null ? null : toPosix(relative(root, loaded.file));
  const progress = options.progress;
  const onFacts = progress && (() => progress.facts(model.stats.parsed + model.stats.cached));
  const model: RepoModel = new RepoModel({ root, config, configFile, files, cache, ...(onFacts && { onFacts }), ...(diff && { diff }), ...(options.overlays && { overlays: options.overlays }), ...(options.oversized && { oversized: options.oversized }), ...(options.blobIds && { blobIds: options.blobIds }), ...(options.unfollowed && { unfollowed: options.unfollowed }), ...(options.gitlinks && { gitlinks: options.gitlinks }) });
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
