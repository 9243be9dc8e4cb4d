import { spawn } from 'node:child_process';
import { appendFileSync, chmodSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { check as checkInProcess } from '../../src/engine/index.js';
import { discoverFiles } from '../../src/repo/files.js';
import { PACKAGE_ROOT } from '../../src/version.js';
import { fixtureRepo } from '../support/fixture-repo.js';
import { CLI_BIN, git, runCli, type CliRun } from '../support/repo.js';

delete process.env.GIT_DIR;
delete process.env.GIT_INDEX_FILE;
delete process.env.GIT_WORK_TREE;

// Issue 16, item 3: what the file system and git can do to a repository between
// two runs (or during one) never crashes a check and never makes it pass in
// silence. Each fault gives the findings of the same repository without it,
// or one finding with its id at the file, or exit 2 with a message.

const temps: string[] = [];
afterAll(() => {
  for (const dir of temps) {
    // A read-only cache directory or an unreadable file would stop the removal.
    chmodTree(dir);
    rmSync(dir, { recursive: true, force: true });
  }
});

function chmodTree(dir: string): void {
  try {
    chmodSync(dir, 0o755);
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      if (entry.isDirectory()) chmodTree(join(dir, entry.name));
      else if (entry.isFile()) chmodSync(join(dir, entry.name), 0o644);
    }
  } catch {
    // Gone already, or a link: nothing to restore.
  }
}

const isRoot = process.getuid?.() === 0;

function demo(): string {
  const dir = fixtureRepo('demo');
  temps.push(dir);
  return dir;
}

function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'tripwire-faults-'));
  temps.push(dir);
  return dir;
}

interface Reported {
  ruleId: string;
  messageId: string;
  file: string;
  line: number;
  column: number;
  message: string;
}

interface Report {
  code: number | null;
  findings: Reported[];
  cached: boolean;
}

/** The exit code and findings of a JSON run; anything but a report on stdout (a crash, a stack) fails here. */
function report(run: CliRun): Report {
  expect(run.stderr).not.toMatch(/internal error|\n\s+at /);
  expect(run.code, run.stderr).not.toBe(2);
  const parsed = JSON.parse(run.stdout) as { findings: Reported[]; summary: { cached?: boolean } };
  return { code: run.code, findings: parsed.findings, cached: parsed.summary.cached === true };
}

function check(dir: string, ...args: string[]): Report {
  return report(runCli(['check', '--format', 'json', ...args], dir));
}

/** The demo's findings without any fault: what every run below is compared with. */
let clean: Reported[] | undefined;
function cleanFindings(): Reported[] {
  clean ??= check(demo(), '--no-cache').findings;
  return clean;
}

function withoutFile(findings: Reported[], file: string): Reported[] {
  return findings.filter((finding) => finding.file !== file);
}

describe('a tracked file deleted from the work tree, listed by git but absent on disk', () => {
  for (const file of ['test/oracle.test.ts', 'test/helpers/judge.ts', 'test/helpers/touchfiles.ts', 'tripwire.config.json']) {
    it(`${file}: the findings of the repository where it was removed with git rm, cold and with a warm cache`, () => {
      const removed = demo();
      git(removed, 'rm', '-q', file);
      const expected = check(removed, '--no-cache');

      const dir = demo();
      const cache = tempDir();
      check(dir, '--cache-location', cache);
      rmSync(join(dir, file));
      expect(check(dir, '--no-cache')).toEqual(expected);
      expect(check(dir, '--cache-location', cache)).toEqual(expected);
      expect(expected.findings.filter((finding) => finding.ruleId === 'read-error')).toEqual([]);
    });
  }
});

describe('a file deleted after the listing was taken, before it was read (the race itself, in process)', () => {
  it('is one read-error at the file, in place of what reading it would have found; every other finding is unchanged', async () => {
    const dir = demo();
    const listing = await discoverFiles(dir);
    expect(listing.files).toContain('test/oracle.test.ts');
    rmSync(join(dir, 'test/oracle.test.ts'));
    const { findings } = await checkInProcess({ cwd: dir, cache: false, listing });
    const shown = findings.map(({ ruleId, messageId, file, line, column, message }) => ({ ruleId, messageId, file, line, column, message }));
    expect(shown.filter((finding) => finding.file === 'test/oracle.test.ts')).toEqual([
      { ruleId: 'read-error', messageId: 'readError', file: 'test/oracle.test.ts', line: 1, column: 1, message: 'cannot read test/oracle.test.ts: ENOENT' },
    ]);
    expect(withoutFile(shown, 'test/oracle.test.ts')).toEqual(
      withoutFile(cleanFindings(), 'test/oracle.test.ts').map(({ ruleId, messageId, file, line, column, message }) => ({ ruleId, messageId, file, line, column, message })),
    );
  });
});

describe('a file tripwire may not read (chmod 000)', () => {
  it.skipIf(isRoot)('is one read-error at the file, in place of what reading it would have found', () => {
    const dir = demo();
    chmodSync(join(dir, 'test/oracle.test.ts'), 0o000);
    const run = check(dir, '--no-cache');
    expect(run.code).toBe(1);
    expect(run.findings.filter((finding) => finding.file === 'test/oracle.test.ts')).toEqual([
      expect.objectContaining({ ruleId: 'read-error', messageId: 'readError', file: 'test/oracle.test.ts', line: 1, message: 'cannot read test/oracle.test.ts: EACCES' }),
    ]);
    expect(withoutFile(run.findings, 'test/oracle.test.ts')).toEqual(withoutFile(cleanFindings(), 'test/oracle.test.ts'));
  });

  it.runIf(isRoot)('as root, which reads it anyway: the same findings as without the fault', () => {
    const dir = demo();
    chmodSync(join(dir, 'test/oracle.test.ts'), 0o000);
    expect(check(dir, '--no-cache')).toEqual({ code: 1, findings: cleanFindings(), cached: false });
  });
});

describe('a tracked symlink loop (a → b, b → a)', () => {
  it('is one unfollowed-symlink finding per link, saying it is a loop; every other finding is unchanged', () => {
    const dir = demo();
    symlinkSync('b', join(dir, 'a'));
    symlinkSync('a', join(dir, 'b'));
    symlinkSync('self.test.ts', join(dir, 'test/self.test.ts'));
    git(dir, 'add', '-A');
    git(dir, 'commit', '-q', '-m', 'loops');
    const run = check(dir, '--no-cache');
    expect(run.code).toBe(1);
    const links = run.findings.filter((finding) => finding.ruleId === 'unfollowed-symlink');
    expect(links.map(({ file, line, message }) => ({ file, line, message }))).toEqual([
      { file: 'a', line: 1, message: 'symlink loop, not followed: a → b leads back to itself, so nothing was checked there. Fix or remove the link.' },
      { file: 'b', line: 1, message: 'symlink loop, not followed: b → a leads back to itself, so nothing was checked there. Fix or remove the link.' },
      {
        file: 'test/self.test.ts',
        line: 1,
        message: 'symlink loop, not followed: test/self.test.ts → self.test.ts leads back to itself, so nothing was checked there. Fix or remove the link.',
      },
    ]);
    expect(run.findings.filter((finding) => finding.ruleId !== 'unfollowed-symlink')).toEqual(cleanFindings());
  });
});

describe('file names with a space, a newline, non-ASCII letters and a leading dash', () => {
  const PAID_TEST = [
    "import { test } from 'vitest';",
    "import Anthropic from '@anthropic-ai/sdk';",
    '',
    "test('asks the model', async () => {",
    "  await new Anthropic().messages.create({ model: 'm', max_tokens: 1, messages: [] });",
    '});',
    '',
  ].join('\n');
  const names = ['test/with space.test.ts', 'test/new\nline.test.ts', 'test/tést ü.test.ts', 'test/-x.test.ts'];

  function named(): string {
    const dir = demo();
    for (const name of names) writeFileSync(join(dir, name), PAID_TEST);
    git(dir, 'add', '-A');
    git(dir, 'commit', '-q', '-m', 'odd names');
    return dir;
  }

  it('each free test holding a paid call is reported at its exact path, by a whole check', () => {
    const run = check(named(), '--no-cache');
    expect(run.code).toBe(1);
    const odd = run.findings.filter((finding) => names.includes(finding.file));
    expect(odd.map(({ ruleId, messageId, file, line, column }) => ({ ruleId, messageId, file, line, column }))).toEqual(
      [...names].sort().map((file) => ({ ruleId: 'no-paid-calls-in-free-tests', messageId: 'paidImport', file, line: 2, column: 1 })),
    );
    expect(run.findings.filter((finding) => !names.includes(finding.file))).toEqual(cleanFindings());
  });

  it('each is reported at its exact path when it is the path argument (after --, for the dash)', () => {
    const dir = named();
    for (const name of names) {
      const run = check(dir, '--no-cache', '--', name);
      expect(run.code).toBe(1);
      expect(run.findings.map(({ ruleId, file, line }) => ({ ruleId, file, line }))).toEqual([{ ruleId: 'no-paid-calls-in-free-tests', file: name, line: 2 }]);
    }
  });
});

describe('the cache files damaged between two runs (--cache-location)', () => {
  const damages: [string, (file: string) => void][] = [
    ['overwritten with other bytes', (file) => writeFileSync(file, '{"not": "a cache", ')],
    ['cut to half its length', (file) => truncateSync(file, Math.floor(readFileSync(file).length / 2))],
    ['emptied', (file) => truncateSync(file, 0)],
  ];
  for (const [name, damage] of damages) {
    it(`every file ${name}: the same findings, the cache rewritten and used by the next run`, () => {
      const dir = demo();
      const cache = tempDir();
      expect(check(dir, '--cache-location', cache)).toEqual({ code: 1, findings: cleanFindings(), cached: false });
      const files = readdirSync(cache).sort();
      // Each fact table beside its note of the very file written (facts/cache.ts, openTable).
      const kind = (file: string): string => {
        const note = file.endsWith('.verified');
        return `${(note ? file.slice(0, -'.verified'.length) : file).replace(/^(\w+)-.*?(\.table-\w+)?\.(\w+)$/, '$1$2.$3').replace(/table-\w+/, 'table')}${note ? '.verified' : ''}`;
      };
      const tables = files.filter((file) => /\.table-\w+\.json$/.test(file));
      expect(files.map(kind)).toEqual(['facts.facts', ...tables.flatMap(() => ['facts.table.json', 'facts.table.json.verified']), 'results.json', ...files.filter((file) => file.startsWith('verdicts-')).map(() => 'verdicts.json')]);
      expect(tables.length).toBeGreaterThan(0);
      // The rule verdicts of the run's state, and the unit verdicts of each of the four rules that keep them.
      expect(files.filter((file) => file.startsWith('verdicts-')).map((file) => file.includes('.units-'))).toEqual([false, true, true, true, true]);
      const written = new Map(files.map((file) => [file, readFileSync(join(cache, file))]));
      for (const file of files) damage(join(cache, file));
      const damaged = new Map(files.map((file) => [file, readFileSync(join(cache, file))]));

      expect(check(dir, '--cache-location', cache)).toEqual({ code: 1, findings: cleanFindings(), cached: false });
      for (const file of files) expect(readFileSync(join(cache, file)).equals(damaged.get(file) ?? Buffer.alloc(0)), file).toBe(false);
      // The facts are those of the same files, so the rewritten fact file is the first run's, byte for byte.
      const facts = files[0] ?? '';
      expect(readFileSync(join(cache, facts)).equals(written.get(facts) ?? Buffer.alloc(0))).toBe(true);
      expect(check(dir, '--cache-location', cache)).toEqual({ code: 1, findings: cleanFindings(), cached: true });
    });
  }

  it('a fact log cut mid-line: the same findings after the next edit', () => {
    const dir = demo();
    const cache = tempDir();
    check(dir, '--cache-location', cache);
    // An edit that keeps the findings: the run appends the edited file's facts to the log.
    appendFileSync(join(dir, 'src/cli.ts'), '// one more line\n');
    const edited = check(dir, '--no-cache');
    expect(check(dir, '--cache-location', cache)).toEqual(edited);
    const log = readdirSync(cache).find((file) => file.endsWith('.log'));
    expect(log).toBeDefined();
    const logFile = join(cache, log ?? '');
    truncateSync(logFile, readFileSync(logFile).length - 10);
    appendFileSync(join(dir, 'src/cli.ts'), '// and another\n');
    expect(check(dir, '--cache-location', cache)).toEqual(check(dir, '--no-cache'));
  });
});

describe('a read-only cache directory (chmod 555 after a run)', () => {
  function readOnlyRun(): { run: Report; expected: Report; before: string[]; after: string[] } {
    const dir = demo();
    const cache = tempDir();
    check(dir, '--cache-location', cache);
    chmodSync(cache, 0o555);
    const before = readdirSync(cache).sort();
    // An edit, so that the run has something to write.
    appendFileSync(join(dir, 'src/cli.ts'), '// one more line\n');
    const expected = check(dir, '--no-cache');
    const run = check(dir, '--cache-location', cache);
    return { run, expected, before, after: readdirSync(cache).sort() };
  }

  it.skipIf(isRoot)('a run still succeeds with the same findings, and writes nothing there', () => {
    const { run, expected, before, after } = readOnlyRun();
    expect(run).toEqual(expected);
    expect(after).toEqual(before);
  });

  it.runIf(isRoot)('as root, who writes there anyway: the same findings, and the cache is written', () => {
    const { run, expected, before, after } = readOnlyRun();
    expect(run).toEqual(expected);
    // The edited file's facts, and the parts of them kept in tables, are appended to logs.
    const added = after.filter((file) => !before.includes(file));
    expect(added).toContainEqual(expect.stringMatching(/^facts-[^/]*\.log$/));
    expect(added.every((file) => /^facts-.*\.log$/.test(file))).toBe(true);
  });
});

interface AsyncRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** `runCli`, without waiting: two of these at once race on one repository and one cache. */
function spawnCli(args: string[], cwd: string): Promise<AsyncRun> {
  const env: NodeJS.ProcessEnv = { ...process.env, NO_COLOR: '1' };
  delete env.FORCE_COLOR;
  const child = spawn(process.execPath, [join(PACKAGE_ROOT, CLI_BIN), ...args], { cwd, env });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

describe('two checks at once on one repository and one cache', () => {
  it('20 rounds, each after an edit: both give the same findings every time, and the cache still works afterwards', async () => {
    const dir = demo();
    const cache = tempDir();
    const args = ['check', '--format', 'json', '--cache-location', cache];
    for (let round = 1; round <= 20; round++) {
      // A new edit each round: both runs start on inputs no run has seen and write facts at the same time.
      appendFileSync(join(dir, 'src/cli.ts'), `// round ${round}\n`);
      const [first, second] = (await Promise.all([spawnCli(args, dir), spawnCli(args, dir)])).map(report);
      expect({ round, code: first?.code, findings: first?.findings }).toEqual({ round, code: 1, findings: cleanFindings() });
      expect({ round, code: second?.code, findings: second?.findings }).toEqual({ round, code: 1, findings: cleanFindings() });
      // On a loaded machine one run can finish before the other reads the result cache, and take its verdict: never both.
      expect({ round, cached: [first?.cached, second?.cached] }).not.toEqual({ round, cached: [true, true] });
    }
    expect(check(dir, '--cache-location', cache)).toEqual({ code: 1, findings: cleanFindings(), cached: true });
    appendFileSync(join(dir, 'src/cli.ts'), '// after the race\n');
    expect(check(dir, '--cache-location', cache)).toEqual({ code: 1, findings: cleanFindings(), cached: false });
  }, 300_000);
});

describe('where git keeps HEAD elsewhere', () => {
  it('a linked worktree (git worktree add): the same findings', () => {
    const dir = demo();
    const linked = join(tempDir(), 'linked');
    git(dir, 'worktree', 'add', '-q', linked);
    expect(check(linked, '--no-cache')).toEqual({ code: 1, findings: cleanFindings(), cached: false });
    const cache = tempDir();
    expect(check(linked, '--cache-location', cache)).toEqual({ code: 1, findings: cleanFindings(), cached: false });
    expect(check(linked, '--cache-location', cache)).toEqual({ code: 1, findings: cleanFindings(), cached: true });
  });

  it('a detached HEAD: the same findings, in the main worktree and in a detached linked one', () => {
    const dir = demo();
    git(dir, 'checkout', '-q', '--detach', 'HEAD');
    expect(check(dir, '--no-cache')).toEqual({ code: 1, findings: cleanFindings(), cached: false });
    const linked = join(tempDir(), 'detached');
    git(dir, 'worktree', 'add', '-q', '--detach', linked, 'HEAD');
    expect(check(linked, '--no-cache')).toEqual({ code: 1, findings: cleanFindings(), cached: false });
  });
});
