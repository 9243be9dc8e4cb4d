import { describe, expect, it } from 'vitest';
import { configSchema } from '../../src/config/schema.js';
import { openFactCache } from '../../src/facts/cache.js';
import { RepoModel } from '../../src/model/model.js';

const ROOT = '/nonexistent-workspace-scope/packages/app';

/** A package of a workspace (prefix packages/app), whose configuration ignores src/generated/**, and a sibling package. */
function model(ignore: string[]): RepoModel {
  const texts = new Map([
    ['test/a.test.ts', "import { made } from '../src/generated/made.js';\nimport { tone } from '../../helpers/src/tone.js';\n"],
    ['src/generated/made.ts', 'export const made = 1;\n'],
    ['../helpers/src/tone.ts', 'export const tone = 1;\n'],
  ]);
  const files = ['test/a.test.ts', 'src/generated/made.ts'];
  return new RepoModel({
    root: ROOT,
    config: configSchema.parse({ ignore }),
    configFile: null,
    files,
    overlays: texts,
    workspace: { prefix: 'packages/app', files: new Set([...files, '../helpers/src/tone.ts']) },
    cache: openFactCache({ root: ROOT, version: 'workspace-scope', enabled: false }),
  });
}

describe('a package checked in its workspace', () => {
  it('resolves imports into a sibling package, and not into a file its configuration ignores (as at the workspace root)', () => {
    const open = model([]);
    expect(open.resolve('test/a.test.ts', '../src/generated/made.js')).toEqual({ kind: 'file', path: 'src/generated/made.ts' });
    expect(open.resolve('test/a.test.ts', '../../helpers/src/tone.js')).toEqual({ kind: 'file', path: '../helpers/src/tone.ts' });
    const ignoring = model(['src/generated/**']);
    expect(ignoring.resolve('test/a.test.ts', '../src/generated/made.js').kind).toBe('missing');
    expect(ignoring.resolve('test/a.test.ts', '../../helpers/src/tone.js')).toEqual({ kind: 'file', path: '../helpers/src/tone.ts' });
  });
});
