import js from '@eslint/js';
import { ESLint } from 'eslint';
import { defineConfig } from 'eslint/config';
import tseslint from 'typescript-eslint';
import { describe, expect, it } from 'vitest';
import tripwire from '../../src/index.js';
import { resetModels } from '../../src/eslint/adapter.js';
import { makeGitRepo } from '../support/repo.js';

// A repository as users have them: a README, shipped Markdown, a free test that reaches a paid SDK.
const REPO = {
  'tripwire.config.json': '{ "tests": { "include": ["test/**/*.test.ts"] }, "removed": [{ "id": "stipulation", "tokens": ["STIPULATE_FIXTURES"], "why": "the skill always fetches" }] }',
  'README.md': '# judge\n\nRun `npm test`.\n',
  'skills/review/SKILL.md': '# Review\n\nSet `STIPULATE_FIXTURES=1` to skip fetching.\n',
  'src/judge.ts': 'export const judge = (s: string): string => s.trim();\n',
  'test/judge.test.ts': "import OpenAI from 'openai';\nexport const client = new OpenAI();\n",
};

/** `rule file:line` of every message, with ESLint's own fatal errors as they come. */
function messages(results: ESLint.LintResult[], cwd: string): string[] {
  return results.flatMap((result) => result.messages.map((m) => `${m.ruleId ?? 'fatal'} ${result.filePath.slice(cwd.length + 1)}:${m.line}`)).sort();
}

describe('the presets beside the ordinary ESLint configs', () => {
  it('recommended beside @eslint/js and typescript-eslint lints code only: no Markdown file is pulled into the lint', async () => {
    resetModels();
    const dir = makeGitRepo(REPO);
    const eslint = new ESLint({ cwd: dir, overrideConfigFile: true, overrideConfig: [js.configs.recommended, ...tseslint.configs.recommended, ...tripwire.configs.recommended] });
    const results = await eslint.lintFiles(['.']);
    expect(results.map((result) => result.filePath.slice(dir.length + 1)).sort()).toEqual(['src/judge.ts', 'test/judge.test.ts']);
    expect(messages(results, dir)).toEqual(['tripwire/no-paid-calls-in-free-tests test/judge.test.ts:1']);
  });

  it('strict beside them likewise', async () => {
    resetModels();
    const dir = makeGitRepo(REPO);
    const eslint = new ESLint({ cwd: dir, overrideConfigFile: true, overrideConfig: [js.configs.recommended, ...tseslint.configs.recommended, ...tripwire.configs.strict] });
    expect(messages(await eslint.lintFiles(['.']), dir)).toEqual(['tripwire/no-paid-calls-in-free-tests test/judge.test.ts:1']);
  });

  it('markdown, opted into as the README shows (the JS configs scoped to code files), reports in shipped Markdown and lints the README without crashing', async () => {
    resetModels();
    const dir = makeGitRepo(REPO);
    const config = defineConfig([
      { files: ['**/*.{js,mjs,cjs,ts,mts,cts}'], extends: [js.configs.recommended, tseslint.configs.recommended] },
      tripwire.configs.recommended,
      tripwire.configs.markdown,
    ]);
    const results = await new ESLint({ cwd: dir, overrideConfigFile: true, overrideConfig: config }).lintFiles(['.']);
    expect(results.map((result) => result.filePath.slice(dir.length + 1)).sort()).toEqual(['README.md', 'skills/review/SKILL.md', 'src/judge.ts', 'test/judge.test.ts']);
    expect(messages(results, dir)).toEqual(['tripwire/no-dangling-references skills/review/SKILL.md:3', 'tripwire/no-paid-calls-in-free-tests test/judge.test.ts:1']);
  });

  it('each preset is one array, the same on every read, every object named', () => {
    expect(tripwire.configs.recommended).toBe(tripwire.configs.recommended);
    expect(tripwire.configs.recommended.map((config) => [config.name, config.files])).toEqual([['tripwire/recommended/code', ['**/*.{ts,tsx,mts,cts,js,jsx,mjs,cjs}']]]);
    expect(tripwire.configs.strict.map((config) => config.name)).toEqual(['tripwire/strict/code', 'tripwire/strict/directives']);
    expect(tripwire.configs.markdown.map((config) => [config.name, config.files, config.language])).toEqual([['tripwire/markdown', ['**/*.md'], 'markdown/gfm']]);
  });
});
