import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import js from '@eslint/js';
import { ESLint } from 'eslint';
import tseslint from 'typescript-eslint';
import { describe, expect, it } from 'vitest';
import tripwire from '../../src/index.js';
import { resetModels } from '../../src/eslint/adapter.js';
import { makeGitRepo } from '../support/repo.js';

// An invalid configuration is one message per linted file, at 1:1, and the
// lint goes on: the other configs' rules still report, nothing crashes.

const FILES = {
  'src/judge.ts': 'export const judge = (s: string): string => s.trim();\nconst unused = 1;\n',
  'test/chat.test.ts': "import OpenAI from 'openai';\nexport const client = new OpenAI();\n",
};

/** `rule messageId file:line:column` of every message. */
async function lint(dir: string): Promise<{ messages: string[]; texts: string[] }> {
  resetModels();
  const eslint = new ESLint({ cwd: dir, overrideConfigFile: true, overrideConfig: [js.configs.recommended, ...tseslint.configs.recommended, ...tripwire.configs.recommended] });
  const results = await eslint.lintFiles(['.']);
  const all = results.flatMap((result) => result.messages.map((m) => ({ ...m, file: result.filePath.slice(dir.length + 1) })));
  return {
    messages: all.map((m) => `${m.ruleId} ${m.messageId} ${m.file}:${m.line}:${m.column}`).sort(),
    texts: [...new Set(all.filter((m) => m.messageId === 'invalidConfig').map((m) => m.message))],
  };
}

describe('an invalid tripwire configuration in ESLint', () => {
  it('a value of the wrong type: one message per linted file, naming the key, and the other rules still run', async () => {
    const dir = makeGitRepo({ ...FILES, 'tripwire.config.json': '{ "tests": { "include": "test/**/*.test.ts" } }' });
    const { messages, texts } = await lint(dir);
    expect(messages).toEqual([
      '@typescript-eslint/no-unused-vars unusedVar src/judge.ts:2:7',
      'tripwire/no-paid-calls-in-free-tests invalidConfig src/judge.ts:1:1',
      'tripwire/no-paid-calls-in-free-tests invalidConfig test/chat.test.ts:1:1',
    ]);
    expect(texts).toEqual(['the tripwire configuration is invalid, so tripwire checked nothing: tripwire.config.json: tests.include: expected array, received string. Fix it (`tripwire check` prints the same).']);
  });

  it('a syntax error, bad rule options and a corrupt baseline likewise; once fixed, the findings come back', async () => {
    const dir = makeGitRepo({ ...FILES, 'tripwire.config.json': '{ "tests": { "include": ["test/**/*.test.ts"] }, }}' });
    expect((await lint(dir)).texts).toEqual([expect.stringMatching(/^the tripwire configuration is invalid, so tripwire checked nothing: tripwire\.config\.json:1:\d+: invalid JSONC: /)]);

    writeFileSync(join(dir, 'tripwire.config.json'), '{ "tests": { "include": ["test/**/*.test.ts"] }, "rules": { "no-paid-calls-in-free-tests": ["error", { "nope": true }] } }');
    expect((await lint(dir)).texts).toEqual([expect.stringContaining('tripwire.config.json: rules.no-paid-calls-in-free-tests[1].nope: unknown key')]);

    writeFileSync(join(dir, '.tripwire-baseline.json'), '');
    writeFileSync(join(dir, 'tripwire.config.json'), '{ "tests": { "include": ["test/**/*.test.ts"] }, "baseline": ".tripwire-baseline.json" }');
    expect((await lint(dir)).texts).toEqual([expect.stringContaining('.tripwire-baseline.json: the baseline is not valid JSON')]);

    writeFileSync(join(dir, 'tripwire.config.json'), '{ "tests": { "include": ["test/**/*.test.ts"] } }');
    expect((await lint(dir)).messages).toEqual(['@typescript-eslint/no-unused-vars unusedVar src/judge.ts:2:7', 'tripwire/no-paid-calls-in-free-tests paidImport test/chat.test.ts:1:1']);
  });

  it('in a long session, is reported until the file is fixed, then the findings come back without a restart', async () => {
    resetModels();
    const dir = makeGitRepo({ ...FILES, 'tripwire.config.json': '{ "tests": { "include": 3 } }' });
    const eslint = new ESLint({ cwd: dir, overrideConfigFile: true, overrideConfig: tripwire.configs.recommended });
    const ids = async (): Promise<string[]> => (await eslint.lintFiles(['test'])).flatMap((result) => result.messages.map((m) => `${m.messageId}`));
    expect(await ids()).toEqual(['invalidConfig']);
    writeFileSync(join(dir, 'tripwire.config.json'), '{ "tests": { "include": ["test/**/*.test.ts"] } }');
    await new Promise((resolve) => setTimeout(resolve, 2100));
    expect(await ids()).toEqual(['paidImport']);
  });
});
