import { describe, expect, it } from 'vitest';
import { check } from '../../src/engine/index.js';
import { fixtureRepo } from '../support/overlay.js';

async function findings(overlay?: string): Promise<string[]> {
  const result = await check({ cwd: fixtureRepo('maps/good', overlay), cache: false, rules: ['tiers-cover-paid-tests'] });
  return result.findings.map((f) => `${f.file}:${f.line}:${f.column} ${f.ruleId} ${f.message}`);
}

describe('tiers-cover-paid-tests on fixtures/maps', () => {
  it('finds nothing in the good harness, whose self-gates agree with the declared tiers', async () => {
    expect(await findings()).toEqual([]);
  });

  it('reports an id with touchfiles but no tier', async () => {
    expect(await findings('maps/bad/missing-tier')).toEqual([
      "test/helpers/touchfiles.ts:37:3 tiers-cover-paid-tests 'qa-out-of-scope' has touchfiles in E2E_TOUCHFILES but no tier in E2E_TIERS: add it with one of 'gate', 'periodic'",
    ]);
  });

  it('reports an inert demotion: the file gates on gate while the map says periodic', async () => {
    const result = await check({ cwd: fixtureRepo('maps/good', 'maps/bad/inert-demotion'), cache: false, rules: ['tiers-cover-paid-tests'] });
    expect(result.findings).toEqual([
      {
        ruleId: 'tiers-cover-paid-tests',
        messageId: 'inertDemotion',
        severity: 'error',
        file: 'test/evals/qa/injection.test.ts',
        line: 9,
        column: 16,
        endLine: 9,
        endColumn: 49,
        message: "this file gates itself on tier 'gate', but E2E_TIERS declares another tier for 'qa-prompt-injection': the declaration is inert. Make the gate and the map agree.",
        related: [{ file: 'test/helpers/touchfiles.ts', line: 79, column: 26, message: "'qa-prompt-injection' declared 'periodic'" }],
      },
    ]);
  });

  it('reports an inert demotion of a key bound to its file by registration: the file names no id, the key lists the file', async () => {
    const result = await check({ cwd: fixtureRepo('maps/good', 'maps/bad/registered-tier-flipped'), cache: false, rules: ['tiers-cover-paid-tests'] });
    expect(result.findings).toEqual([
      {
        ruleId: 'tiers-cover-paid-tests',
        messageId: 'inertDemotion',
        severity: 'error',
        file: 'test/evals/legacy-smoke.test.ts',
        line: 7,
        column: 16,
        endLine: 7,
        endColumn: 49,
        message: "this file gates itself on tier 'gate', but E2E_TIERS declares another tier for 'legacy-smoke' (bound to this file by its touchfile entry, which names it): the declaration is inert. Make the gate and the map agree.",
        related: [{ file: 'test/helpers/touchfiles.ts', line: 86, column: 19, message: "'legacy-smoke' declared 'periodic'" }],
      },
    ]);
  });

  it('reports a tier value it cannot evaluate (a let binding)', async () => {
    expect(await findings('maps/bad/unevaluable-map')).toEqual([
      "test/helpers/touchfiles.ts:89:20 tiers-cover-paid-tests cannot evaluate the map statically: 'DEFAULT_TIER' is a let binding: its value can change at run time; declare it const",
    ]);
  });
});
