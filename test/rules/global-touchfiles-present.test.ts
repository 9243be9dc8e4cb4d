import { describe, expect, it } from 'vitest';
import { check } from '../../src/engine/index.js';
import { fixtureRepo } from '../support/overlay.js';

async function findings(overlay?: string): Promise<string[]> {
  const result = await check({ cwd: fixtureRepo('maps/good', overlay), cache: false, rules: ['global-touchfiles-present'] });
  return result.findings.map((f) => `${f.file}:${f.line}:${f.column} ${f.ruleId} ${f.message}`);
}

describe('global-touchfiles-present on fixtures/maps', () => {
  it('finds nothing in the good harness, whose globals name the map, the runner and the store', async () => {
    expect(await findings()).toEqual([]);
  });

  it('reports globals that no longer name the selection map file', async () => {
    expect(await findings('maps/bad/globals-missing-map-file')).toEqual([
      "test/helpers/touchfiles.ts:90:34 global-touchfiles-present GLOBAL_TOUCHFILES does not name the selection map test/helpers/touchfiles.ts (E2E_TOUCHFILES): a one-line edit to the map would deselect tests in silence. Add 'test/helpers/touchfiles.ts'.",
    ]);
  });

  it('reports a computed global once: it may be the map file itself, so no mapFileNotGlobal on top', async () => {
    expect(await findings('maps/bad/computed-map-file-global')).toEqual([
      'test/helpers/touchfiles.ts:93:3 global-touchfiles-present cannot evaluate the map statically: cannot evaluate a call to relative() statically',
    ]);
  });

  it('reports a computed global once: it may be the required store, so no requiredFileNotGlobal on top', async () => {
    expect(await findings('maps/bad/computed-required-global')).toEqual([
      'test/helpers/touchfiles.ts:97:3 global-touchfiles-present cannot evaluate the map statically: cannot evaluate a call to relative() statically',
    ]);
  });

  it('counts globals built from a constant: the map file and the required files are named', async () => {
    expect(await findings('maps/ok/named-global-paths')).toEqual([]);
  });
});
