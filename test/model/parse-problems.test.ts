import { describe, expect, it } from 'vitest';
import { basename, join } from 'node:path';
import { check, run } from '../../src/engine/index.js';
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

describe('a file nested deeper than the parser goes', () => {
  // ~800 nested parentheses, 700 nested arrays or 1000 nested objects exhausted the compiler's stack,
  // and the RangeError ended the whole run. Far deeper here, so that any stack size overflows.
  const DEEP = {
    'test/parens.test.ts': `export const parens = ${'('.repeat(10_000)}1${')'.repeat(10_000)};\n`,
    'test/arrays.test.ts': `export const arrays = ${'['.repeat(10_000)}1${']'.repeat(10_000)};\n`,
    'test/objects.test.ts': `export const objects = ${'{ a: '.repeat(10_000)}1${' }'.repeat(10_000)};\n`,
    'test/chat.test.ts': "import OpenAI from 'openai';\nimport { test } from 'vitest';\ntest('chats', () => new OpenAI());\n",
    'skills/review/SKILL.md': '# Review\n',
  };

  it('is one parse error at the file, and every other file is still checked', async () => {
    const { findings } = await check({ cwd: makeGitRepo({ 'tripwire.config.json': CONFIG, ...DEEP }), cache: false });
    expect(findings.map((f) => `${f.ruleId}/${f.messageId} ${f.file}:${f.line}:${f.column} ${f.message}`)).toEqual([
      'parse-error/parseError test/arrays.test.ts:1:1 cannot parse test/arrays.test.ts: nested too deeply to parse (the parser ran out of stack)',
      "no-paid-calls-in-free-tests/paidImport test/chat.test.ts:1:1 free test imports the model SDK 'openai': test/chat.test.ts → openai. Move it under a paid test root, use `import type`, or mock the module.",
      'parse-error/parseError test/objects.test.ts:1:1 cannot parse test/objects.test.ts: nested too deeply to parse (the parser ran out of stack)',
      'parse-error/parseError test/parens.test.ts:1:1 cannot parse test/parens.test.ts: nested too deeply to parse (the parser ran out of stack)',
    ]);
  });

  it('is parsed again by the next run: how deep a parse gets depends on the stack left, not only on the text, so it is never cached', async () => {
    const dir = makeGitRepo({ 'tripwire.config.json': CONFIG, ...DEEP });
    const cacheLocation = join(dir, '..', `${basename(dir)}-cache`);
    const first = await run({ cwd: dir, cacheLocation });
    const second = await run({ cwd: dir, cacheLocation });
    expect(second.findings).toEqual(first.findings);
    // The three deep files, and nothing else: the chat test's facts come from the cache.
    expect(second.model.stats.parsed).toBe(3);
  });

  it('is not reached by a file nested 100 levels deep', async () => {
    expect(
      await parseErrors({
        'test/parens.test.ts': `export const parens = ${'('.repeat(100)}1${')'.repeat(100)};\n`,
        'test/arrays.test.ts': `export const arrays = ${'['.repeat(100)}1${']'.repeat(100)};\n`,
        'test/objects.test.ts': `export const objects = ${'{ a: '.repeat(100)}1${' }'.repeat(100)};\n`,
      }),
    ).toEqual([]);
  });
});
