import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import type { Script } from '../../src/facts/pool.js';
import { SharedExtraction } from '../../src/facts/shared.js';
import { extractScriptFacts } from '../../src/facts/extract-script.js';
import { extractMarkdownFacts } from '../../src/facts/extract-markdown.js';
import { PACKAGE_ROOT } from '../../src/version.js';
import { temporaryDirs } from '../support/temp.js';

// A cold run's scripts are shared out between the main thread and workers
// while the rules run (src/facts/shared.ts): each script is claimed once, a
// worker's from the last one down, the main thread's when a rule asks. The
// built worker is used (`npm test` builds first): the TypeScript sources
// cannot run as a worker thread.

const WORKER = pathToFileURL(join(PACKAGE_ROOT, 'dist/src/facts/extract-worker.js'));
const { tempDir } = temporaryDirs('shared');

const scripts: Script[] = Array.from({ length: 200 }, (_, i) => ({
  file: `test/helpers/ask-${i}.ts`,
  text: `import OpenAI from 'openai';\nexport const ask${i} = () => new OpenAI().responses.create({ model: 'm', input: '${i}' });\nrunEval('case ${i}', ask${i});\n`,
}));
/** Until the workers have extracted `count` scripts (the suite's timeout is the limit). */
async function posted(shared: SharedExtraction | null, count: number): Promise<void> {
  while ((shared?.posted ?? count) < count) await sleep(20);
}
const [first, last] = [scripts[0] as Script, scripts[scripts.length - 1] as Script];
const alone = (script: Script) => extractScriptFacts(script.file, script.text, { calls: ['runEval'] });

describe('extraction shared with workers', () => {
  it('a script the main thread asks for before a worker claims it is the main thread’s; one a worker extracted is taken from it, the facts the same', async () => {
    const shared = SharedExtraction.start(['runEval'], scripts, 1, WORKER);
    expect(shared?.threads).toBe(1);
    // The worker starts from the last script and is still loading the compiler: the first is the main thread's to extract.
    expect(shared?.take(first.file, first.text)).toBeUndefined();
    // The last one is the first the worker claims, once started: then it is the worker's.
    await posted(shared, 1);
    expect(shared?.take(last.file, last.text)).toEqual(alone(last));
    expect(shared?.taken).toBe(1);
    // Asked twice (the model asks once per text, but another text of the file is asked again), the first one holds.
    expect(shared?.take(first.file, first.text)).toBeUndefined();
    await shared?.close();
  });

  it('with the main thread busy elsewhere, the workers extract every script the main thread has not claimed', async () => {
    const shared = SharedExtraction.start(['runEval'], scripts, 2, WORKER);
    expect(shared?.threads).toBe(2);
    await posted(shared, scripts.length);
    for (const script of scripts) expect(shared?.take(script.file, script.text)).toEqual(alone(script));
    expect(shared?.taken).toBe(scripts.length);
    await shared?.close();
  });

  it('a Markdown file is extracted as Markdown, and taken only as such', async () => {
    const page = { file: 'docs/setup.md', text: '# Setup\n\nRun `npm run evals` with `EVALS_TIER=gate`; see [the runner](../test/helpers/run.ts).\n' };
    const shared = SharedExtraction.start([], [first, page], 1, WORKER);
    await posted(shared, 2);
    expect(shared?.take(page.file, page.text)).toBeUndefined();
    expect(shared?.takeMarkdown(page.file, page.text)).toEqual(extractMarkdownFacts(page.text));
    expect(shared?.takeMarkdown(first.file, first.text)).toBeUndefined();
    expect(shared?.taken).toBe(1);
    await shared?.close();
  });

  it('gives nothing for another text of a file, or for a file it was not given', async () => {
    const shared = SharedExtraction.start([], scripts.slice(0, 1), 1, WORKER);
    expect(shared?.take(first.file, `${first.text}// edited again\n`)).toBeUndefined();
    expect(shared?.take('test/other.ts', first.text)).toBeUndefined();
    expect(shared?.taken).toBe(0);
    await shared?.close();
  });

  // The safety net is the suite's test timeout: waiting for a worker that never started would stall for a minute.
  it('a worker that fails to start claims nothing: the main thread extracts every script, without waiting', async () => {
    const broken = join(tempDir(), 'broken-worker.mjs');
    writeFileSync(broken, "throw new Error('this worker does not start');\n");
    const shared = SharedExtraction.start([], scripts, 1, pathToFileURL(broken));
    await sleep(200);
    for (const script of scripts) expect(shared?.take(script.file, script.text)).toBeUndefined();
    expect(shared?.taken).toBe(0);
    await shared?.close();
  });
});
