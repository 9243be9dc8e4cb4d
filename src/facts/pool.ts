import { availableParallelism } from 'node:os';
import { Worker, type MessagePort } from 'node:worker_threads';
import type { FileFacts } from './types.js';

/** How many scripts one message of a warm run's extraction ahead carries (ahead.ts), at most; with fewer than this to extract, an explicit number of threads starts none. */
export const BATCH = 32;
/**
 * Unless a number of threads is given, a run with fewer files than this to
 * extract keeps them on the main thread: a worker starts, loads tripwire and
 * the compiler before its first file, and takes too few of them to gain
 * (measured on 2 cores, 2026-12-06: at 1,331 files a cold run with a worker
 * took the same wall time for 0.8 s more CPU; at 12,934 files, 17 % less
 * wall time). Past it the worker only gains: the main thread never waits for
 * work it could do itself (SharedExtraction).
 */
export const SHARED_MIN_FILES = 2000;
/** Unset, a cold run uses this many threads at most (the main one included), as many as there are cores. */
const DEFAULT_THREADS = 2;
/** With `auto`, never more threads than this: past it the main thread, which reads every text and receives every result, is the bottleneck. */
const AUTO_MAX_THREADS = 4;

/** `--concurrency`: a number of threads (the main one included), `auto`, or `off` (the main thread only). */
export type Concurrency = number | 'auto' | 'off';

export interface Script {
  file: string;
  text: string;
}

export interface ExtractRequest {
  calls: readonly string[];
  scripts: Script[];
}

export type ExtractResponse = { facts: FileFacts[] } | { error: string };

/** The number of threads (the main one included) to extract `files` files on, unset (undefined) or as `--concurrency` says: 1 means no worker. */
export function threadsFor(concurrency: Concurrency | undefined, files: number): number {
  if (concurrency === 'off' || files <= BATCH) return 1;
  if (typeof concurrency === 'number') return Math.max(1, Math.min(concurrency, Math.ceil(files / BATCH)));
  if (files < SHARED_MIN_FILES) return 1;
  return Math.min(availableParallelism(), concurrency === 'auto' ? AUTO_MAX_THREADS : DEFAULT_THREADS);
}

/** The worker's entry as the CLI's bundles name it (scripts/bundle.mjs defines it); tsc's output defines none. */
declare const __TRIPWIRE_WORKER_ENTRY__: string | undefined;

/**
 * The worker's entry: the compiled file beside this module, extract-worker.js
 * in dist/src/facts/ or, in the CLI's bundle (dist/cli/), extract-worker.cjs
 * beside it (scripts/bundle.mjs writes them into one directory). Run from the
 * TypeScript sources (the test runner does), there is none a worker thread
 * can load, and extraction stays on the main thread.
 */
export function workerUrl(): URL | null {
  if (!/\.c?js$/.test(import.meta.url)) return null;
  return new URL(typeof __TRIPWIRE_WORKER_ENTRY__ === 'string' ? __TRIPWIRE_WORKER_ENTRY__ : './extract-worker.js', import.meta.url);
}

/**
 * A worker thread with the parent's Node options; null when Node refuses to
 * start one (`node --max-semi-space-size=… tripwire` passes an option that
 * is the process's, never a thread's): the main thread extracts instead.
 */
export function startWorker(url: URL, workerData: unknown, transferList: readonly MessagePort[] = []): Worker | null {
  try {
    return new Worker(url, { execArgv: workerExecArgv(), workerData, transferList: [...transferList] });
  } catch {
    return null;
  }
}

/**
 * The parent's Node options for a worker, without those that name the
 * parent's own entry (`--input-type` is refused for a file, and `--eval`
 * would run the parent's script): run from `node -e`, a worker would fail.
 */
export function workerExecArgv(): string[] {
  const out: string[] = [];
  const args = process.execArgv;
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] ?? '';
    if (arg === '-e' || arg === '--eval' || arg === '-p' || arg === '--print' || arg === '--input-type') i++;
    else if (!/^--(?:input-type|eval|print)=/.test(arg)) out.push(arg);
  }
  return out;
}
