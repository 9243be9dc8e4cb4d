import { mapChanges, selectIds } from '../analysis/select.js';
import { mapLabel, selectionOf } from '../analysis/selection.js';
import { modelKeyNames, paidJobs } from '../analysis/ci-lanes.js';
import type { LaneChange, MapChange, SelectedId, Selection } from '../analysis/selection-types.js';
import { WORKFLOW_FILE } from '../facts/extract-workflow.js';
import { isRecord } from '../util/guards.js';
import { UsageError } from '../errors.js';
import type { RepoModel } from '../model/model.js';
import { changedFiles, readTextsAt, resolveBase } from '../repo/diff.js';
import { findGitRoot } from '../repo/git.js';
import { buildModel } from './project.js';
import { selectRules } from './rule-set.js';

export interface SelectOptions {
  cwd: string;
  configFile?: string;
  /** Diff from the merge base of this ref (to the work tree, or to the index with `staged`). */
  base?: string;
  staged: boolean;
  tier?: string;
}

export interface SelectResult {
  base: string | null;
  changed: string[];
  selected: SelectedId[];
  /** The paid ids in scope (of the tier, when one is asked). */
  total: number;
  /** Why the caches were not used although enabled, for the surface to say once. */
  cacheRefused: string | null;
  /** The maps could not be evaluated: nothing can be selected from them (`file:line:column message` each). */
  broken: string[];
}

/** The paid test ids a diff selects, from the same maps `check` verifies. */
export async function select(options: SelectOptions): Promise<SelectResult> {
  const { model, root, cacheRefused } = await buildModel({ cwd: options.cwd, ...(options.configFile !== undefined && { configFile: options.configFile }) });
  const tier = options.tier;
  if (tier !== undefined) {
    const tiers = model.config.maps?.tiers;
    if (tiers === undefined) throw new UsageError('--tier needs a tier map: set maps.tiers in the configuration');
    if (!tiers.values.includes(tier)) throw new UsageError(`unknown tier '${tier}' (allowed: ${tiers.values.join(', ')})`);
  }
  const gitRoot = await findGitRoot(root);
  if (gitRoot === null) throw new UsageError(`select compares git revisions, but ${root} is not inside a git work tree`);
  const base = options.base === undefined ? null : await resolveBase(gitRoot, options.base);
  const changed = await changedFiles(gitRoot, root, { ...(base !== null && { base }), staged: options.staged });

  const { selection, problems, mapFiles } = selectionOf(model);
  const broken = [...new Set([...problems, ...model.reportedProblems()].map((p) => `${p.file}:${p.loc.line}:${p.loc.column} ${p.message}`))];
  if (broken.length > 0) {
    model.saveCache();
    return { base, changed, selected: [], total: 0, cacheRefused, broken };
  }
  const readThrough = new Set([...mapFiles.values()].flat());
  const diffed = model.config.maps?.globals?.selfReference === 'map-diff' && changed.some((file) => readThrough.has(file));
  const changes = diffed ? await mapChangesSince(model, gitRoot, base ?? 'HEAD', changed, selection) : [];
  const lanes = await laneChangesSince(model, gitRoot, base ?? 'HEAD', changed, options.configFile ?? null);
  model.saveCache();
  return {
    base,
    changed,
    selected: selectIds(selection, changed, { ...(tier !== undefined && { tier }), mapChanges: changes, laneChanges: lanes }),
    total: idsInScope(selection, tier).size,
    cacheRefused,
    broken: [],
  };
}

/**
 * The paid lanes in CI whose definition the diff changed: a job of a changed
 * workflow that paid-ci-lanes counts as paid (it receives a model key or runs
 * paid tests), new or different from the job at the revision the diff starts
 * from (its definition and the workflow's settings, as data). A new model, a
 * new key or a new command changes what every paid test it runs does; an
 * edit to a free job of the same file changes none.
 */
async function laneChangesSince(model: RepoModel, gitRoot: string, rev: string, changed: readonly string[], configFile: string | null): Promise<LaneChange[]> {
  const workflows = changed.filter((file) => WORKFLOW_FILE.test(file) && model.fileSet.has(file));
  if (workflows.length === 0) return [];
  const [ciRule] = selectRules(model.config, ['paid-ci-lanes'], configFile);
  const extra = isRecord(ciRule?.options) && Array.isArray(ciRule.options['secrets']) ? ciRule.options['secrets'].filter((name) => typeof name === 'string') : [];
  const keys = modelKeyNames(model, extra);
  const old = await readTextsAt(gitRoot, model.root, rev, workflows, model.config.limits.maxFileBytes);
  const then = model.atRevision(workflows, old.texts);
  const out: LaneChange[] = [];
  for (const file of workflows) {
    const now = model.workflowFacts(file);
    if (now === null || now.parseErrors.length > 0) continue;
    const before = new Map((then.workflowFacts(file)?.jobs ?? []).map((job) => [job.id, job.digest]));
    for (const job of paidJobs(model, now, keys)) {
      const was = before.get(job.id);
      if (was === undefined) out.push({ file, job: job.id, change: 'added' });
      // A digest that could not be built (null) is never taken as unchanged.
      else if (job.digest === null || was !== job.digest) out.push({ file, job: job.id, change: 'changed' });
    }
  }
  return out;
}

function idsInScope(selection: Selection, tier: string | undefined): Set<string> {
  const ids = new Set([...selection.touchfiles.map((entry) => entry.key.value), ...selection.paidIds.map((paid) => paid.id)]);
  if (tier === undefined) return ids;
  return new Set([...ids].filter((id) => selection.tiers?.get(id)?.value === tier));
}

/**
 * With `maps.globals.selfReference: "map-diff"`: the keys whose entries an edit
 * to a map file changed, from the maps evaluated statically at the revision
 * the diff starts from and now. A map that did not exist or did not evaluate
 * there makes each of its keys new or changed: a key is never missed.
 */
async function mapChangesSince(model: RepoModel, gitRoot: string, rev: string, changed: readonly string[], now: Selection): Promise<MapChange[]> {
  const old = await readTextsAt(gitRoot, model.root, rev, changed, model.config.limits.maxFileBytes);
  const then = selectionOf(model.atRevision(changed, old.texts)).selection;
  const tiers = model.config.maps?.tiers;
  return mapChanges(then, now, tiers === undefined ? 'tiers' : mapLabel(tiers));
}
