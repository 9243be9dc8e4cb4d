import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { adoptEarlyWorker, handEarlyWorker, startEarlyWorker } from '../../src/engine/early-worker.js';
import { AheadExtraction, PreparedWorker } from '../../src/facts/ahead.js';
import { extractScriptFacts } from '../../src/facts/extract-script.js';
import { PACKAGE_ROOT } from '../../src/version.js';

// The CLI's launcher starts a staged check's worker before its bundle loads
// and hands it over (src/engine/early-worker.ts); the built worker is used,
// as the TypeScript sources cannot run as a worker thread.

const WORKER = pathToFileURL(join(PACKAGE_ROOT, 'dist/src/facts/extract-worker.js'));
const helper = { file: 'test/helpers/ask.ts', text: "import OpenAI from 'openai';\nexport const ask = () => new OpenAI();\n" };

describe('the early worker', () => {
  it('starts none from the TypeScript sources, where no worker can run', () => {
    expect(startEarlyWorker()).toBeNull();
  });

  it('is adopted once, and extracts as a worker started by the run itself', async () => {
    expect(adoptEarlyWorker()).toBeNull();
    const worker = PreparedWorker.spawn(WORKER, false);
    expect(worker).not.toBeNull();
    if (!worker) return;
    handEarlyWorker(worker);
    const adopted = adoptEarlyWorker();
    expect(adopted).toBe(worker);
    expect(adoptEarlyWorker()).toBeNull();
    const ahead = AheadExtraction.start(['runEval'], [helper], WORKER, adopted);
    expect(ahead?.take(helper.file, helper.text)).toEqual(extractScriptFacts(helper.file, helper.text, { calls: ['runEval'] }));
    await ahead?.close();
  });
});
