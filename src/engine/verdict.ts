import { realpathSync } from 'node:fs';
import { isAbsolute, relative, resolve, sep } from 'node:path';
import { findGitRoot } from '../repo/git.js';
import { DOCS_BASE_URL } from '../rule.js';
import type { RunStats } from '../util/timing.js';
import { CORE_RULES } from './core-checks.js';
import { probeResults, type StoredRun } from './results-cache.js';
import { severityOf } from './rule-set.js';
import { runChecks, type WorkspaceOptions } from './workspace.js';

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
  const probe = options.cache !== false && options.updateBaseline !== true ? await probeResults(options) : null;
  const hit = probe?.hit && (options.coverage !== true || probe.hit.coverage !== undefined) ? probe.hit : null;
  if (hit) return { run: hit, cached: true, stats: null, cacheRefused: null };
  const result = await runChecks({ ...options, ...(probe?.listing && { listing: probe.listing }), ...(probe && { cacheRefused: probe.refused }) });
  const stored: StoredRun = {
    root: result.root,
    findings: result.findings,
    summary: result.summary,
    rules: [
      ...result.rulesRun.map((rule) => ({ id: rule.id, description: rule.meta.description, url: rule.meta.url, severity: severityOf(result.model.config.rules[rule.id]), messages: rule.meta.messages })),
      ...Object.entries(CORE_RULES).map(([id, core]) => ({ id, description: core.description, url: `${DOCS_BASE_URL}core-checks.md#${id}`, messages: core.messages })),
    ],
    ...(result.coverage && { coverage: result.coverage }),
  };
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
