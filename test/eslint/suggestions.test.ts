import { join } from 'node:path';
import js from '@eslint/js';
import { ESLint, type Linter } from 'eslint';
import tseslint from 'typescript-eslint';
import { describe, expect, it } from 'vitest';
import tripwire from '../../src/index.js';
import { resetModels } from '../../src/eslint/adapter.js';
import { makeGitRepo } from '../support/repo.js';
import { MAP_HARNESS_CONFIG as CONFIG } from '../support/map-harness.js';

// The fixes `tripwire fix` applies are ESLint suggestions where all their edits
// are in the linted file: the same edits, under the fix's own message id.

const MAP = `export const E2E_TOUCHFILES = {
  'gone-eval': ['src/review/**'],
  'review-basic': ['test/evals/review.test.ts', 'src/review/**'],
};

export const E2E_TIERS = {
  'gone-eval': 'periodic',
  'review-basic': 'gate',
};

export const GLOBAL_TOUCHFILES = ['test/helpers/run.ts'];
`;

const REPO = {
  'tripwire.config.json': CONFIG,
  'test/helpers/touchfiles.ts': MAP,
  'test/helpers/run.ts': 'export async function runEval(options: { name: string }, body: () => Promise<void>): Promise<void> {\n  await body();\n}\n',
  'src/review/review.ts': 'export const review = (diff: string): string => diff;\n',
  'test/evals/review.test.ts': "import { review } from '../../src/review/review.js';\nimport { runEval } from '../helpers/run.js';\n\nrunEval({ name: 'review-basic' }, async () => {\n  review('x');\n});\n",
  'test/evals/search.test.ts': "import { runEval } from '../helpers/run.js';\n\nif (process.env.EVALS_TIER === 'periodic') {\n  runEval({ name: 'search-basic' }, async () => {});\n}\n",
};

async function lintFile(dir: string, file: string): Promise<Linter.LintMessage[]> {
  resetModels();
  const eslint = new ESLint({ cwd: dir, overrideConfigFile: true, overrideConfig: [js.configs.recommended, ...tseslint.configs.recommended, ...tripwire.configs.recommended] });
  const [result] = await eslint.lintFiles([join(dir, file)]);
  return result?.messages ?? [];
}

function applied(text: string, suggestion: Linter.LintSuggestion | undefined): string {
  if (!suggestion) throw new Error('no suggestion');
  const [start, end] = suggestion.fix.range;
  return text.slice(0, start) + suggestion.fix.text + text.slice(end);
}

describe('tripwire fixes as ESLint suggestions', () => {
  it('on the map file: remove the orphan key, append the map file to the globals, each with its message id and output', async () => {
    const dir = makeGitRepo(REPO);
    const messages = await lintFile(dir, 'test/helpers/touchfiles.ts');
    expect(messages.map((m) => `${m.ruleId} ${m.messageId} ${m.line}:${m.column} ${(m.suggestions ?? []).map((s) => s.messageId).join(',')}`)).toEqual([
      'tripwire/touchfiles-cover-paid-tests orphanKey 2:3 removeOrphanKey',
      'tripwire/global-touchfiles-present mapFileNotGlobal 11:34 addGlobal',
    ]);
    const [orphan, globals] = messages;
    expect(orphan?.suggestions?.[0]?.desc).toBe("remove the entry 'gone-eval' from E2E_TOUCHFILES");
    expect(applied(MAP, orphan?.suggestions?.[0])).toBe(MAP.replace("  'gone-eval': ['src/review/**'],\n", ''));
    expect(applied(MAP, globals?.suggestions?.[0])).toBe(MAP.replace("['test/helpers/run.ts']", "['test/helpers/run.ts', 'test/helpers/touchfiles.ts']"));
  });

  it('in an unsaved buffer: the edits are offsets into the buffer, not into the file on disk', async () => {
    const dir = makeGitRepo(REPO);
    resetModels();
    const eslint = new ESLint({ cwd: dir, overrideConfigFile: true, overrideConfig: [js.configs.recommended, ...tseslint.configs.recommended, ...tripwire.configs.recommended] });
    const buffer = `// Which files select which paid test.\n${MAP}`;
    const [result] = await eslint.lintText(buffer, { filePath: join(dir, 'test/helpers/touchfiles.ts') });
    const orphan = result?.messages.find((m) => m.messageId === 'orphanKey');
    expect(`${orphan?.line}:${orphan?.column}`).toBe('3:3');
    expect(applied(buffer, orphan?.suggestions?.[0])).toBe(buffer.replace("  'gone-eval': ['src/review/**'],\n", ''));
  });

  it('on the test file: no suggestion for the missing entry and tier, whose edits are in the map (tripwire fix applies them)', async () => {
    const dir = makeGitRepo(REPO);
    const messages = await lintFile(dir, 'test/evals/search.test.ts');
    expect(messages.map((m) => `${m.ruleId} ${m.messageId} ${m.line}:${m.column} ${m.suggestions?.length ?? 0}`)).toEqual([
      'tripwire/touchfiles-cover-paid-tests missingTouchfileEntry 4:3 0',
      'tripwire/tiers-cover-paid-tests paidIdWithoutTier 4:3 0',
    ]);
  });
});
