import { MessageChannel, receiveMessageOnPort, type MessagePort, type Worker } from 'node:worker_threads';
import { startWorker, workerUrl, type ExtractRequest, type ExtractResponse, type Script } from './pool.js';
import type { FileFacts } from './types.js';
import { usesCodeCache } from '../parse/typescript.js';

/** How long the main thread waits for the worker to start (it takes tens of milliseconds) before it extracts the scripts itself. */
const STARTUP_MS = 2_000;
/** How long it waits, once the worker started, for its answer (a worker that died never gives one). */
const PATIENCE_MS = 60_000;
/** The worker's progress, in the shared flag: started (its module runs), then answered (the answer is on the port). */
export const STARTED = 1;
export const ANSWERED = 2;

/**
 * A worker for an extraction ahead, started before its scripts are known: it
 * loads the compiler meanwhile, so that a run whose listing shows edited
 * scripts finds it ready. One never given scripts is terminated (dispose) and
 * never holds the process open.
 */
export class PreparedWorker {
  private taken = false;

  private constructor(
    private readonly worker: Worker,
    private readonly port: MessagePort,
    private readonly signal: Int32Array,
  ) {}

  /** Null when no worker can be started (run from the TypeScript sources, as the test runner does). */
  static spawn(url: URL | null = workerUrl(), codeCache: boolean, preload = true): PreparedWorker | null {
    if (url === null) return null;
    const { port1, port2 } = new MessageChannel();
    const shared = new SharedArrayBuffer(4);
    const worker = startWorker(url, { answerPort: port2, signal: shared, codeCache, preload }, [port2]);
    if (worker === null) return null;
    // A worker that fails answers nothing, and the main thread extracts the scripts itself: not the run's error.
    worker.on('error', () => {});
    worker.unref();
    return new PreparedWorker(worker, port1, new Int32Array(shared));
  }

  /** The worker, for one extraction; null once taken or disposed. */
  take(): { worker: Worker; port: MessagePort; signal: Int32Array } | null {
    if (this.taken) return null;
    this.taken = true;
    return { worker: this.worker, port: this.port, signal: this.signal };
  }

  dispose(): void {
    if (this.taken) return;
    this.taken = true;
    void this.worker.terminate();
  }
}

/**
 * A few scripts extracted on one worker thread while the main thread goes
 * on: the worker loads the compiler, and the main thread asks for a script's
 * facts only when a rule needs them, waiting then (synchronously: the rules
 * are) if the worker has not answered yet. The facts are those the main
 * thread would extract from the same text; a script asked for with another
 * text, or a worker that failed, leaves the extraction to the main thread.
 */
export class AheadExtraction {
  private readonly texts: Map<string, string>;
  private readonly port: MessagePort;
  /** Set to 1 by the worker once its answer is on the port. */
  private readonly signal: Int32Array;
  private answer: Map<string, FileFacts> | null = null;
  private done = false;

  private constructor(
    private readonly worker: Worker,
    port: MessagePort,
    signal: Int32Array,
    scripts: readonly Script[],
  ) {
    this.port = port;
    this.signal = signal;
    this.texts = new Map(scripts.map(({ file, text }) => [file, text]));
  }

  /** Null when no worker can be started (run from the TypeScript sources, as the test runner does). */
  static start(calls: readonly string[], scripts: readonly Script[], url: URL | null = workerUrl(), prepared: PreparedWorker | null = null): AheadExtraction | null {
    if (scripts.length === 0) return null;
    const started = prepared?.take() ?? PreparedWorker.spawn(url, usesCodeCache(), false)?.take();
    if (!started) return null;
    started.worker.postMessage({ calls, scripts: [...scripts] } satisfies ExtractRequest);
    return new AheadExtraction(started.worker, started.port, started.signal, scripts);
  }

  /** The worker's facts of `file`, if it was given this very text; waits for its answer the first time. */
  take(file: string, text: string): FileFacts | undefined {
    if (this.texts.get(file) !== text) return undefined;
    if (!this.done) this.receive();
    return this.answer?.get(file);
  }

  /** How many scripts the worker's answer holds (0 before it answered, or when it failed). */
  get answered(): number {
    if (!this.done && Atomics.load(this.signal, 0) === ANSWERED) this.receive();
    return this.answer?.size ?? 0;
  }

  close(): Promise<number> {
    this.done = true;
    return this.worker.terminate();
  }

  /**
   * Takes the worker's answer, waiting for it: a worker that has not started
   * within STARTUP_MS (it failed to load) or not answered within PATIENCE_MS
   * (it died) gets no more wait, and the main thread extracts the scripts.
   */
  private receive(): void {
    this.done = true;
    const started = Date.now();
    for (;;) {
      const message = receiveMessageOnPort(this.port);
      if (message !== undefined) {
        // Nothing more is asked of the worker: its teardown (10-20 ms: its heap holds the compiler) runs beside the main thread's work, not after it.
        void this.worker.terminate();
        const response = message.message as ExtractResponse;
        if ('facts' in response && response.facts.length === this.texts.size) {
          this.answer = new Map([...this.texts.keys()].map((file, index) => [file, response.facts[index] as FileFacts]));
        }
        return;
      }
      const state = Atomics.load(this.signal, 0);
      const waited = Date.now() - started;
      // Answered, and the message not on the port yet: it is in flight.
      const [expected, limit] = state === ANSWERED ? [ANSWERED, PATIENCE_MS] : state === STARTED ? [STARTED, PATIENCE_MS] : [0, STARTUP_MS];
      if (waited >= limit) return;
      Atomics.wait(this.signal, 0, expected, state === ANSWERED ? 1 : limit - waited);
    }
  }
}
