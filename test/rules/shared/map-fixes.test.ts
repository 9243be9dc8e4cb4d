import { describe, expect, it } from 'vitest';
import { buildModel } from '../../../src/engine/index.js';
import { mapLiteral, oneEditFix } from '../../../rules/shared/map-fixes.js';
import { makeGitRepo } from '../../support/repo.js';

describe('rules/shared/map-fixes', () => {
  it('finds the literal of an export of a script file, and none for a JSON map, a ref without an export, an unreadable file or a missing export', async () => {
    const { model } = await buildModel({
      cwd: makeGitRepo({
        'tripwire.config.json': '{}',
        'test/helpers/touchfiles.ts': "export const E2E_TOUCHFILES = { answers: ['src/**'] };\n",
        'test/helpers/touchfiles.json': '{ "E2E_TOUCHFILES": {} }\n',
      }),
      cache: false,
    });
    const found = mapLiteral(model, { file: 'test/helpers/touchfiles.ts', export: 'E2E_TOUCHFILES' });
    expect(found?.literal.getText(found.source)).toBe("{ answers: ['src/**'] }");
    expect(mapLiteral(model, { file: 'test/helpers/touchfiles.json', export: 'E2E_TOUCHFILES' })).toBeNull();
    expect(mapLiteral(model, { file: 'test/helpers/touchfiles.ts' })).toBeNull();
    expect(mapLiteral(model, { file: 'test/helpers/missing.ts', export: 'E2E_TOUCHFILES' })).toBeNull();
    expect(mapLiteral(model, { file: 'test/helpers/touchfiles.ts', export: 'E2E_TIERS' })).toBeNull();
  });

  it('makes a one-edit fix from a replacement, and none without one', () => {
    expect(oneEditFix('addEntry', 'add it', 'map.ts', { range: [3, 5], text: 'x' })).toEqual({ fix: { messageId: 'addEntry', description: 'add it', edits: [{ file: 'map.ts', range: [3, 5], text: 'x' }] } });
    expect(oneEditFix('addEntry', 'add it', 'map.ts', null)).toEqual({});
  });
});
