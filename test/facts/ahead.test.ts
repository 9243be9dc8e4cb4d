import { once } from 'node:events';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Worker } from 'node:worker_threads';
import { afterAll, describe, expect, it } from 'vitest';
import { AheadExtraction } from '../../src/facts/ahead.js';
import { extractScriptFacts } from '../../src/facts/extract-script.js';
import { PACKAGE_ROOT } from '../../src/version.js';

// A warm run's edited scripts are extracted on one worker while the main
// thread goes on (src/facts/ahead.ts); the main thread waits for the answer
// only when a rule needs it. The built worker is used (`npm test` builds
// first): the TypeScript sources cannot run as a worker thread.

const WORKER = pathToFileURL(join(PACKAGE_ROOT, 'dist/src/facts/extract-worker.js'));
const temps: string[] = [];
afterAll(() => {
  for (const dir of temps) rmSync(dir, { recursive: true, force: true });
});

const helper = { file: 'test/helpers/ask.ts', text: "import OpenAI from 'openai';\nexport const ask = () => new OpenAI().responses.create({ model: 'm', input: 'hi' });\n" };

describe('extraction ahead, on one worker', () => {
  it('gives the facts the main thread would extract, for the text it was given', async () => {
    const ahead = AheadExtraction.start(['runEval'], [helper], WORKER);
    expect(ahead).not.toBeNull();
    expect(ahead?.take(helper.file, helper.text)).toEqual(extractScriptFacts(helper.file, helper.text, { calls: ['runEval'] }));
    expect(ahead?.answered).toBe(1);
    await ahead?.close();
  });

  it('lets the worker go once its answer is taken: it exits before the extraction is closed', async () => {
    const ahead = AheadExtraction.start([], [helper], WORKER);
    expect(ahead?.take(helper.file, helper.text)).toEqual(extractScriptFacts(helper.file, helper.text, { calls: [] }));
    // Its worker, as the class holds it: nothing else tells whether the thread is still there.
    const worker = (ahead as unknown as { worker: Worker }).worker;
    const outcome = await Promise.race([once(worker, 'exit').then(() => 'exited'), new Promise((resolve) => setTimeout(() => resolve('still running'), 5_000))]);
    expect(outcome).toBe('exited');
    await ahead?.close();
  });

  it('gives nothing for another text of the file, or for a file it was not given', async () => {
    const ahead = AheadExtraction.start([], [helper], WORKER);
    expect(ahead?.take(helper.file, `${helper.text}// edited again\n`)).toBeUndefined();
    expect(ahead?.take('test/other.ts', helper.text)).toBeUndefined();
    await ahead?.close();
  });

  // The safety net is the suite's test timeout: waiting for the answer of a worker that never started would stall for a minute.
  it('a worker that fails to start gives nothing, and the main thread is not kept waiting for its answer', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'tripwire-ahead-'));
    temps.push(dir);
    const broken = join(dir, 'broken-worker.mjs');
    writeFileSync(broken, "throw new Error('this worker does not start');\n");
    const ahead = AheadExtraction.start([], [helper], pathToFileURL(broken));
    expect(ahead?.take(helper.file, helper.text)).toBeUndefined();
    expect(ahead?.answered).toBe(0);
    await ahead?.close();
  });
});
