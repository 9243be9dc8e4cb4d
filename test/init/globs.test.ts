import { describe, expect, it } from 'vitest';
import { coverFiles, testNamePatterns } from '../../src/init/globs.js';

describe('testNamePatterns', () => {
  const cases: [string, string[]][] = [
    ['libs/a/chat.int.test.ts', ['*.test.ts', '*.int.test.ts']],
    ['libs/a/openai.standard.int.test.ts', ['*.test.ts', '*.int.test.ts', '*.standard.int.test.ts']],
    ['tests/summarize.evals.ts', ['*.evals.ts']],
    ['evals/answer.eval.test.ts', ['*.test.ts', '*.eval.test.ts']],
    ['src/format.ts', ['*.ts']],
    ['README', ['README']],
  ];
  for (const [file, expected] of cases) {
    it(`${file} → ${expected.join(', ')}`, () => {
      expect(testNamePatterns(file)).toEqual(expected);
    });
  }
});

describe('coverFiles', () => {
  it('names the paid suite by its compound suffix when the plain one would catch free tests', () => {
    const paid = ['libs/a/src/chat.int.test.ts', 'libs/b/src/tools.int.test.ts'];
    const free = ['libs/a/src/chat.test.ts', 'libs/b/src/tools.test.ts'];
    expect(coverFiles(paid, free)).toEqual(['libs/**/*.int.test.ts']);
  });

  it('takes the shallowest folder, and the shortest pattern that stays clear in it', () => {
    expect(coverFiles(['test/e2e/a.test.ts', 'test/e2e/b.test.ts'], ['test/unit/c.test.ts'])).toEqual(['test/e2e/**/*.test.ts']);
    expect(coverFiles(['tests/a.evals.ts', 'tests/b.evals.ts'], ['tests/a.test.ts', 'tests/helpers/x.ts'])).toEqual(['tests/**/*.evals.ts']);
  });
});
