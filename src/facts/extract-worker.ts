// A worker thread of the extraction pool (pool.ts): it receives scripts in
// batches and answers with their facts, extracted by the same code as on the
// main thread. It reads no file and writes none: the main thread reads the
// texts (with the model's limits and overlays) and owns the fact cache.
import { parentPort, workerData, type MessagePort } from 'node:worker_threads';
import { extractScriptFacts } from './extract-script.js';
import type { ExtractRequest, ExtractResponse } from './pool.js';
import { ANSWERED, STARTED } from './ahead.js';
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
port.on('message', (request: ExtractRequest) => {
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
