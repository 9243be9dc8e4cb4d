import { AheadExtraction, type PreparedWorker } from '../facts/ahead.js';
import { BATCH, threadsFor, type Concurrency } from '../facts/pool.js';
import { SharedExtraction } from '../facts/shared.js';
import type { RepoModel } from '../model/model.js';
import { testAreas } from '../analysis/seams.js';
import { isMarkdownFile } from '../util/file-kinds.js';

/**
 * A cold run's scripts and Markdown files, shared out between the main
 * thread and worker threads while the rules run (SharedExtraction): the
 * scripts the check starts from (RepoModel.checkRoots) and those of the test
 * areas (the carve-out rule's vocabulary reads every one of them: in a
 * monorepo with examples, most of its scripts), and every Markdown file (the
 * reference rule reads them all), once they hold enough files the fact
 * cache lacks to be worth the threads (threadsFor). A module only they import
 * is extracted on the main thread when a rule asks for it, as is every script
 * without workers; nothing is recorded here (a parse error, a file too large
 * is recorded when a rule reads the file), so the findings are those of a run
 * without it.
 */
export function shareExtraction(model: RepoModel, concurrency: Concurrency | undefined, prepared: PreparedWorker | null = null): SharedExtraction | null {
  // Unset, only a cold run: a warm one extracts what changed (extractChangedAhead), and telling what else its
  // fact cache lacks would parse every entry the check starts from, which a warm run reads only as rules ask.
  if (concurrency === 'off' || (concurrency === undefined && model.warmFactCache)) return null;
  const areas = testAreas(model);
  const wanted = new Set([...model.checkRoots(), ...model.files.filter((file) => areas.isTestOnly(file))]);
  // Every Markdown file, last: a worker starts there, and the rules that read them run after those that read the scripts.
  const candidates = [...[...wanted].filter((file) => !isMarkdownFile(file)), ...model.files.filter(isMarkdownFile)];
  // Too few to be worth a worker even if the cache lacked them all: nothing is read ahead.
  if (threadsFor(concurrency, candidates.length) <= 1) return null;
  const scripts = model.toExtract(candidates);
  const threads = threadsFor(concurrency, scripts.length);
  const shared = threads > 1 ? SharedExtraction.start(model.extractionCalls(), scripts, threads - 1, undefined, prepared) : null;
  if (shared) model.extractingAhead(shared);
  return shared;
}

/**
 * A warm run's few changed scripts (edited, untracked, and with `--staged`
 * those the index changed), extracted on one worker thread while the main
 * thread reads the fact cache and evaluates what does not need them: the
 * compiler loads there, off the run's critical path, and a rule that needs
 * one of them waits for the worker (AheadExtraction). Only with
 * `--concurrency` unset (an explicit `off` keeps everything on the main
 * thread), with a fact cache from an earlier run, and for at most one batch
 * of scripts (more are a cold run's, prefetchFacts' to share out).
 */
export function extractChangedAhead(model: RepoModel, concurrency: Concurrency | undefined, staged: boolean, prepared: PreparedWorker | null = null): AheadExtraction | null {
  const scripts = concurrency !== undefined || !model.warmFactCache ? null : model.changedScripts(BATCH, staged);
  const ahead = scripts === null ? null : AheadExtraction.start(model.extractionCalls(), scripts, undefined, prepared);
  if (ahead) model.extractingAhead(ahead);
  return ahead;
}
