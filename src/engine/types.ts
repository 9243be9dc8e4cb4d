import type { PreparedWorker } from '../facts/ahead.js';
import type { StagedAhead } from '../repo/diff.js';
import type { Concurrency } from '../facts/pool.js';
import { type PresetName } from '../config/schema.js';
import { type FactCache } from '../facts/cache.js';
import type { CachedFacts } from '../facts/types.js';
import type { RepoModel } from '../model/model.js';
import type { TripwireRule } from '../rule.js';
import type { CheckResult, Severity } from '../types.js';
import type { Progress } from '../util/progress.js';
import { type RunStats } from '../util/timing.js';

export interface CheckOptions {
  cwd: string;
  configFile?: string;
  /** Read and write the fact cache (default true). */
  cache?: boolean;
  cacheLocation?: string;
  /** Run only these rules. */
  rules?: string[];
  /** Report only findings in these files or directories (relative to cwd). */
  paths?: string[];
  /** Compare with the merge base of this ref: rules that look at the diff (removals, self-approval) see it. */
  base?: string;
  /** Check the index (the next commit), not the work tree, and report only findings the staged change can affect. */
  staged?: boolean;
  /** Read the baseline (default true): findings it records are known and not reported. */
  baseline?: boolean;
  /** Write every current finding into the baseline instead of filtering by it. */
  updateBaseline?: boolean;
  /** Also compute the paid ids' coverage by the selection maps (`CheckResult.coverage`), for the reports that show it. */
  coverage?: boolean;
  /** The file listing of the root's workspace root (findWorkspaceRoot), when the caller already has it (the result cache lists first). */
  listing?: { files: string[]; blobIds: Map<string, string>; unfollowed: Map<string, string>; gitlinks: string[] };
  /** Why the cache directory must not be used (null: it may), when the caller already asked (cacheRefusal). */
  cacheRefused?: string | null;
  /** Threads that extract the facts the cache lacks, the main one included (unset: 2 for a cold run with 2,000 files or more to extract, else the main one; see facts/pool.ts threadsFor). */
  concurrency?: Concurrency;
  /** Told of each phase and each file's facts (a terminal's progress line). */
  progress?: Progress;
  /** Check with the configuration of this directory, found without a search (a workspace package's: engine/workspace.ts). */
  root?: string;
  /** Directories under the root, POSIX, whose files other configurations check (workspace packages with their own): not listed, but imports reach them. */
  claimed?: readonly string[];
  /** Record what each rule reads, so that its verdict can be reused (engine/verdicts.ts): run() sets it when the cache is on. */
  trackReads?: boolean;
  /** Fact caches shared by the runs of one check, by version: each is saved by whoever opened the first run (engine/workspace.ts). */
  factCaches?: Map<string, FactCache<CachedFacts>>;
  /** A worker started before the listing, for the first run's extraction ahead (prefetch.ts); disposed when it has nothing to do. */
  aheadWorker?: PreparedWorker;
  /** The git commands of a staged state, started before the configuration was loaded (repo/diff.ts startStagedGit); taken for the directories they ran in. */
  stagedAhead?: StagedAhead;
}

export interface RunResult extends CheckResult {
  root: string;
  model: RepoModel;
  rulesRun: readonly TripwireRule[];
  /**
   * What the run read from outside its file listing, each with the blob id of
   * the content then (null: absent): a stored verdict is stale once one changes.
   */
  outsideInputs: ReadonlyMap<string, string | null>;
  /** Why the caches were not used although enabled (see BuiltModel), for the surface to say once. */
  cacheRefused: string | null;
  /** Where the time went (`TIMING=1`, `--stats`). */
  stats: RunStats;
}

export interface BuiltModel {
  model: RepoModel;
  root: string;
  /** The absolute path of the configuration file, or null when no file configures tripwire. */
  configPath: string | null;
  cache: FactCache<CachedFacts>;
  /** Why the cache was not used although it was enabled (git tracks a file in its directory): the surface says so once. */
  cacheRefused: string | null;
}

export interface SelectedRule {
  rule: TripwireRule;
  severity: Severity;
  options: unknown;
  /** Under `recommended`, heuristic kinds of finding are capped at warn; under `strict` they keep the rule's severity. */
  preset: PresetName;
}
