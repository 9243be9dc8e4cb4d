import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { check } from '../../src/engine/index.js';
import { ConfigError } from '../../src/config/errors.js';
import { fixtureRepo } from '../support/overlay.js';
import { git, runCli } from '../support/repo.js';

/** One edit of one file; `from` must occur exactly once, so that an edit cannot silently not apply. */
interface Edit {
  file: string;
  from: string;
  to: string;
}

function apply(dir: string, edits: readonly Edit[]): void {
  for (const { file, from, to } of edits) {
    const path = join(dir, file);
    const text = readFileSync(path, 'utf8');
    expect(text.split(from).length - 1, `${file} holds the text to edit exactly once`).toBe(1);
    writeFileSync(path, text.replace(from, to));
  }
}

/** This rule's findings; the good harness is clean under every rule (first test). */
async function findingsIn(dir: string): Promise<string[]> {
  const result = await check({ cwd: dir, cache: false, rules: ['no-weakened-frozen-tests'] });
  return result.findings.map((f) => `${f.file}:${f.line}:${f.column} ${f.ruleId} ${f.message}`);
}

/** The findings after the edits: a weakening edit must show up as exactly its own findings. */
async function findingsAfter(...edits: Edit[]): Promise<string[]> {
  const dir = fixtureRepo('frozen/good');
  apply(dir, edits);
  return findingsIn(dir);
}

describe('no-weakened-frozen-tests on fixtures/frozen/good', () => {
  it('finds nothing in the good harness (13 frozen tests in vitest, jest, node:test, mocha and bun shapes, 2 locked files)', async () => {
    const result = await check({ cwd: fixtureRepo('frozen/good'), cache: false });
    expect(result.findings).toEqual([]);
    expect(result.summary.rules).toBeGreaterThanOrEqual(5);
  });

  it('finds exactly the one weakened frozen test of fixtures/demo: its .skip', async () => {
    expect(await findingsIn(fixtureRepo('demo'))).toEqual([
      "test/findings.test.ts:16:3 no-weakened-frozen-tests frozen test 'parseFindings > keeps the highest severity when a location repeats' is skipped: a frozen test must run as pinned. Fix what makes it fail instead; only its owner (@ilya) unfreezes it.",
    ]);
  });
});

describe('each weakening edit is reported, exactly', () => {
  it('a deleted frozen test', async () => {
    expect(
      await findingsAfter({ file: 'test/ledger.test.ts', from: "  test('ignores an empty ledger', () => {\n    expect(parseLedger('account,cents\\n')).toEqual([]);\n  });\n\n", to: '' }),
    ).toEqual([
      ".tripwire/frozen.json:40:5 no-weakened-frozen-tests frozen test 'test/ledger.test.ts::parseLedger > ignores an empty ledger' no longer exists. Restore it; only its owner (@ledger-owners) unfreezes or renames it, in a change of its own.",
    ]);
  });

  it('a renamed frozen test, with the new id found by its unchanged body', async () => {
    expect(await findingsAfter({ file: 'test/ledger.test.ts', from: "'pads single-digit cents'", to: "'pads cents'" })).toEqual([
      ".tripwire/frozen.json:33:5 no-weakened-frozen-tests frozen test 'test/ledger.test.ts::formatCents > pads single-digit cents' no longer exists: did you mean 'test/ledger.test.ts::formatCents > pads cents'? A test with the same body is declared there. Restore it; only its owner (@reporting) unfreezes or renames it, in a change of its own.",
    ]);
  });

  it('a frozen test moved out of its describe (its id changes)', async () => {
    expect(
      await findingsAfter(
        { file: 'test/ledger.test.ts', from: "\n  test('pads single-digit cents', () => {\n    expect(formatCents(105)).toBe('1.05');\n  });\n", to: '' },
        { file: 'test/ledger.test.ts', from: "describe('formatCents', () => {", to: "test('pads single-digit cents', () => {\n    expect(formatCents(105)).toBe('1.05');\n  });\n\ndescribe('formatCents', () => {" },
      ),
    ).toEqual([
      ".tripwire/frozen.json:33:5 no-weakened-frozen-tests frozen test 'test/ledger.test.ts::formatCents > pads single-digit cents' no longer exists: did you mean 'test/ledger.test.ts::pads single-digit cents'? A test with the same body is declared there. Restore it; only its owner (@reporting) unfreezes or renames it, in a change of its own.",
    ]);
  });

  it('test.skip', async () => {
    expect(await findingsAfter({ file: 'test/ledger.test.ts', from: "test('reads one entry", to: "test.skip('reads one entry" })).toEqual([
      "test/ledger.test.ts:9:3 no-weakened-frozen-tests frozen test 'parseLedger > reads one entry per line after the header' is skipped: a frozen test must run as pinned. Fix what makes it fail instead; only its owner (@ledger-owners) unfreezes it.",
    ]);
  });

  it('xit (jest globals)', async () => {
    expect(await findingsAfter({ file: 'test/balance.spec.js', from: "it('is zero", to: "xit('is zero" })).toEqual([
      "test/balance.spec.js:14:3 no-weakened-frozen-tests frozen test 'balance > is zero for an unknown account' is skipped: a frozen test must run as pinned. Fix what makes it fail instead; only its owner (@ledger-owners) unfreezes it.",
    ]);
  });

  it('test.todo', async () => {
    expect(await findingsAfter({ file: 'test/ledger.test.ts', from: "test('ignores an empty", to: "test.todo('ignores an empty" })).toEqual([
      "test/ledger.test.ts:22:3 no-weakened-frozen-tests frozen test 'parseLedger > ignores an empty ledger' is marked todo: a frozen test must run as pinned. Fix what makes it fail instead; only its owner (@ledger-owners) unfreezes it.",
    ]);
  });

  it('test.failing (bun) is .fails', async () => {
    expect(await findingsAfter({ file: 'test/bun.test.ts', from: "test('reads negative", to: "test.failing('reads negative" })).toEqual([
      "test/bun.test.ts:5:3 no-weakened-frozen-tests frozen test 'parseLedger (bun) > reads negative amounts' is expected to fail (.fails): a frozen test must run as pinned. Fix what makes it fail instead; only its owner (@runtime) unfreezes it.",
    ]);
  });

  it('skipIf(true)', async () => {
    expect(await findingsAfter({ file: 'test/ledger.test.ts', from: "test('pads single-digit", to: "test.skipIf(true)('pads single-digit" })).toEqual([
      "test/ledger.test.ts:41:3 no-weakened-frozen-tests frozen test 'formatCents > pads single-digit cents' is guarded by skipIf: a frozen test must run as pinned. Fix what makes it fail instead; only its owner (@reporting) unfreezes it.",
    ]);
  });

  it("bun's test.if(condition) is runIf", async () => {
    expect(await findingsAfter({ file: 'test/bun.test.ts', from: "test('reads negative", to: "test.if(process.platform === 'linux')('reads negative" })).toEqual([
      "test/bun.test.ts:5:3 no-weakened-frozen-tests frozen test 'parseLedger (bun) > reads negative amounts' is guarded by runIf: a frozen test must run as pinned. Fix what makes it fail instead; only its owner (@runtime) unfreezes it.",
    ]);
  });

  it('.only on a sibling that is not frozen', async () => {
    expect(await findingsAfter({ file: 'test/ledger.test.ts', from: "test('keeps accounts", to: "test.only('keeps accounts" })).toEqual([
      "test/ledger.test.ts:26:3 no-weakened-frozen-tests .only on 'parseLedger > keeps accounts in file order' skips the frozen tests 'formatCents > formats %i as %s', 'formatCents > pads single-digit cents', 'parseLedger > ignores an empty ledger', 'parseLedger > matches the balances oracle', 'parseLedger > reads one entry per line after the header' of this file: remove the .only",
    ]);
  });

  it('one assertion removed', async () => {
    expect(await findingsAfter({ file: 'test/ledger.test.ts', from: "    expect(entries[0]).toEqual({ account: 'cash', cents: 1200 });\n", to: '' })).toEqual([
      "test/ledger.test.ts:9:3 no-weakened-frozen-tests frozen test 'parseLedger > reads one entry per line after the header' was rewritten: its body no longer matches the pinned hash and it has 1 assertion, down from 2. Restore it; only its owner (@ledger-owners) re-pins it, in a change of its own (tripwire freeze refresh).",
    ]);
  });

  it('an expect turned into a no-op (the matcher dropped)', async () => {
    expect(await findingsAfter({ file: 'test/ledger.test.ts', from: "expect(formatCents(105)).toBe('1.05');", to: 'expect(formatCents(105));' })).toEqual([
      "test/ledger.test.ts:41:3 no-weakened-frozen-tests frozen test 'formatCents > pads single-digit cents' was rewritten: its body no longer matches the pinned hash and it has 0 assertions, down from 1. Restore it; only its owner (@reporting) re-pins it, in a change of its own (tripwire freeze refresh).",
    ]);
  });

  it('a body rewritten into a tautology (same number of assertions)', async () => {
    expect(await findingsAfter({ file: 'test/balance.spec.js', from: 'toBe(60)', to: "toBe(balance(entries, 'cash'))" })).toEqual([
      "test/balance.spec.js:5:3 no-weakened-frozen-tests frozen test 'balance > sums one account only' was rewritten: its body no longer matches the pinned hash. Restore it; only its owner (@ledger-owners) re-pins it, in a change of its own (tripwire freeze refresh).",
    ]);
  });

  it('a raised timeout option', async () => {
    expect(await findingsAfter({ file: 'test/ledger.test.ts', from: '{ timeout: 2000 }', to: '{ timeout: 60_000 }' })).toEqual([
      "test/ledger.test.ts:15:3 no-weakened-frozen-tests frozen test 'parseLedger > matches the balances oracle' has a timeout of 60000 ms, raised from the pinned 2000 ms: a longer timeout hides a slower or hanging test",
    ]);
  });

  it("a raised timeout argument (jest's third argument)", async () => {
    expect(await findingsAfter({ file: 'test/balance.spec.js', from: '}, 5000);', to: '}, 30000);' })).toEqual([
      "test/balance.spec.js:5:3 no-weakened-frozen-tests frozen test 'balance > sums one account only' has a timeout of 30000 ms, raised from the pinned 5000 ms: a longer timeout hides a slower or hanging test",
    ]);
  });

  it("a raised mocha this.timeout(n), which is not part of the body's hash", async () => {
    expect(await findingsAfter({ file: 'test/legacy/report.test.ts', from: 'this.timeout(3000);', to: 'this.timeout(30000);' })).toEqual([
      "test/legacy/report.test.ts:5:3 no-weakened-frozen-tests frozen test 'legacy report > prints cents with two digits' has a timeout of 30000 ms, raised from the pinned 3000 ms: a longer timeout hides a slower or hanging test",
    ]);
  });

  it('a timeout it cannot evaluate (fail closed: it cannot be compared with the pin)', async () => {
    expect(await findingsAfter({ file: 'test/ledger.test.ts', from: '{ timeout: 2000 }', to: '{ timeout: slowMachineTimeout() }' })).toEqual([
      "test/ledger.test.ts:15:3 no-weakened-frozen-tests frozen test 'parseLedger > matches the balances oracle' sets a timeout that tripwire cannot evaluate statically: use a number literal or a const, so that the pinned timeout can be compared",
    ]);
  });

  it('a retry option added', async () => {
    expect(await findingsAfter({ file: 'test/ledger.test.ts', from: '{ timeout: 2000 }', to: '{ timeout: 2000, retry: 3 }' })).toEqual([
      "test/ledger.test.ts:15:3 no-weakened-frozen-tests frozen test 'parseLedger > matches the balances oracle' now retries 3 times, and it was pinned without retries: a retry turns a flaky failure green",
    ]);
  });

  it('mocha this.retries(n) added', async () => {
    expect(await findingsAfter({ file: 'test/legacy/report.test.ts', from: 'this.timeout(3000);', to: 'this.timeout(3000);\n    this.retries(2);' })).toEqual([
      "test/legacy/report.test.ts:5:3 no-weakened-frozen-tests frozen test 'legacy report > prints cents with two digits' now retries 2 times, and it was pinned without retries: a retry turns a flaky failure green",
    ]);
  });

  it('a skipped parent describe', async () => {
    expect(await findingsAfter({ file: 'test/legacy/report.test.ts', from: "describe('legacy report'", to: "describe.skip('legacy report'" })).toEqual([
      "test/legacy/report.test.ts:5:3 no-weakened-frozen-tests frozen test 'legacy report > prints cents with two digits' is skipped through its suite 'legacy report': a frozen test must run as pinned. Fix what makes it fail instead; only its owner (@reporting) unfreezes it.",
      "test/legacy/report.test.ts:10:3 no-weakened-frozen-tests frozen test 'legacy report > prints thousands without separators' is skipped through its suite 'legacy report': a frozen test must run as pinned. Fix what makes it fail instead; only its owner (@reporting) unfreezes it.",
    ]);
  });

  it("node:test's { skip: true } option, which also skips its subtests", async () => {
    expect(await findingsAfter({ file: 'test/node/format.test.mjs', from: "test('formats whole amounts', async", to: "test('formats whole amounts', { skip: true }, async" })).toEqual([
      "test/node/format.test.mjs:11:3 no-weakened-frozen-tests frozen test 'formatCents (node:test) > formats whole amounts' is skipped: a frozen test must run as pinned. Fix what makes it fail instead; only its owner (@runtime) unfreezes it.",
      "test/node/format.test.mjs:12:11 no-weakened-frozen-tests frozen test 'formatCents (node:test) > formats whole amounts > one unit' is skipped through its parent test 'formatCents (node:test) > formats whole amounts': a frozen test must run as pinned. Fix what makes it fail instead; only its owner (@runtime) unfreezes it.",
    ]);
  });

  it("node:test's t.skip() at run time", async () => {
    expect(await findingsAfter({ file: 'test/node/format.test.mjs', from: '(t) => {\n    assert.equal(formatCents(-5)', to: '(t) => {\n    t.skip();\n    assert.equal(formatCents(-5)' })).toEqual([
      "test/node/format.test.mjs:6:3 no-weakened-frozen-tests frozen test 'formatCents (node:test) > keeps the sign of a debit' is skipped: a frozen test must run as pinned. Fix what makes it fail instead; only its owner (@runtime) unfreezes it.",
    ]);
  });

  it("mocha's this.skip() at run time", async () => {
    expect(await findingsAfter({ file: 'test/legacy/report.test.ts', from: "separators', function () {\n", to: "separators', function () {\n    this.skip();\n" })).toEqual([
      "test/legacy/report.test.ts:10:3 no-weakened-frozen-tests frozen test 'legacy report > prints thousands without separators' is skipped: a frozen test must run as pinned. Fix what makes it fail instead; only its owner (@reporting) unfreezes it.",
    ]);
  });

  it('one byte of a locked fixture changed', async () => {
    expect(await findingsAfter({ file: 'test/fixtures/ledger.csv', from: 'cash,-450', to: 'cash,-451' })).toEqual([
      'test/fixtures/ledger.csv:1:1 no-weakened-frozen-tests locked file test/fixtures/ledger.csv changed: its SHA-256 no longer matches .tripwire/locks.json. Restore its bytes; an oracle\'s input changes only in a reviewed change of its own (tripwire lock).',
    ]);
  });
});

describe('benign edits are not reported', () => {
  it('reformatting and comments (another formatter, quotes, semicolons, parentheses, trailing commas)', async () => {
    expect(await findingsIn(fixtureRepo('frozen/good', 'frozen/benign/reformatted'))).toEqual([]);
  });

  it('comment changes inside and around frozen tests', async () => {
    expect(
      await findingsAfter(
        { file: 'test/balance.spec.js', from: '// jest globals: describe, it and expect are not imported\n', to: '' },
        { file: 'test/balance.spec.js', from: "    expect(balance([], 'cash')).toBe(0);", to: "    /* no entries at all */\n    expect(balance([], 'cash')).toBe(0); // zero, not NaN" },
      ),
    ).toEqual([]);
  });

  it('reordering the tests of a file', async () => {
    const reads = "  test('reads one entry per line after the header', () => {\n    const entries = parseLedger(readFileSync(FIXTURE, 'utf8'));\n    expect(entries).toHaveLength(3);\n    expect(entries[0]).toEqual({ account: 'cash', cents: 1200 });\n  });\n\n";
    expect(
      await findingsAfter(
        { file: 'test/ledger.test.ts', from: reads, to: '' },
        { file: 'test/ledger.test.ts', from: "  test('keeps accounts in file order'", to: `${reads}  test('keeps accounts in file order'` },
      ),
    ).toEqual([]);
  });

  it('moving a test that is not frozen to another file', async () => {
    const dir = fixtureRepo('frozen/good');
    const keeps = "\n  test('keeps accounts in file order', () => {\n    const entries = parseLedger('account,cents\\ncard,1\\ncash,2');\n    expect(entries.map((entry) => entry.account)).toEqual(['card', 'cash']);\n  });\n";
    apply(dir, [{ file: 'test/ledger.test.ts', from: keeps, to: '' }]);
    writeFileSync(join(dir, 'test/order.test.ts'), `import { expect, test } from 'vitest';\nimport { parseLedger } from '../src/ledger.js';\n${keeps}`);
    expect(await findingsIn(dir)).toEqual([]);
  });

  it('editing, renaming and skipping a test that is not frozen', async () => {
    expect(
      await findingsAfter({
        file: 'test/ledger.test.ts',
        from: "test('keeps accounts in file order', () => {\n    const entries",
        to: "test.skip('keeps the order of accounts', () => {\n    const rows",
      }),
    ).toEqual([]);
  });

  it('adding a test, and lowering a frozen timeout', async () => {
    expect(
      await findingsAfter(
        { file: 'test/bun.test.ts', from: '  });\n});\n', to: "  });\n\n  test('reads an empty ledger', () => {\n    expect(parseLedger('account,cents')).toEqual([]);\n  });\n});\n" },
        { file: 'test/ledger.test.ts', from: '{ timeout: 2000 }', to: '{ timeout: 500 }' },
      ),
    ).toEqual([]);
  });

  it('editing source files and fixtures that are not locked', async () => {
    const dir = fixtureRepo('frozen/good');
    apply(dir, [{ file: 'src/ledger.ts', from: "const sign = cents < 0 ? '-' : '';", to: "const sign = cents < 0 ? '−' : '';" }]);
    writeFileSync(join(dir, 'test/fixtures/extra.csv'), 'account,cents\n');
    expect(await findingsIn(dir)).toEqual([]);
  });
});

describe('bad overlays of fixtures/frozen', () => {
  it('reports a deleted locked file at its lock', async () => {
    expect(await findingsIn(fixtureRepo('frozen/good', 'frozen/bad/deleted-lock'))).toEqual([
      ".tripwire/locks.json:4:5 no-weakened-frozen-tests locked file test/fixtures/balances.json was deleted: a test's oracle or fixture is gone. Restore it; only a reviewed change re-locks a fixture (tripwire lock).",
    ]);
  });

  it('reports a moved test file without --base, with the new id found by body', async () => {
    expect(await findingsIn(fixtureRepo('frozen/good', 'frozen/bad/moved-file'))).toEqual([
      ".tripwire/frozen.json:19:5 no-weakened-frozen-tests frozen test 'test/bun.test.ts::parseLedger (bun) > reads negative amounts' no longer exists: did you mean 'test/runtime/bun.test.ts::parseLedger (bun) > reads negative amounts'? A test with the same body is declared there. Restore it; only its owner (@runtime) unfreezes or renames it, in a change of its own.",
    ]);
  });

  it('refuses an invalid manifest with a ConfigError naming each key path', async () => {
    const error = await check({ cwd: fixtureRepo('frozen/good', 'frozen/bad/invalid-manifest'), cache: false }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConfigError);
    expect(error instanceof ConfigError ? error.message.split('\n') : []).toEqual([
      '.tripwire/frozen.json: tests.test/ledger.test.ts::formatCents > pads single-digit cents.hash: expected "sha256:" and 64 lowercase hex digits',
      '.tripwire/frozen.json: tests.test/ledger.test.ts::formatCents > pads single-digit cents.reason: required (expected string)',
      '.tripwire/frozen.json: tests.test/ledger.test.ts::formatCents > pads single-digit cents.status: expected one of "frozen", "thawed", received "skipped"',
    ]);
  });
});


describe('--base: what a diff approves itself, on real commits', () => {
  /** The good harness committed on main, and a branch to change it on. */
  function branch(): string {
    const dir = fixtureRepo('frozen/good');
    git(dir, 'add', '-A');
    git(dir, 'commit', '-q', '-m', 'frozen harness');
    git(dir, 'checkout', '-q', '-b', 'change');
    return dir;
  }

  async function findingsAgainst(dir: string, base: string): Promise<string[]> {
    const result = await check({ cwd: dir, cache: false, base, rules: ['no-weakened-frozen-tests'] });
    return result.findings.map((f) => `${f.file}:${f.line}:${f.column} ${f.ruleId} ${f.message}`);
  }

  it('a diff that rewrites a frozen test and re-pins it: clean without --base, self-approval with it', async () => {
    const dir = branch();
    apply(dir, [{ file: 'test/balance.spec.js', from: 'toBe(60)', to: "toBe(balance(entries, 'cash'))" }]);
    expect(runCli(['freeze', 'refresh', 'test/balance.spec.js::balance > sums one account only', '--reason', 'simplified'], dir).code).toBe(0);
    git(dir, 'commit', '-q', '-am', 'simplify the balance test');

    expect(await findingsIn(dir)).toEqual([]);
    expect(await findingsAgainst(dir, 'main')).toEqual([
      ".tripwire/frozen.json:11:5 no-weakened-frozen-tests this diff changes the frozen test 'test/balance.spec.js::balance > sums one account only' (body) and also its pin in .tripwire/frozen.json (hash re-pinned): a change cannot approve itself. Revert the manifest edit; only the owner (@ledger-owners) re-pins, thaws or unfreezes a test, in a change of its own.",
    ]);
    const run = runCli(['check', '--base', 'main', '--rule', 'no-weakened-frozen-tests', '--format', 'json'], dir);
    expect(run.code).toBe(1);
    expect(JSON.parse(run.stdout).findings.map((f: { ruleId: string; line: number }) => `${f.ruleId}:${f.line}`)).toEqual(['no-weakened-frozen-tests:11']);
  });

  it('the same edit and re-pin is clean when the owner thawed the test before the diff', async () => {
    const dir = fixtureRepo('frozen/good');
    expect(runCli(['freeze', 'thaw', 'test/balance.spec.js::balance > sums one account only', '--reason', 'the cash fixture is being split'], dir).code).toBe(0);
    git(dir, 'add', '-A');
    git(dir, 'commit', '-q', '-m', 'thaw the balance test');
    git(dir, 'checkout', '-q', '-b', 'change');
    apply(dir, [{ file: 'test/balance.spec.js', from: 'toBe(60)', to: "toBe(balance(entries, 'cash'))" }]);
    expect(await findingsIn(dir)).toEqual([]);
    expect(runCli(['freeze', 'refresh', 'test/balance.spec.js::balance > sums one account only', '--reason', 'simplified'], dir).code).toBe(0);
    git(dir, 'commit', '-q', '-am', 'simplify and re-pin');
    expect(await findingsAgainst(dir, 'main')).toEqual([]);
  });

  it('a diff that deletes a frozen test and its manifest entry', async () => {
    const dir = branch();
    git(dir, 'rm', '-q', 'test/bun.test.ts');
    const manifest = JSON.parse(readFileSync(join(dir, '.tripwire/frozen.json'), 'utf8'));
    delete manifest.tests['test/bun.test.ts::parseLedger (bun) > reads negative amounts'];
    writeFileSync(join(dir, '.tripwire/frozen.json'), `${JSON.stringify(manifest, null, 2)}\n`);
    git(dir, 'commit', '-q', '-am', 'drop the bun test');

    expect(await findingsIn(dir)).toEqual([]);
    expect(await findingsAgainst(dir, 'main')).toEqual([
      ".tripwire/frozen.json:1:1 no-weakened-frozen-tests this diff changes the frozen test 'test/bun.test.ts::parseLedger (bun) > reads negative amounts' (removed) and also its pin in .tripwire/frozen.json (entry removed): a change cannot approve itself. Revert the manifest edit; only the owner (@runtime) re-pins, thaws or unfreezes a test, in a change of its own.",
    ]);
  });

  it('a diff that changes a locked fixture and re-locks it', async () => {
    const dir = branch();
    apply(dir, [{ file: 'test/fixtures/ledger.csv', from: 'cash,-450', to: 'cash,-451' }]);
    expect(runCli(['lock', 'test/fixtures/ledger.csv'], dir).code).toBe(0);
    git(dir, 'commit', '-q', '-am', 'tweak the fixture');

    expect(await findingsIn(dir)).toEqual([]);
    expect(await findingsAgainst(dir, 'main')).toEqual([
      '.tripwire/locks.json:5:5 no-weakened-frozen-tests this diff changes test/fixtures/ledger.csv and also re-locks it in .tripwire/locks.json: a change cannot approve itself. Revert the lock edit; a fixture is re-locked in a reviewed change of its own.',
    ]);
  });

  it('follows a renamed test file through git, to the weakened tests inside it', async () => {
    const dir = branch();
    git(dir, 'mv', 'test/legacy/report.test.ts', 'test/legacy/report-format.test.ts');
    apply(dir, [
      { file: 'test/legacy/report-format.test.ts', from: "it('prints thousands", to: "it.skip('prints thousands" },
      { file: 'test/legacy/report-format.test.ts', from: "to.equal('0.07')", to: "to.be.a('string')" },
    ]);
    git(dir, 'commit', '-q', '-am', 'rename the report test');

    // Without the history only the unchanged body can be found again.
    expect(await findingsIn(dir)).toEqual([
      ".tripwire/frozen.json:62:5 no-weakened-frozen-tests frozen test 'test/legacy/report.test.ts::legacy report > prints cents with two digits' no longer exists. Restore it; only its owner (@reporting) unfreezes or renames it, in a change of its own.",
      ".tripwire/frozen.json:70:5 no-weakened-frozen-tests frozen test 'test/legacy/report.test.ts::legacy report > prints thousands without separators' no longer exists: did you mean 'test/legacy/report-format.test.ts::legacy report > prints thousands without separators'? A test with the same body is declared there. Restore it; only its owner (@reporting) unfreezes or renames it, in a change of its own.",
    ]);
    expect(await findingsAgainst(dir, 'main')).toEqual([
      ".tripwire/frozen.json:62:5 no-weakened-frozen-tests frozen test 'test/legacy/report.test.ts::legacy report > prints cents with two digits' moved with its file (git rename test/legacy/report.test.ts → test/legacy/report-format.test.ts) and the manifest still names the old id: ask its owner (@reporting) to rename the key to 'test/legacy/report-format.test.ts::legacy report > prints cents with two digits'",
      ".tripwire/frozen.json:70:5 no-weakened-frozen-tests frozen test 'test/legacy/report.test.ts::legacy report > prints thousands without separators' moved with its file (git rename test/legacy/report.test.ts → test/legacy/report-format.test.ts) and the manifest still names the old id: ask its owner (@reporting) to rename the key to 'test/legacy/report-format.test.ts::legacy report > prints thousands without separators'",
      "test/legacy/report-format.test.ts:5:3 no-weakened-frozen-tests frozen test 'legacy report > prints cents with two digits' was rewritten: its body no longer matches the pinned hash. Restore it; only its owner (@reporting) re-pins it, in a change of its own (tripwire freeze refresh).",
      "test/legacy/report-format.test.ts:10:3 no-weakened-frozen-tests frozen test 'legacy report > prints thousands without separators' is skipped: a frozen test must run as pinned. Fix what makes it fail instead; only its owner (@reporting) unfreezes it.",
    ]);
  });

  it('a rename with the manifest keys renamed and the bodies unchanged is clean, with and without --base', async () => {
    const dir = branch();
    git(dir, 'mv', 'test/legacy/report.test.ts', 'test/legacy/report-format.test.ts');
    apply(dir, [
      { file: '.tripwire/frozen.json', from: '"test/legacy/report.test.ts::legacy report > prints cents', to: '"test/legacy/report-format.test.ts::legacy report > prints cents' },
      { file: '.tripwire/frozen.json', from: '"test/legacy/report.test.ts::legacy report > prints thousands', to: '"test/legacy/report-format.test.ts::legacy report > prints thousands' },
    ]);
    git(dir, 'commit', '-q', '-am', 'rename the report test and its keys');
    expect(await findingsIn(dir)).toEqual([]);
    expect(await findingsAgainst(dir, 'main')).toEqual([]);
  });

  it('a rename whose key is renamed and whose body is rewritten and re-pinned is a self-approval', async () => {
    const dir = branch();
    git(dir, 'mv', 'test/bun.test.ts', 'test/runtime.test.ts');
    apply(dir, [{ file: 'test/runtime.test.ts', from: "cash,-1')).toEqual", to: "cash,-1')).toMatchObject" }]);
    const manifest = JSON.parse(readFileSync(join(dir, '.tripwire/frozen.json'), 'utf8'));
    manifest.tests['test/runtime.test.ts::parseLedger (bun) > reads negative amounts'] = manifest.tests['test/bun.test.ts::parseLedger (bun) > reads negative amounts'];
    delete manifest.tests['test/bun.test.ts::parseLedger (bun) > reads negative amounts'];
    writeFileSync(join(dir, '.tripwire/frozen.json'), `${JSON.stringify(manifest, null, 2)}\n`);
    expect(runCli(['freeze', 'refresh', 'test/runtime.test.ts::parseLedger (bun) > reads negative amounts', '--reason', 'looser match'], dir).code).toBe(0);
    git(dir, 'add', '-A');
    git(dir, 'commit', '-q', '-m', 'move and loosen');

    expect(await findingsIn(dir)).toEqual([]);
    expect(await findingsAgainst(dir, 'main')).toEqual([
      ".tripwire/frozen.json:92:5 no-weakened-frozen-tests this diff changes the frozen test 'test/runtime.test.ts::parseLedger (bun) > reads negative amounts' (body) and also its pin in .tripwire/frozen.json (hash re-pinned): a change cannot approve itself. Revert the manifest edit; only the owner (@runtime) re-pins, thaws or unfreezes a test, in a change of its own.",
    ]);
  });
});

describe('no-weakened-frozen-tests: the related location of a finding', () => {
  it('a renamed frozen test points at the test with the same body, where it is declared now', async () => {
    const dir = fixtureRepo('frozen/good');
    apply(dir, [{ file: 'test/ledger.test.ts', from: "'pads single-digit cents'", to: "'pads cents'" }]);
    const result = await check({ cwd: dir, cache: false, rules: ['no-weakened-frozen-tests'] });
    expect(result.findings.map((f) => ({ at: `${f.file}:${f.line}:${f.column} ${f.messageId}`, related: f.related }))).toEqual([
      { at: '.tripwire/frozen.json:33:5 frozenTestRemoved', related: [{ file: 'test/ledger.test.ts', line: 41, column: 3, message: 'test/ledger.test.ts::formatCents > pads cents' }] },
    ]);
  });

  it('a deleted frozen test, whose body is nowhere else, has none', async () => {
    const dir = fixtureRepo('frozen/good');
    apply(dir, [{ file: 'test/ledger.test.ts', from: "  test('ignores an empty ledger', () => {\n    expect(parseLedger('account,cents\\n')).toEqual([]);\n  });\n\n", to: '' }]);
    const result = await check({ cwd: dir, cache: false, rules: ['no-weakened-frozen-tests'] });
    expect(result.findings.map((f) => [`${f.file}:${f.line}:${f.column} ${f.messageId}`, Object.hasOwn(f, 'related')])).toEqual([['.tripwire/frozen.json:40:5 frozenTestRemoved', false]]);
  });
});
