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

describe('one walk: facts are byte-identical to the legacy extractor', () => {
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
