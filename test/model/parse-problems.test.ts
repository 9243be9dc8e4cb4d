import { describe, expect, it } from 'vitest';
import { check } from '../../src/check.js';
import { makeGitRepo } from '../support/repo.js';

const CONFIG = JSON.stringify({ tests: { include: ['test/**/*.test.ts'] }, shipped: { include: ['skills/**/SKILL.md'] } });
// One mistake made twice (an unquoted colon in a value): the YAML parser reports each, with the same message.
const BAD_FRONT_MATTER = '---\nname: review\ndescription: Review: the diff\nwhen: Always: first\n---\n# Review\n\nRun `npm test` first.\n';

async function parseErrors(files: Record<string, string>): Promise<string[]> {
  const { findings } = await check({ cwd: makeGitRepo({ 'tripwire.config.json': CONFIG, ...files }), cache: false });
  return findings.filter((f) => f.ruleId === 'parse-error').map((f) => `${f.file}:${f.line}:${f.column} ${f.message}`);
}

describe('parse errors', () => {
  it('are reported once per file, however many errors the parser found and however many rules read the file', async () => {
    expect(await parseErrors({ 'skills/review/SKILL.md': BAD_FRONT_MATTER, 'test/a.test.ts': "import { test } from 'vitest';\ntest('a', () => {});\n" })).toEqual([
      'skills/review/SKILL.md:3:14 cannot parse skills/review/SKILL.md: front matter: Nested mappings are not allowed in compact mappings (and 1 more)',
    ]);
  });

  it('are not reported for a malformed fixture that the tests only read as data', async () => {
    expect(
      await parseErrors({
        'skills/review/SKILL.md': '# Review\n',
        'test/a.test.ts': "import { readFileSync } from 'node:fs';\nimport { test } from 'vitest';\ntest('rejects bad front matter', () => readFileSync('test/fixtures/bad_frontmatter.md'));\n",
        'test/fixtures/bad_frontmatter.md': BAD_FRONT_MATTER,
        'test/fixtures/broken-input.ts': 'export const = ;\n',
      }),
    ).toEqual([]);
  });

  it('are reported for a helper a test imports, even when the helper lives beside the fixtures', async () => {
    expect(
      await parseErrors({
        'skills/review/SKILL.md': '# Review\n',
        'test/a.test.ts': "import { test } from 'vitest';\nimport { load } from './fixtures/load.js';\ntest('loads', () => load());\n",
        'test/fixtures/load.ts': 'export function load() {\n  return 1 +;\n}\n',
      }),
    ).toEqual(['test/fixtures/load.ts:2:13 cannot parse test/fixtures/load.ts: Expression expected.']);
  });
});
