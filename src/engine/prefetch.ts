import { AheadExtraction, type PreparedWorker } from '../facts/ahead.js';
import { BATCH, ExtractionPool, threadsFor, type Concurrency } from '../facts/pool.js';
import type { RepoModel } from '../model/model.js';

export interface PrefetchStats {
  /** Worker threads started. */
  workers: number;
  /** Scripts whose facts a worker extracted. */
  byWorkers: number;
}

/**
 * A cold run's facts, extracted ahead on several threads: the rules ask for
 * them one file at a time, on the main thread. Wave by wave: the files the
 * check starts from (RepoModel.checkRoots), then the local modules the
 * scripts of the last wave import, once the first wave held enough scripts
 * the fact cache lacks to be worth the threads (threadsFor). What is not
 * prefetched is extracted when asked, as before; nothing is recorded here
 * (a parse error, a file too large is recorded when a rule reads the file),
 * so the findings are those of a run without it.
 */
export async function prefetchFacts(model: RepoModel, concurrency: Concurrency): Promise<PrefetchStats> {
  const stats: PrefetchStats = { workers: 0, byWorkers: 0 };
  if (concurrency === 'off') return stats;
  let wave = model.checkRoots();
  const seen = new Set(wave);
  let pool: ExtractionPool | undefined;
  try {
    while (wave.length > 0) {
      const scripts = model.scriptsToExtract(wave);
      // The first wave decides whether threads are worth it; later waves use the pool while there is one.
      const threads = threadsFor(concurrency, scripts.length);
      if (pool === undefined && threads > 1) pool = new ExtractionPool(model.extractionCalls(), threads);
      if (pool === undefined || scripts.length === 0) break;
      const { facts, byWorkers } = await pool.extract(scripts);
      stats.byWorkers += byWorkers;
      const next: string[] = [];
      for (const { file, text } of scripts) {
        const extracted = facts.get(file);
        if (!extracted) continue;
        model.offerFacts(file, text, extracted);
        for (const fact of extracted.imports) {
          const target = model.resolve(file, fact.specifier);
          if (target.kind !== 'file' || seen.has(target.path)) continue;
          seen.add(target.path);
          next.push(target.path);
        }
      }
      wave = next;
    }
  } finally {
    stats.workers = pool?.started ?? 0;
    await pool?.close();
  }
  return stats;
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
  // A worker started before the listing was known, and nothing for it to do.
  prepared?.dispose();
  if (ahead) model.extractingAhead(ahead);
  return ahead;
}
