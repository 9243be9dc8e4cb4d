import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { check } from '../../src/engine/index.js';
import { PACKAGE_ROOT } from '../../src/version.js';

const DEMO = join(PACKAGE_ROOT, 'fixtures/demo');

describe('check on the demo: the chain to a paid call and the maps coverage', () => {
  it('carries the whole chain of a transitive paid call, the test first and the SDK (which has no position) last', async () => {
    const result = await check({ cwd: DEMO, cache: false, rules: ['no-paid-calls-in-free-tests'] });
    expect(result.findings.map((finding) => [finding.messageId, finding.chain])).toEqual([
      [
        'transitivePaidCall',
        [
          { label: 'test/oracle.test.ts', file: 'test/oracle.test.ts', line: 3 },
          { label: 'compareToOracle (test/helpers/oracle.ts)', file: 'test/helpers/oracle.ts', line: 18 },
          { label: 'judgeSameIssue (test/helpers/judge.ts)', file: 'test/helpers/judge.ts', line: 17 },
          { label: 'ask (test/helpers/judge.ts)', file: 'test/helpers/judge.ts', line: 6 },
          { label: '@anthropic-ai/sdk', file: 'test/helpers/judge.ts' },
        ],
      ],
    ]);
  });

  it('computes the coverage only when asked', async () => {
    const plain = await check({ cwd: DEMO, cache: false, rules: ['tiers-cover-paid-tests'] });
    expect('coverage' in plain).toBe(false);
    const asked = await check({ cwd: DEMO, cache: false, rules: ['tiers-cover-paid-tests'], coverage: true });
    expect(asked.coverage).toEqual({
      touchfileMaps: ['E2E_TOUCHFILES'],
      tierMap: 'E2E_TIERS',
      ids: [
        { id: 'review-basic', file: 'test/e2e-review.test.ts', line: 6, touchfile: true, hasTier: true, tier: 'gate' },
        { id: 'review-cost-budget', file: 'test/e2e-quality.test.ts', line: 17, touchfile: false, hasTier: true, tier: 'periodic' },
        { id: 'review-quality', file: 'test/e2e-quality.test.ts', line: 9, touchfile: true, hasTier: true, tier: 'periodic' },
        { id: 'review-security', file: 'test/e2e-review.test.ts', line: 16, touchfile: true, hasTier: true, tier: 'gate' },
      ],
    });
  });
});
