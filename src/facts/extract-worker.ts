// A worker thread of the extraction pool (pool.ts): it receives scripts in
// batches and answers with their facts, extracted by the same code as on the
// main thread. It reads no file and writes none: the main thread reads the
// texts (with the model's limits and overlays) and owns the fact cache.
import { parentPort } from 'node:worker_threads';
import { extractScriptFacts } from './extract-script.js';
import type { ExtractRequest, ExtractResponse } from './pool.js';

const port = parentPort;
if (port === null) throw new Error('tripwire: extract-worker.js runs only as a worker thread');
port.on('message', (request: ExtractRequest) => {
  let response: ExtractResponse;
  try {
    response = { facts: request.scripts.map(({ file, text }) => extractScriptFacts(file, text, { calls: request.calls })) };
  } catch (error) {
    // The main thread extracts the batch itself and meets the same error where it always did.
    response = { error: error instanceof Error ? error.message : String(error) };
  }
  port.postMessage(response);
});
