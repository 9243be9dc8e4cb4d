import { realpathSync } from 'node:fs';
import { isAbsolute, relative, resolve, sep } from 'node:path';
import { findGitRoot } from '../repo/git.js';
import { adoptEarlyWorker, startEarlyWorker } from './early-worker.js';
import type { RunStats } from '../util/timing.js';
import { checkedRoots, probeResults, type StoredRun } from './results-cache.js';
import { startStagedGit } from '../repo/diff.js';
import type { WorkspaceOptions } from './workspace.js';
import type { runChecks } from './stored-run.js';

export interface Verdict {
  /** What the reporters need: findings, summary, the rules' metadata, the coverage when asked. */
  run: StoredRun;
  /** Served by the result cache (an earlier run with the same inputs): nothing was evaluated. */
  cached: boolean;
  /** Where the time went; null when the verdict was cached. */
  stats: RunStats | null;
  /** Why the caches were not used although enabled, for the surface to say once. */
  cacheRefused: string | null;
}

/**
 * The CLI's check: the result cache first (`cache` off or `--update-baseline`
 * skip it), else the pipeline, whose verdict is then stored. A stored verdict
 * without the map coverage does not answer a run that asks for it.
 */
export async function verdictOf(options: WorkspaceOptions): Promise<Verdict> {
  // Where the configuration loads and what is listed: found once, for the probe and for a staged run's git ahead.
  const roots = checkedRoots(options);
  const cached = options.cache !== false && options.updateBaseline !== true;
  // A staged check (a hook's) most often checks a commit no run has seen: its worker loads the compiler while git answers the
  // probe, started by the CLI's launcher before the bundle loaded (cli/launch.ts) when it could.
  const handed = adoptEarlyWorker();
  const early = cached && options.staged === true && options.concurrency === undefined ? (handed ?? startEarlyWorker()) : null;
  if (early !== handed) handed?.dispose();
  const probe = cached ? await probeResults(options, roots) : null;
  const hit = probe?.hit && (options.coverage !== true || probe.hit.coverage !== undefined) ? probe.hit : null;
  if (hit) {
    early?.dispose();
    return { run: hit, cached: true, stats: null, cacheRefused: null };
  }
  // A staged check that missed goes on with what the probe read of the index, and asks git the rest now, while the engine loads.
  const stagedAhead = options.staged === true && options.base === undefined ? startStagedGit(roots.root, roots.space, probe?.index ?? undefined) : null;
  // A miss with a warm fact cache most often follows an edit: a worker loads the compiler while the engine opens the project.
  const aheadWorker = early ?? (probe !== null && options.concurrency === undefined ? startEarlyWorker() : null);
  let result: Awaited<ReturnType<typeof runChecks>>;
  let stored: StoredRun;
  try {
    // Loaded on a miss only, once the workers it will need are under way.
    const engine = await import('./stored-run.js');
    result = await engine.runChecks({ ...options, ...(probe?.listing && { listing: probe.listing }), ...(probe && { cacheRefused: probe.refused }), ...(aheadWorker && { aheadWorker }), ...(stagedAhead && { stagedAhead }) });
    stored = engine.storedRunOf(result);
  } finally {
    aheadWorker?.dispose();
  }
  probe?.store(stored, result.outsideInputs);
  return { run: stored, cached: false, stats: result.stats, cacheRefused: result.cacheRefused };
}

/** `repoRoot` for the reporters when `root` is below the git top level; compared as real paths, as git reports them. */
export async function repositoryRoot(root: string): Promise<{ repoRoot: string } | undefined> {
  const top = await findGitRoot(root);
  if (top === null) return undefined;
  const prefix = relative(realpathSync(top), realpathSync(root));
  if (prefix === '' || prefix.startsWith('..') || isAbsolute(prefix)) return undefined;
  return { repoRoot: resolve(root, ...prefix.split(sep).map(() => '..')) };
}
