// The one pipeline both surfaces run, top to bottom: open the project (configuration,
// file listing, diff) → the rule set (options parsed once) → evaluate the rules, then
// tripwire's own findings and the suppressions → the baseline → narrow to what this
// run reports → one order. The CLI adds its result cache around it (results-cache.ts);
// the ESLint adapter evaluates rule by rule over the same project (project.ts).
import { join } from 'node:path';
import type { RepoModel } from '../model/model.js';
import { mapCoverage } from '../analysis/coverage.js';
import { fileBlobId } from '../repo/blob-id.js';
import { roundMs, stopwatch, type RuleTime } from '../util/timing.js';
import { type CheckOptions, type RunResult } from './types.js';
import { buildModel } from './project.js';
import { selectRules } from './rule-set.js';
import { evaluate } from './evaluate.js';
import { assertSomethingToCheck, assertPathsListed, narrow } from './narrow.js';
import { applyBaselineStep } from './baseline-step.js';
import { extractChangedAhead, shareExtraction } from './prefetch.js';
import { cacheDirectory } from '../facts/cache.js';
import { openVerdicts } from './verdicts.js';
import { cacheSecret } from '../util/cache-secret.js';
import { EVALUATED, noteBreadth } from '../util/breadth.js';

export async function run(options: CheckOptions): Promise<RunResult> {
  const started = performance.now();
  const watch = stopwatch();
  noteBreadth(EVALUATED);
  // Reads are recorded only where a verdict can be stored: the cache on and usable, and a cache key that outlives the run.
  const { model, root, configPath, cacheRefused } = await buildModel({ ...options, trackReads: options.cache !== false && cacheSecret().persistent });
  watch.lap('configuration and file listing');
  // Beside packages that have their own configuration, a root that has none may have nothing left to check.
  if (options.claimed === undefined || options.claimed.length === 0) assertSomethingToCheck(model, configPath);
  // With --staged the paths are not used (below): a hook tool's file list is never a reason to fail.
  if (options.staged !== true) assertPathsListed(model, options.paths, options.cwd);
  const selected = selectRules(model.config, options.rules, configPath);
  const rules: RuleTime[] = [];
  const prefetchStarted = performance.now();
  // A warm run parses its few changed scripts on a worker while the main thread goes on.
  const early = extractChangedAhead(model, options.concurrency, options.staged === true, options.aheadWorker ?? null);
  // A cold run shares its scripts out between the main thread and workers while the rules run.
  const shared = early === null ? shareExtraction(model, options.concurrency, options.aheadWorker ?? null) : null;
  // A worker started before the listing was known, and nothing for it to do.
  options.aheadWorker?.dispose();
  const prefetchMs = performance.now() - prefetchStarted;
  const factsBefore = model.stats.factsMs - prefetchMs;
  // A rule none of whose inputs changed since a run stored its verdict is not evaluated again.
  const verdicts = model.tracksReads ? openVerdicts(model, cacheDirectory(root, options.cacheLocation), configPath === null ? null : fileBlobId(configPath)) : null;
  let evaluated: ReturnType<typeof evaluate>;
  try {
    evaluated = evaluate(model, selected, configPath, { rules, ...(options.progress && { progress: options.progress }) }, verdicts);
  } catch (error) {
    await Promise.all([early?.close(), shared?.close()]);
    throw error;
  }
  // The workers are let go while the caches are saved: a worker's teardown takes 10-20 ms, and nothing below needs them.
  const closing = Promise.all([early?.close(), shared?.close()]);
  const { findings, suppressed } = evaluated;
  const factsMs = model.stats.factsMs - factsBefore;
  const rulesMs = rules.reduce((sum, rule) => sum + rule.ms, 0);
  watch.phases.push({ name: 'facts (read, parse, cache)', ms: roundMs(factsMs) }, { name: 'rules', ms: roundMs(rulesMs) });
  watch.lap('core checks and suppressions', factsMs + rulesMs);
  options.progress?.phase('saving the fact cache');
  // A shared cache is saved once, by the check that shares it.
  if (options.factCaches === undefined) model.saveCache();
  verdicts?.save();
  await closing;
  watch.lap('fact cache save');

  const known = applyBaselineStep(model, findings, selected, options);
  const reported = narrow(model, known.kept, options, root);
  watch.lap('baseline and narrowing');
  const errors = reported.filter((f) => f.severity === 'error').length;
  return {
    findings: reported,
    summary: {
      errors,
      warnings: reported.length - errors,
      files: model.files.length,
      rules: selected.length,
      ms: Math.round(performance.now() - started),
      ...(suppressed > 0 && { suppressed }),
      ...(known.baselined > 0 && { baselined: known.baselined }),
      ...(known.fixed > 0 && { baselineFixed: known.fixed }),
      ...(known.written !== undefined && { baselineWritten: known.written }),
    },
    ...(options.coverage === true && { coverage: mapCoverage(model) }),
    root,
    model,
    rulesRun: selected.map((s) => s.rule),
    outsideInputs: outsideInputs(model),
    cacheRefused,
    stats: { phases: watch.phases, rules, facts: { parsed: model.stats.parsed, cached: model.stats.cached, read: model.stats.read, ...(shared && { workers: { threads: shared.threads, parsed: shared.taken } }), ...(early && { workers: { threads: 1, parsed: early.answered } }) } },
  };
}

export function outsideInputs(model: RepoModel): Map<string, string | null> {
  const inputs = new Map(model.outsideInputs());
  // The manifests are read whether or not git lists them (a baseline may be ignored).
  for (const manifest of [model.config.frozen, model.config.locks, model.config.baseline]) {
    if (!model.fileSet.has(manifest)) inputs.set(manifest, fileBlobId(join(model.root, manifest)));
  }
  return inputs;
}
