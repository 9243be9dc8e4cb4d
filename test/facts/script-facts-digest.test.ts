import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { extractPinnedFacts, extractScriptFacts } from '../../src/facts/extract-script.js';

// The facts of every script under fixtures/, as a sha256 of their JSON per
// file. The digests were written by the one-walk extractor while a parity test
// proved its facts byte-identical to those of the six-walk extractor it
// replaced (issue 17 item 4). A change here is a change of facts: read the
// diff (which files), then update with `npx vitest run -u` if it is meant.
// The digests are of the pinned facts (what the frozen layer reads); the
// facts every other reader gets are the same minus the body fields, which a
// test below checks on the same sources.

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const SCRIPT = /\.(?:ts|tsx|mts|cts|js|jsx|mjs|cjs)$/;
/** What the model passes: the sorted `call` names of tests.ids and tests.selfGate (none by default; these four in the fixtures' configs). */
const CALL_SETS: readonly (readonly string[])[] = [[], ['describeIfSelected', 'describeTier', 'judgeCase', 'runEval']];

/** Shapes where a walk's order or a declaration further down decides the facts. */
const SNIPPETS: readonly [string, string][] = [
  [
    'order.test.ts',
    `import { describe, test as check } from 'vitest';
const { spawn } = require('node:child_process');
export { spawn };
describe.each(rows.map((r) => this.timeout(r)))('suite %s', function () {
  this.timeout(1000);
  check(NAME, run, () => { expect(x).toBe(1); });
  check.skipIf(cond())('later', (t) => { t.skip(); spawn(CMD, ARGS); });
});
function run() { spawn(CMD); fetch(URL + '/v1'); }
const CMD = 'claude';
const ARGS = ['-p', FLAG];
const FLAG = '--json';
const URL = \`https://\${HOST}\`;
const HOST = 'api.openai.com';
const NAME = 'named ' + HOST;
function inner() { const CMD = 'other'; return CMD; }
`,
  ],
  [
    'units.ts',
    `@decorate(load())
export class Client extends Base<Options> implements Shape {
  static shared = make(process.env.KEY);
  static { boot(); }
  field = later();
  [computed()] = 1;
  method() { return require('./lazy.js'); }
}
export default (() => import('./dynamic.js'))();
export const handler = async () => { const { a = def() } = await import('./b.js'); return a; };
const { HOME, PATH: path = fallback() } = process.env;
if (import.meta.main && ready()) { main(); } else { other(); }
namespace Space { export const v = use(Client); interface I { x: typeof Client } }
declare const ambient: string;
type T = ReturnType<typeof handler>;
let saved = process.env.TOKEN; process.env.TOKEN = 'x'; delete process.env.OTHER;
export = Client;
`,
  ],
  ['broken.ts', `const = ; function ( { spawn(\`x \${}\`) ; import {`],
];

function scripts(dir: string): string[] {
  return readdirSync(path.join(ROOT, dir), { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && SCRIPT.test(entry.name))
    .map((entry) => path.relative(ROOT, path.join(entry.parentPath, entry.name)).split(path.sep).join('/'))
    .filter((file) => !file.includes('/node_modules/'))
    .sort();
}

function digests(sources: readonly [string, string][]): string {
  const lines: string[] = [];
  for (const [file, text] of sources) {
    for (const calls of CALL_SETS) {
      const digest = createHash('sha256').update(JSON.stringify(extractPinnedFacts(file, text, { calls }))).digest('hex');
      lines.push(`${digest}  ${file}  calls: ${calls.join(',') || 'none'}`);
    }
  }
  return `${lines.join('\n')}\n`;
}

describe('script facts', () => {
  it('of every script under fixtures/ match their digests', async () => {
    const files = scripts('fixtures');
    expect(files.length).toBeGreaterThan(300);
    const sources = files.map((file): [string, string] => [file, readFileSync(path.join(ROOT, file), 'utf8')]);
    await expect(digests(sources)).toMatchFileSnapshot('__snapshots__/script-facts-fixtures.sha256');
  });

  it('of shapes where order and later declarations matter match their digests', async () => {
    await expect(digests(SNIPPETS)).toMatchFileSnapshot('__snapshots__/script-facts-snippets.sha256');
  });

  it('are the pinned facts without the body fields, on every fixture script and shape', () => {
    const sources = [...scripts('fixtures').map((file): [string, string] => [file, readFileSync(path.join(ROOT, file), 'utf8')]), ...SNIPPETS];
    let bodies = 0;
    for (const [file, text] of sources) {
      const { declarations, ...pinned } = extractPinnedFacts(file, text);
      if (declarations !== undefined) bodies++;
      const stripped = {
        ...pinned,
        tests: pinned.tests.map((test) => {
          const plain: Partial<typeof test> = { ...test };
          delete plain.hash;
          delete plain.assertions;
          delete plain.reads;
          return plain;
        }),
      };
      expect(JSON.stringify(extractScriptFacts(file, text)), file).toBe(JSON.stringify(stripped));
    }
    // The comparison is not vacuous: many fixture scripts declare tests.
    expect(bodies).toBeGreaterThan(100);
  });
});
