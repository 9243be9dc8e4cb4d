import { describe, expect, it } from 'vitest';
import { buildModel } from '../../src/engine/index.js';
import { TestClosure } from '../../src/analysis/closure.js';
import { makeGitRepo } from '../support/repo.js';

async function closureOf(files: Record<string, string>, test = 'test/evals/case.test.ts'): Promise<string[]> {
  const { model } = await buildModel({ cwd: makeGitRepo(files), cache: false });
  return [...new TestClosure(model).of(test)].map(([file, chain]) => `${file} ← ${chain.join(' → ')}`).sort();
}

describe('TestClosure', () => {
  it('follows the bindings the test uses, through a barrel, and not the ones it only imports', async () => {
    expect(
      await closureOf({
        'test/evals/case.test.ts': "import { grade, unused } from '../helpers/index.js';\nimport { test } from 'vitest';\ntest('x', () => grade());\n",
        'test/helpers/index.ts': "export { grade } from './grade.js';\nexport { unused } from './unused.js';\n",
        'test/helpers/grade.ts': "import { rubric } from './rubric.js';\nexport function grade() { return rubric; }\n",
        'test/helpers/rubric.ts': "export const rubric = ['clear'];\n",
        'test/helpers/unused.ts': 'export function unused() { return 1; }\n',
      }),
    ).toEqual([
      'test/helpers/grade.ts ← test/evals/case.test.ts → test/helpers/index.ts → test/helpers/grade.ts',
      'test/helpers/index.ts ← test/evals/case.test.ts → test/helpers/index.ts',
      'test/helpers/rubric.ts ← test/evals/case.test.ts → test/helpers/index.ts → test/helpers/grade.ts → test/helpers/rubric.ts',
    ]);
  });

  it('keeps a module whose top level runs on import, and the modules that import it, even for an unused binding', async () => {
    expect(
      await closureOf({
        'test/evals/case.test.ts': "import { version } from '../helpers/setup.js';\nimport { test } from 'vitest';\ntest('x', () => {});\n",
        'test/helpers/setup.ts': "import './matchers.js';\nexport const version = 1;\n",
        'test/helpers/matchers.ts': "expect.extend({ toBeGrounded: () => ({ pass: true, message: () => '' }) });\n",
      }),
    ).toEqual(['test/helpers/matchers.ts ← test/evals/case.test.ts → test/helpers/setup.ts → test/helpers/matchers.ts', 'test/helpers/setup.ts ← test/evals/case.test.ts → test/helpers/setup.ts']);
  });

  it('leaves out a module imported for a binding the test never uses when its top level only declares', async () => {
    expect(
      await closureOf({
        'test/evals/case.test.ts': "import { helper } from '../helpers/quiet.js';\nimport data from '../fixtures/cases.json';\nimport { test } from 'vitest';\ntest('x', () => {});\n",
        'test/helpers/quiet.ts': "import { join } from 'node:path';\nimport { table } from './table.js';\nconst ROOT = join('a', 'b');\nexport function helper() { return [ROOT, table]; }\n",
        'test/helpers/table.ts': 'export const table = [1, 2];\n',
        'test/fixtures/cases.json': '[]\n',
      }),
    ).toEqual([]);
  });

  it('follows a require inside a function only when the test calls the function', async () => {
    const files = {
      'test/helpers/lazy.ts': "export function load() { return require('./heavy.js'); }\nexport function light() { return 1; }\n",
      'test/helpers/heavy.ts': 'export const heavy = 1;\n',
    };
    expect(await closureOf({ ...files, 'test/evals/case.test.ts': "import { light } from '../helpers/lazy.js';\nlight();\n" })).toEqual(['test/helpers/lazy.ts ← test/evals/case.test.ts → test/helpers/lazy.ts']);
    expect(await closureOf({ ...files, 'test/evals/case.test.ts': "import { load } from '../helpers/lazy.js';\nload();\n" })).toEqual([
      'test/helpers/heavy.ts ← test/evals/case.test.ts → test/helpers/lazy.ts → test/helpers/heavy.ts',
      'test/helpers/lazy.ts ← test/evals/case.test.ts → test/helpers/lazy.ts',
    ]);
  });
});
