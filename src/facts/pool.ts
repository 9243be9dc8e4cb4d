import { availableParallelism } from 'node:os';
import { Worker, type MessagePort } from 'node:worker_threads';
import { extractScriptFacts } from './extract-script.js';
import { usesCodeCache } from '../parse/typescript.js';
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

export interface PoolResult {
  /** The facts of the scripts extracted, by file. A batch a worker failed on is missing: the caller extracts those itself. */
  facts: Map<string, FileFacts>;
  /** Scripts whose facts a worker extracted. */
  byWorkers: number;
}

/**
 * Extracts facts on `threads` threads: `threads - 1` worker threads, started
 * on first use and kept until close(), and the main one, which takes a batch
 * whenever it is free. The facts are those the main thread would extract (the
 * same code on the same text); only the thread differs. Nothing is read or
 * written here.
 */
export class ExtractionPool {
  private readonly workers: Worker[] = [];
  private readonly broken = new Set<Worker>();

  constructor(
    private readonly calls: readonly string[],
    private readonly threads: number,
  ) {}

  /** Worker threads started so far. */
  get started(): number {
    return this.workers.length;
  }

  async extract(scripts: readonly Script[]): Promise<PoolResult> {
    const facts = new Map<string, FileFacts>();
    const batches: Script[][] = [];
    for (let i = 0; i < scripts.length; i += BATCH) batches.push(scripts.slice(i, i + BATCH));
    let next = 0;
    const take = (): Script[] | undefined => batches[next++];
    let byWorkers = 0;
    const url = workerUrl();
    while (url !== null && this.workers.length < Math.min(this.threads - 1, batches.length)) {
      const worker = startWorker(url, { codeCache: usesCodeCache() });
      if (worker === null) break;
      this.workers.push(worker);
    }
    const finished = this.workers
      .filter((worker) => !this.broken.has(worker))
      .map(
        (worker) =>
          new Promise<void>((resolve) => {
            let pending: Script[] | undefined;
            const settle = (): void => {
              worker.off('message', answer);
              worker.off('error', fail);
              worker.off('exit', fail);
              resolve();
            };
            // A worker that fails takes nothing more; its batch is left to the caller.
            const fail = (): void => {
              this.broken.add(worker);
              settle();
            };
            const send = (): void => {
              pending = take();
              if (pending === undefined) settle();
              else worker.postMessage({ calls: this.calls, scripts: pending } satisfies ExtractRequest);
            };
            const answer = (response: ExtractResponse): void => {
              const batch = pending ?? [];
              if ('facts' in response && response.facts.length === batch.length) {
                batch.forEach((script, index) => facts.set(script.file, response.facts[index] as FileFacts));
                byWorkers += batch.length;
              }
              send();
            };
            worker.on('message', answer);
            worker.once('error', fail);
            worker.once('exit', fail);
            send();
          }),
      );
    // The main thread works too, a batch at a time, and yields between batches so that the workers' answers come in.
    for (let batch = take(); batch !== undefined; batch = take()) {
      for (const { file, text } of batch) facts.set(file, extractScriptFacts(file, text, { calls: this.calls }));
      await new Promise((resolve) => setImmediate(resolve));
    }
    await Promise.all(finished);
    return { facts, byWorkers };
  }

  async close(): Promise<void> {
    await Promise.all(this.workers.map((worker) => worker.terminate()));
  }
}
