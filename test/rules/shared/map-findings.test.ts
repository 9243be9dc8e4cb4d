import { describe, expect, it } from 'vitest';
import { check } from '../../../src/engine/index.js';
import { makeGitRepo } from '../../support/repo.js';

describe('rules/shared/map-findings: a map rule with paid tests and no map configured', () => {
  it('reports one paid test file in the singular, at the start of the file that holds the configuration (package.json here), for each map rule', async () => {
    const dir = makeGitRepo({
      'package.json': JSON.stringify({ name: 'acme', tripwire: { tests: { include: ['test/**/*.test.ts'], paid: ['test/evals/**/*.test.ts'], ids: [{ call: 'runEval', arg: 0 }] } } }),
      'test/evals/run.ts': 'export const runEval = (name: string, body: () => Promise<void>) => body();\n',
      'test/evals/answers.test.ts': "import { runEval } from './run';\nrunEval('answers', async () => {});\n",
    });
    const result = await check({ cwd: dir, cache: false });
    expect(result.findings.map((f) => `${f.file}:${f.line}:${f.column} ${f.ruleId} ${f.messageId} ${f.message}`)).toEqual([
      'package.json:1:1 global-touchfiles-present missingMapConfig 1 paid test file but no global touchfile list is configured (maps.globals): configure it, or turn this rule off',
      'package.json:1:1 tiers-cover-paid-tests missingMapConfig 1 paid test file but no tier map is configured (maps.tiers): configure it, or turn this rule off',
      'package.json:1:1 touchfiles-cover-paid-tests missingMapConfig 1 paid test file but no touchfile map is configured (maps.touchfiles): configure it, or turn this rule off',
    ]);
  });
});
