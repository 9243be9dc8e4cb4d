import { describe, expect, it } from 'vitest';
import { check } from '../../../src/engine/index.js';
import { makeGitRepo } from '../../support/repo.js';

describe('rules/shared/dead-glob: a glob that matches no file', () => {
  it('is not dead when maps.generated covers it (matched by a pattern with no base, the base itself, a path under the base); a typo gets the file it meant as a hint; a glob with nothing near, or whose near base would select nothing either (srcs/**/*.py → src/**/*.py), gets none; a glob too complex to match is that finding, not a dead one', async () => {
    const dir = makeGitRepo({
      'tripwire.config.json': JSON.stringify({
        maps: {
          touchfiles: { file: 'test/helpers/touchfiles.ts', export: 'E2E_TOUCHFILES' },
          globals: { file: 'test/helpers/touchfiles.ts', export: 'GLOBAL_TOUCHFILES' },
          generated: ['**/*.gen.ts', 'dist/*.js'],
        },
      }),
      'src/index.ts': 'export const x = 1;\n',
      'test/helpers/touchfiles.ts':
        "export const E2E_TOUCHFILES = {};\nexport const GLOBAL_TOUCHFILES = [\n  'test/helpers/touchfiles.ts',\n  'src/schema.gen.ts',\n  'dist',\n  'dist/maps/cli.js.map',\n  'test/helpers/touchfile.ts',\n  'lib/**',\n  'srcs/**/*.py',\n  'src/*a*a*a*a*b',\n];\n",
    });
    const result = await check({ cwd: dir, cache: false });
    expect(result.findings.map((f) => `${f.file}:${f.line}:${f.column} ${f.ruleId} ${f.messageId} ${f.message}`)).toEqual([
      "test/helpers/touchfiles.ts:7:3 global-touchfiles-present deadGlob glob 'test/helpers/touchfile.ts' matches no file (did you mean 'test/helpers/touchfiles.ts'?): a change there would select nothing. Fix the path, or declare generated paths in maps.generated.",
      "test/helpers/touchfiles.ts:8:3 global-touchfiles-present deadGlob glob 'lib/**' matches no file: a change there would select nothing. Fix the path, or declare generated paths in maps.generated.",
      "test/helpers/touchfiles.ts:9:3 global-touchfiles-present deadGlob glob 'srcs/**/*.py' matches no file: a change there would select nothing. Fix the path, or declare generated paths in maps.generated.",
      "test/helpers/touchfiles.ts:10:3 glob-too-complex globTooComplex the global touchfile glob 'src/*a*a*a*a*b' is too complex to match: 5 unbounded wildcards in the path segment '*a*a*a*a*b' (at most 3). It matches nothing until it is simplified.",
    ]);
  });
});
