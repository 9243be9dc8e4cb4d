import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { extractScriptFacts } from '../../src/facts/extract-script.js';
import { legacyExtractScriptFacts } from '../../src/facts/legacy/extract-script.js';

// TEMPORARY (issue 17 item 4): the one-walk extractor must give byte-identical
// facts to the extractor it replaces, on every script under fixtures/ (and, for
// more shapes, this project's own sources and tests).

const ROOT = path.resolve(import.meta.dirname, '../..');
const SCRIPT = /\.(?:ts|tsx|mts|cts|js|jsx|mjs|cjs)$/;
/** What the model passes: the sorted `call` names of tests.ids and tests.selfGate (none by default; these four in the fixtures' configs). */
const CALL_SETS: readonly (readonly string[])[] = [[], ['describeIfSelected', 'describeTier', 'judgeCase', 'runEval']];

function scripts(dir: string): string[] {
  return readdirSync(path.join(ROOT, dir), { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && SCRIPT.test(entry.name))
    .map((entry) => path.relative(ROOT, path.join(entry.parentPath, entry.name)).split(path.sep).join('/'))
    .filter((file) => !file.includes('/node_modules/'))
    .sort();
}

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

describe('one walk: facts are byte-identical to the legacy extractor', () => {
  it('on shapes where order and later declarations matter', () => {
    for (const [file, text] of SNIPPETS) {
      for (const calls of CALL_SETS) {
        expect(JSON.stringify(extractScriptFacts(file, text, { calls }))).toBe(JSON.stringify(legacyExtractScriptFacts(file, text, { calls })));
      }
    }
  });

  for (const dir of ['fixtures', 'src', 'test']) {
    it(`every script under ${dir}/`, () => {
      const files = scripts(dir);
      expect(files.length).toBeGreaterThan(0);
      const differing: string[] = [];
      for (const file of files) {
        const text = readFileSync(path.join(ROOT, file), 'utf8');
        for (const calls of CALL_SETS) {
          const now = JSON.stringify(extractScriptFacts(file, text, { calls }));
          const before = JSON.stringify(legacyExtractScriptFacts(file, text, { calls }));
          if (now !== before) differing.push(`${file} (calls: ${calls.join(',') || 'none'})`);
        }
      }
      expect(differing).toEqual([]);
    });
  }
});
