// A worker thread that extracts scripts' facts with the same code as the
// main thread: the scripts of a shared extraction (shared.ts), claimed one by
// one, or a batch a warm run gives it ahead (ahead.ts). It reads no file and
// writes none: the main thread reads the texts (with the model's limits and
// overlays) and owns the fact cache.
import { parentPort, workerData, type MessagePort } from 'node:worker_threads';
import { extractScriptFacts } from './extract-script.js';
import { extractMarkdownFacts } from './extract-markdown.js';
import { isMarkdownFile } from '../util/file-kinds.js';
import type { ExtractRequest, ExtractResponse, Script } from './pool.js';
import { ANSWERED, STARTED } from './ahead.js';
import { BY_WORKER, FREE, type ClaimAnswer, type ClaimRequest } from './shared.js';
import { loadTypeScript, useCodeCache } from '../parse/typescript.js';

const port = parentPort;
if (port === null) throw new Error('tripwire: extract-worker.js runs only as a worker thread');
// An extraction ahead (ahead.ts) gives a port to answer on and a flag to raise: its main thread waits synchronously.
const ahead = workerData as { answerPort?: MessagePort; signal?: SharedArrayBuffer; codeCache?: boolean; preload?: boolean } | null;
useCodeCache(ahead?.codeCache === true);
// Started before its scripts are known (PreparedWorker): the compiler loads while it waits for them.
if (ahead?.preload === true) loadTypeScript();
const signal = ahead?.signal ? new Int32Array(ahead.signal) : null;
if (signal) {
  Atomics.store(signal, 0, STARTED);
  Atomics.notify(signal, 0);
}
port.on('message', (request: ExtractRequest | ClaimRequest) => {
  if ('claims' in request) {
    claimAll(request, ahead?.answerPort ?? port);
    return;
  }
  let response: ExtractResponse;
  try {
    response = { facts: request.scripts.map(({ file, text }) => extractScriptFacts(file, text, { calls: request.calls })) };
  } catch (error) {
    // The main thread extracts the batch itself and meets the same error where it always did.
    response = { error: error instanceof Error ? error.message : String(error) };
  }
  if (ahead?.answerPort && signal) {
    ahead.answerPort.postMessage(response);
    Atomics.store(signal, 0, ANSWERED);
    Atomics.notify(signal, 0);
  } else {
    port.postMessage(response);
  }
});

/**
 * A shared extraction (shared.ts): the files from the last one down, each
 * that nobody has claimed yet, answered one by one on the answer port, with
 * the count of answers raised after each so that a main thread waiting for
 * one wakes.
 */
function claimAll({ calls, scripts, claims }: ClaimRequest, answers: MessagePort): void {
  const flags = new Int32Array(claims);
  const held: (Script | undefined)[] = scripts;
  for (let i = held.length - 1; i >= 0; i--) {
    const script = held[i];
    // Each text is let go once done with, here or by another thread: the worker's copy shrinks as it goes.
    held[i] = undefined;
    if (script === undefined || Atomics.compareExchange(flags, 1 + i, FREE, BY_WORKER) !== FREE) continue;
    let answer: ClaimAnswer;
    try {
      answer = { index: i, facts: isMarkdownFile(script.file) ? extractMarkdownFacts(script.text) : extractScriptFacts(script.file, script.text, { calls }) };
    } catch (error) {
      // The main thread extracts it itself and meets the same error where it always did.
      answer = { index: i, error: error instanceof Error ? error.message : String(error) };
    }
    answers.postMessage(answer);
    Atomics.add(flags, 0, 1);
    Atomics.notify(flags, 0);
  }
}
