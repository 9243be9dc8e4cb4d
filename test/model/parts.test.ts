import { appendFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { envUses } from '../../src/analysis/seams.js';
import { buildModel } from '../../src/engine/project.js';
import { run } from '../../src/engine/run.js';
import { flatten, ReadLog } from '../../src/model/reads.js';
import { makeGitRepo } from '../support/repo.js';
import { temporaryDirs } from '../support/temp.js';

// Issue 18, item 2: a computation that read a file only through parts of it
// (the env vars it sets and reads, say) depends on those parts, not on the
// whole file; a stored verdict holds while they are the same.

const { tempDir, track } = temporaryDirs('parts');

/** A repository whose shipped code reads ACME_REPLAY_DIR and whose one test (`test`, its text) does not set it unless told to. */
function replayRepo(config: Record<string, unknown> = {}, test = "import { test } from 'vitest';\ntest('replays', () => 1);\n"): string {
  const dir = makeGitRepo({
    'package.json': '{ "name": "parts", "private": true }\n',
    'tripwire.config.json': JSON.stringify({ tests: { include: ['test/**/*.test.ts'] }, shipped: { include: ['src/**/*.ts'] }, ...config }),
    'src/replay.ts': 'export const replayDir = process.env.ACME_REPLAY_DIR;\n',
    'test/replay.test.ts': test,
  });
  track(dir);
  return dir;
}

describe('reads through parts', () => {
  it('a part absorbs the reads of its own file made computing it; its reads of other files stay whole', () => {
    const log = new ReadLog<string>();
    const { reads } = log.record(() => {
      log.part('a.ts', 'part env-uses');
      log.record(() => {
        log.file('a.ts');
        log.file('b.ts');
        log.record(() => log.file('a.ts'));
      }, 'a.ts');
    });
    const flat = flatten(reads);
    expect([...flat.files].sort()).toEqual(['a.ts', 'b.ts']);
    expect([...flat.partial]).toEqual([['a.ts', 'part env-uses']]);
  });

  it('a file read through two parts, in one computation or in two, has both kinds', () => {
    const log = new ReadLog<string>();
    const { reads } = log.record(() => {
      log.part('a.ts', 'part env-uses');
      log.part('a.ts', 'part env-uses');
      log.part('a.ts', 'part suppressions');
      log.part('b.ts', 'part env-uses');
      log.record(() => log.part('b.ts', 'part suppressions'));
    });
    const flat = flatten(reads);
    expect([...flat.partial]).toEqual([
      ['a.ts', ['part env-uses', 'part suppressions']],
      ['b.ts', ['part env-uses', 'part suppressions']],
    ]);
  });

  it('a file also read whole is not read only through parts', () => {
    const log = new ReadLog<string>();
    const { reads } = log.record(() => {
      log.part('a.ts', 'part env-uses');
      log.part('c.ts', 'part env-uses');
      log.record(() => log.file('a.ts'));
    });
    const flat = flatten(reads);
    expect([...flat.files].sort()).toEqual(['a.ts', 'c.ts']);
    expect([...flat.partial.keys()]).toEqual(['c.ts']);
  });

  it('a recording reached both inside a part of its file and outside it counts the file as read whole', () => {
    const log = new ReadLog<string>();
    let shared: ReturnType<ReadLog<string>['record']>['reads'] | undefined;
    const { reads } = log.record(() => {
      log.part('a.ts', 'part env-uses');
      log.record(() => {
        shared = log.record(() => log.file('a.ts')).reads;
      }, 'a.ts');
      if (shared) log.replay(shared);
    });
    const flat = flatten(reads);
    expect([...flat.files]).toEqual(['a.ts']);
    expect(flat.partial.size).toBe(0);
  });

  it('the model records a script read for its env uses as a read of that part, with an identity for it; a part it cannot compute again has none', async () => {
    const dir = makeGitRepo({
      'package.json': '{ "name": "parts", "private": true }\n',
      'tripwire.config.json': JSON.stringify({ tests: { include: ['test/**/*.test.ts'] } }),
      'test/env.test.ts': "process.env.ACME_FAKE = '1';\n",
    });
    track(dir);
    const { model } = await buildModel({ cwd: dir, cacheLocation: tempDir(), trackReads: true });
    const { value, reads } = model.recorded(() => envUses(model, 'test/env.test.ts'));
    expect(value.map((use) => [use.name, use.op])).toEqual([['ACME_FAKE', 'set']]);
    expect([...reads.files]).toEqual(['test/env.test.ts']);
    expect([...reads.partial]).toEqual([['test/env.test.ts', 'part env-uses']]);
    expect(model.partDigest('part env-uses', 'test/env.test.ts')).toMatch(/^[=#]/);
    expect(model.partDigest('part paid declarations []', 'test/env.test.ts')).toBeNull();
    // Read whole (its text), the file is no longer read only through a part.
    const whole = model.recorded(() => [envUses(model, 'test/env.test.ts'), model.text('test/env.test.ts')]);
    expect(whole.reads.partial.size).toBe(0);
  });
});

describe('verdicts over parts', () => {
  const carveOuts = async (dir: string, cache: string) => {
    const result = await run({ cwd: dir, cacheLocation: cache });
    const stat = result.stats.rules.find((candidate) => candidate.id === 'no-test-carve-outs');
    return { findings: result.findings, reused: stat?.reused === true };
  };
  const fresh = async (dir: string) => (await run({ cwd: dir, cache: false })).findings;

  it('is taken back while the parts read of a changed file are the same, and evaluated again once one differs', async () => {
    const dir = replayRepo();
    const cache = tempDir();
    expect((await carveOuts(dir, cache)).findings).toEqual([]);

    appendFileSync(join(dir, 'test/replay.test.ts'), "test('again', () => 2);\n");
    const same = await carveOuts(dir, cache);
    expect(same.reused).toBe(true);
    expect(same.findings).toEqual(await fresh(dir));

    // Now only the test sets the variable the shipped code reads: a carve-out the reused verdict would have missed.
    appendFileSync(join(dir, 'test/replay.test.ts'), "process.env.ACME_REPLAY_DIR = '/tmp/replay';\n");
    const changed = await carveOuts(dir, cache);
    expect(changed.reused).toBe(false);
    expect(changed.findings.map((finding) => `${finding.ruleId}/${finding.messageId} ${finding.file}:${finding.line}`)).toEqual(['no-test-carve-outs/testOnlyEnvVar src/replay.ts:1']);
    expect(changed.findings).toEqual(await fresh(dir));
  });

  it('is not taken back when the changed file has a problem its parts do not show (a parse error that moved)', async () => {
    const dir = replayRepo({}, "import { test } from 'vitest';\nconst broken = (;\ntest('replays', () => 1);\n");
    const cache = tempDir();
    const first = await carveOuts(dir, cache);
    expect(first.findings.map((finding) => `${finding.ruleId} ${finding.file}:${finding.line}`)).toEqual(['parse-error test/replay.test.ts:2']);

    writeFileSync(join(dir, 'test/replay.test.ts'), "import { test } from 'vitest';\ntest('replays', () => 1);\nconst broken = (;\n");
    const moved = await carveOuts(dir, cache);
    expect(moved.reused).toBe(false);
    expect(moved.findings.map((finding) => `${finding.ruleId} ${finding.file}:${finding.line}`)).toEqual(['parse-error test/replay.test.ts:3']);
    expect(moved.findings).toEqual(await fresh(dir));

    // Fixed, with the same env uses: the parse error the stored verdict recorded is not reported again.
    writeFileSync(join(dir, 'test/replay.test.ts'), "import { test } from 'vitest';\ntest('replays', () => 1);\n");
    const fixed = await carveOuts(dir, cache);
    expect(fixed.reused).toBe(false);
    expect(fixed.findings).toEqual([]);
    expect(fixed.findings).toEqual(await fresh(dir));
  });

  it('is not taken back when the changed file now has a problem: a verdict kept without it would drop it from later runs', async () => {
    // The carve-out check alone reads the test, so no other rule's verdict carries its parse error.
    const off = Object.fromEntries(['no-paid-calls-in-free-tests', 'touchfiles-cover-paid-tests', 'tiers-cover-paid-tests', 'global-touchfiles-present', 'no-dangling-references', 'no-weakened-frozen-tests', 'paid-ci-lanes'].map((id) => [id, 'off']));
    const dir = replayRepo({ rules: off });
    const cache = tempDir();
    expect((await carveOuts(dir, cache)).findings).toEqual([]);

    appendFileSync(join(dir, 'test/replay.test.ts'), 'const broken = (;\n');
    const broken = await carveOuts(dir, cache);
    expect(broken.reused).toBe(false);
    expect(broken.findings.map((finding) => `${finding.ruleId} ${finding.file}:${finding.line}`)).toEqual(['parse-error test/replay.test.ts:3']);
    const again = await carveOuts(dir, cache);
    expect(again.reused).toBe(true);
    expect(again.findings).toEqual(broken.findings);
    expect(again.findings).toEqual(await fresh(dir));
  });

  it('a family of derived values (the mentions of removed tokens) is computed again with the parameters the verdict kept', async () => {
    const dir = makeGitRepo({
      'package.json': '{ "name": "parts", "private": true }\n',
      'tripwire.config.json': JSON.stringify({
        tests: { include: ['test/**/*.test.ts'] },
        shipped: { include: ['src/**/*.ts'] },
        removed: [{ id: 'old-flag', tokens: ['ACME_OLD_FLAG'], why: 'The flag is gone.' }],
      }),
      'src/app.ts': 'export const app = 1;\n',
      'test/helpers/util.ts': 'export const util = 1;\n',
      'test/app.test.ts': "import { util } from './helpers/util';\nexport const used = util;\n",
    });
    track(dir);
    const cache = tempDir();
    const dangling = async () => {
      const result = await run({ cwd: dir, cacheLocation: cache });
      return { findings: result.findings, reused: result.stats.rules.find((candidate) => candidate.id === 'no-dangling-references')?.reused === true };
    };
    expect((await dangling()).findings).toEqual([]);

    appendFileSync(join(dir, 'test/helpers/util.ts'), 'export const more = 2;\n');
    const same = await dangling();
    expect(same.reused).toBe(true);
    expect(same.findings).toEqual(await fresh(dir));

    appendFileSync(join(dir, 'test/helpers/util.ts'), '// set ACME_OLD_FLAG to skip the check\n');
    const named = await dangling();
    expect(named.reused).toBe(false);
    expect(named.findings.map((finding) => `${finding.ruleId}/${finding.messageId} ${finding.file}:${finding.line}`)).toEqual(['no-dangling-references/removedToken test/helpers/util.ts:3']);
    expect(named.findings).toEqual(await fresh(dir));
  });

  it('a verdict whose files a later save recorded again (a run of other rules) is not taken back: the snapshot no longer shows what it read', async () => {
    const dir = replayRepo({ removed: [{ id: 'old-flag', tokens: ['ACME_OLD_FLAG'], why: 'The flag is gone.' }] });
    const cache = tempDir();
    expect((await carveOuts(dir, cache)).findings).toEqual([]);

    // Only the reference check runs after the test starts to set the variable: it stores the test's new content id.
    appendFileSync(join(dir, 'test/replay.test.ts'), "process.env.ACME_REPLAY_DIR = '/tmp/replay';\n");
    await run({ cwd: dir, cacheLocation: cache, rules: ['no-dangling-references'] });

    const all = await carveOuts(dir, cache);
    expect(all.reused).toBe(false);
    expect(all.findings.map((finding) => `${finding.ruleId}/${finding.messageId} ${finding.file}:${finding.line}`)).toEqual(['no-test-carve-outs/testOnlyEnvVar src/replay.ts:1']);
    expect(all.findings).toEqual(await fresh(dir));
  });
});
