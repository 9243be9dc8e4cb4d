import { availableParallelism } from 'node:os';
import { Worker, type MessagePort } from 'node:worker_threads';
import type { FileFacts } from './types.js';

/** How many scripts one message carries: enough that messaging is a small part of a batch, few enough to share the work evenly. */
export const BATCH = 32;
/** With `auto`, fewer scripts than this are extracted on the main thread alone: a worker loads the compiler before its first file, which costs about as much as extracting this many (measured: a worker's first 1284 scripts took twice as long as the warm main thread's). */
export const AUTO_MIN_SCRIPTS = 2000;
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

/** The number of threads (the main one included) to extract `scripts` scripts on: 1 means no worker. */
export function threadsFor(concurrency: Concurrency, scripts: number): number {
  if (concurrency === 'off' || scripts <= BATCH) return 1;
  const batches = Math.ceil(scripts / BATCH);
  if (concurrency === 'auto') return scripts < AUTO_MIN_SCRIPTS ? 1 : Math.min(availableParallelism(), AUTO_MAX_THREADS, batches);
  return Math.max(1, Math.min(concurrency, batches));
}

/**
 * The worker's entry: the compiled file beside this module, in dist/src/facts/
 * or, in the CLI's bundle, beside the chunk this code is part of (the bundle
 * writes its entries and chunks into one directory: scripts/bundle.mjs). Run
 * from the TypeScript sources (the test runner does), there is none a worker
 * thread can load, and extraction stays on the main thread.
 */
export function workerUrl(): URL | null {
  return import.meta.url.endsWith('.js') ? new URL('./extract-worker.js', import.meta.url) : null;
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
