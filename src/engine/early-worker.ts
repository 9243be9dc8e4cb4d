import { PreparedWorker } from '../facts/ahead.js';

// A staged check (a hook's) most often checks a commit no run has seen, and
// then waits for the compiler to parse what changed. The CLI's launcher
// (cli/launch.ts) starts the worker that loads it before the bundle has even
// loaded, and hands it over; verdictOf (verdict.ts) adopts it, or stops it
// when the run does not want it.

let handed: PreparedWorker | null = null;

/** A worker that starts loading the compiler now (for the launcher, and for a run that missed); null when none can start (run from the TypeScript sources). */
export function startEarlyWorker(): PreparedWorker | null {
  return PreparedWorker.spawn(undefined, true);
}

/** Hands over a worker started outside the bundle (the launcher's copy of this module started it). */
export function handEarlyWorker(worker: PreparedWorker): void {
  handed = worker;
}

/** The worker handed over, once; null when none was. */
export function adoptEarlyWorker(): PreparedWorker | null {
  const worker = handed;
  handed = null;
  return worker;
}
