import { MessageChannel, receiveMessageOnPort, type MessagePort, type Worker } from 'node:worker_threads';
import { startWorker, workerUrl, type Script } from './pool.js';
import type { PreparedWorker } from './ahead.js';
import type { FileFacts, MarkdownFacts } from './types.js';
import { usesCodeCache } from '../parse/typescript.js';

/** A script's claim (the shared flags): nobody has it yet, the main thread took it, or a worker did. */
export const FREE = 0;
export const BY_MAIN = 1;
export const BY_WORKER = 2;
/** How long the main thread waits, in all, for a worker's answer to a script the worker took (a worker that died never gives one). */
const PATIENCE_MS = 60_000;

/** What the main thread sends each worker once: every script, and the flags they claim them by. */
export interface ClaimRequest {
  calls: readonly string[];
  scripts: Script[];
  /** Int32 slots: [0] the answers posted so far (all workers), [1 + i] the claim on scripts[i]. */
  claims: SharedArrayBuffer;
}

/** A worker's answer for one file it claimed: a script's facts, or a Markdown file's. */
export type ClaimAnswer = { index: number; facts: FileFacts | MarkdownFacts } | { index: number; error: string };

/**
 * A cold run's scripts and Markdown files, extracted by worker threads while
 * the main thread evaluates the rules. Every file is claimed once, through
 * flags the threads share: a worker takes them from the last one down, the
 * main thread takes the one a rule asks for, when it asks. A file the main
 * thread claims it extracts itself, as it would alone; one a worker claimed
 * first it waits for (synchronously: the rules are). So the main thread
 * never waits for work it could do itself, the workers extract what the
 * rules will ask for later, and the findings are the main thread's own: the
 * same code on the same text. Nothing is read or written here; the model
 * reads the texts first (with its limits and overlays) and takes the facts
 * for the very text it gave.
 */
export class SharedExtraction {
  private readonly index: Map<string, number>;
  private readonly flags: Int32Array;
  /** Answers drained from the workers' ports, by index (null: the worker could not extract it). */
  private readonly answers = new Map<number, FileFacts | MarkdownFacts | null>();
  private received = 0;
  private takenCount = 0;

  private constructor(
    private readonly scripts: readonly Script[],
    claims: SharedArrayBuffer,
    private readonly workers: readonly { worker: Worker; port: MessagePort }[],
  ) {
    this.index = new Map(scripts.map(({ file }, i) => [file, i]));
    this.flags = new Int32Array(claims);
  }

  /**
   * Null when no worker can be started (run from the TypeScript sources, as
   * the test runner does, or a Node that refuses threads). A worker started
   * before the listing (`prepared`, which has loaded the compiler meanwhile)
   * is the first one.
   */
  static start(calls: readonly string[], scripts: readonly Script[], workers: number, url: URL | null = workerUrl(), prepared: PreparedWorker | null = null): SharedExtraction | null {
    if (workers < 1 || scripts.length === 0) return null;
    const claims = new SharedArrayBuffer(4 * (1 + scripts.length));
    const started: { worker: Worker; port: MessagePort }[] = [];
    const ready = prepared?.take();
    if (ready) started.push(ready);
    while (url !== null && started.length < workers) {
      const { port1, port2 } = new MessageChannel();
      const worker = startWorker(url, { answerPort: port2, codeCache: usesCodeCache() }, [port2]);
      if (worker === null) break;
      // A worker that fails answers nothing more, and the main thread extracts what it did not claim: not the run's error.
      worker.on('error', () => {});
      worker.unref();
      started.push({ worker, port: port1 });
    }
    for (const { worker } of started) worker.postMessage({ calls, scripts: [...scripts], claims } satisfies ClaimRequest);
    return started.length === 0 ? null : new SharedExtraction(scripts, claims, started);
  }

  /** Worker threads started. */
  get threads(): number {
    return this.workers.length;
  }

  /** Files whose facts the main thread took from a worker. */
  get taken(): number {
    return this.takenCount;
  }

  /** Files the workers have extracted so far, taken or not. */
  get posted(): number {
    return Atomics.load(this.flags, 0);
  }

  /**
   * A worker's facts of `file`, if the workers were given this very text and
   * one of them claimed it first; undefined when the main thread is to
   * extract it (it claims it here) or the worker failed on it.
   */
  take(file: string, text: string): FileFacts | undefined {
    const facts = this.claim(file, text);
    if (facts?.kind !== 'script') return undefined;
    this.takenCount++;
    return facts;
  }

  /** take() for a Markdown file's facts. */
  takeMarkdown(file: string, text: string): MarkdownFacts | undefined {
    const facts = this.claim(file, text);
    if (facts?.kind !== 'markdown') return undefined;
    this.takenCount++;
    return facts;
  }

  private claim(file: string, text: string): FileFacts | MarkdownFacts | undefined {
    const at = this.index.get(file);
    if (at === undefined || this.scripts[at]?.text !== text) return undefined;
    const claim = Atomics.compareExchange(this.flags, 1 + at, FREE, BY_MAIN);
    return claim === BY_WORKER ? this.answerFor(at) : undefined;
  }

  close(): Promise<number[]> {
    return Promise.all(this.workers.map(({ worker }) => worker.terminate()));
  }

  /** Waits for the answer to a script a worker claimed: drains the ports, and sleeps until the next answer is posted. */
  private answerFor(at: number): FileFacts | MarkdownFacts | undefined {
    const started = Date.now();
    for (;;) {
      const known = this.answers.get(at);
      if (known !== undefined || this.answers.has(at)) return known ?? undefined;
      const posted = Atomics.load(this.flags, 0);
      if (this.drain()) continue;
      const waited = Date.now() - started;
      if (waited >= PATIENCE_MS) return undefined;
      // Posted and not on a port yet: in flight, a moment away. Otherwise sleep until a worker posts another.
      Atomics.wait(this.flags, 0, posted, posted > this.received ? 1 : PATIENCE_MS - waited);
    }
  }

  private drain(): boolean {
    let got = false;
    for (const { port } of this.workers) {
      for (let message = receiveMessageOnPort(port); message !== undefined; message = receiveMessageOnPort(port)) {
        const answer = message.message as ClaimAnswer;
        this.answers.set(answer.index, 'facts' in answer ? answer.facts : null);
        this.received++;
        got = true;
      }
    }
    return got;
  }
}
