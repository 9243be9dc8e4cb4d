import { describe, expect, it } from 'vitest';
import { configSchema } from '../../src/config/schema.js';
import { openFactCache } from '../../src/facts/cache.js';
import { inferIds } from '../../src/init/ids.js';
import { RepoModel } from '../../src/model/model.js';

function modelOf(files: Record<string, string>): RepoModel {
  const root = '/nonexistent-ids-root';
  return new RepoModel({ root, config: configSchema.parse({}), configFile: null, files: Object.keys(files), overlays: new Map(Object.entries(files)), cache: openFactCache({ root, version: 'ids', enabled: false }) });
}

const KEYS = new Set(['review-basic', 'review-depth', 'plan-smoke']);

describe('inferIds', () => {
  it('takes the call that wraps a test body, not the result store called with the same id inside it (issue 15, defect 12)', () => {
    const model = modelOf({
      'evals/review.eval.ts': [
        "import { describeEval, recordResult } from './harness.js';",
        "describeEval('review-basic', () => { recordResult('review-basic', 0.9); });",
        "describeEval('review-depth', () => { recordResult('review-depth', 0.7); });",
      ].join('\n'),
      'evals/plan.eval.ts': "import { describeEval, recordResult } from './harness.js';\ndescribeEval('plan-smoke', () => { recordResult('plan-smoke', 1); });\n",
    });
    const { ids } = inferIds(model, ['evals/review.eval.ts', 'evals/plan.eval.ts'], KEYS, []);
    expect(ids.map((s) => s.shape)).toEqual([{ call: 'describeEval', arg: 0 }]);
  });

  it('keeps a second shape where it carries ids the first does not', () => {
    const model = modelOf({
      'evals/a.eval.ts': "describeEval('review-basic', () => {});\ndescribeEval('review-depth', () => {});\n",
      'evals/b.eval.ts': "runEval({ name: 'plan-smoke', run: async () => {} });\n",
    });
    const { ids } = inferIds(model, ['evals/a.eval.ts', 'evals/b.eval.ts'], KEYS, []);
    expect(ids.map((s) => s.shape)).toEqual([{ call: 'describeEval', arg: 0 }, { call: 'runEval', arg: 0, property: 'name' }]);
  });

  it('keeps the store call when it is the only one that names the ids', () => {
    const model = modelOf({ 'evals/a.eval.ts': "test('reviews', async () => { recordResult('review-basic', 1); recordResult('review-depth', 1); });\n" });
    const { ids } = inferIds(model, ['evals/a.eval.ts'], KEYS, []);
    expect(ids.map((s) => s.shape)).toEqual([{ call: 'recordResult', arg: 0 }]);
  });
});
