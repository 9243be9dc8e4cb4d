import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'jsonc-parser';
import { describe, expect, it } from 'vitest';
import { check } from '../../src/engine/index.js';
import { fixtureRepo } from '../support/overlay.js';
import { git, makeGitRepo, runCli, writeFiles } from '../support/repo.js';

/** Every finding under every rule, so that a case proves it breaks exactly one thing. */
async function findings(dir: string, base?: string, rules?: string[]): Promise<string[]> {
  const result = await check({ cwd: dir, cache: false, ...(base !== undefined && { base }), ...(rules && { rules }) });
  return result.findings.map((f) => `${f.file}:${f.line}:${f.column} ${f.ruleId === 'no-dangling-references' ? '' : `[${f.ruleId}] `}${f.message}`);
}

type Config = { shipped?: Record<string, unknown>; removed?: Record<string, unknown>[] } & Record<string, unknown>;

function configure(dir: string, change: (config: Config) => Config): void {
  const path = join(dir, 'tripwire.config.json');
  writeFileSync(path, JSON.stringify(change(parse(readFileSync(path, 'utf8')))));
}

/** The good catalog committed on main, then a feature branch. */
function catalogOnBranch(): string {
  const dir = fixtureRepo('shipped/good');
  git(dir, 'add', '-A');
  git(dir, 'commit', '-q', '-m', 'catalog');
  git(dir, 'checkout', '-q', '-b', 'feature');
  return dir;
}

function commit(dir: string, message: string): void {
  git(dir, 'add', '-A');
  git(dir, 'commit', '-q', '-m', message);
}

const SKILL = 'skills/checking-merge-readiness/SKILL.md';

describe('no-dangling-references on fixtures/shipped (a skills catalog)', () => {
  it('finds nothing in the good catalog: links, anchors and helper paths exist, history and the config may name removed tokens', async () => {
    expect(await findings(fixtureRepo('shipped/good'))).toEqual([]);
  });

  it('reports a link to a deleted reference file', async () => {
    expect(await findings(fixtureRepo('shipped/good', 'shipped/bad/deleted-reference'))).toEqual([
      `${SKILL}:38:16 names references/outcomes.md, which does not exist: a reader told to use it finds nothing. Fix the path or remove the reference.`,
    ]);
  });

  it('reports an anchor to a renamed heading, with the heading it became', async () => {
    expect(await findings(fixtureRepo('shipped/good', 'shipped/bad/renamed-heading'))).toEqual([
      `${SKILL}:36:43 links to #severity-levels in skills/checking-merge-readiness/references/grading.md, which has no such heading (did you mean #severity-tiers?): the heading was renamed or removed. Update the anchor.`,
    ]);
  });

  it("reports a removed mechanism's token left in a completion-criteria list, quoting why it was removed", async () => {
    expect(await findings(fixtureRepo('shipped/good', 'shipped/bad/removed-token-in-criteria'))).toEqual([
      `${SKILL}:57:72 'stipulated by the harness' belongs to the removed mechanism 'harness-stipulation': No claim that the data was already fetched substitutes for fetching it; the skill always fetches, and degrades when it cannot. This reference outlived it; delete it, or list this file in the entry's allow globs.`,
    ]);
  });

  it(
    'reports each of 50,000 removed tokens where it is named, and not a longer word that contains one (one matcher per file, not lines × tokens)',
    () => {
      // The scan per token ran past two minutes here. The kill is only a safety net for that code:
      // what the test asserts is the findings.
      const removed = Array.from({ length: 50_000 }, (_, index) => ({ id: `retired-${index}`, tokens: [`RETIRED_FLAG_${index}`], why: 'The flag is gone.' }));
      const files: Record<string, string> = { 'tripwire.config.json': JSON.stringify({ removed }) };
      for (let i = 0; i < 40; i++) {
        files[`docs/guide-${i}.md`] = `# Guide\n\n${'Run the suite before you merge.\n'.repeat(2000)}Set RETIRED_FLAG_${i * 1250}, not RETIRED_FLAG_${i * 1250}x or MY-RETIRED_FLAG_${i} or RETIRED_FLAG_99999.\n`;
      }
      const run = runCli(['check', '--no-cache', '--format', 'json'], makeGitRepo(files), {}, { killAfterMs: 100_000 });
      const reported: { file: string; line: number; column: number; messageId: string }[] = JSON.parse(run.stdout || '{"findings":[]}').findings;
      const expected = Array.from({ length: 40 }, (_, i) => `docs/guide-${i}.md:2003:5 removedToken`).sort();
      expect(reported.map((f) => `${f.file}:${f.line}:${f.column} ${f.messageId}`).sort()).toEqual(expected);
    },
    150_000,
  );

  it('lets a removed token stay where the entry allows it', async () => {
    const dir = fixtureRepo('shipped/good', 'shipped/bad/removed-token-in-criteria');
    configure(dir, (config) => ({ ...config, removed: (config.removed ?? []).map((entry) => ({ ...entry, allow: ['skills/*/SKILL.md'] })) }));
    expect(await findings(dir)).toEqual([]);
  });

  it('reports a removed token named many times in one file once, at its first place, with the count; a warning unless the preset is strict', async () => {
    const files = {
      'tripwire.config.json': JSON.stringify({ removed: [{ id: 'assume-fetched', tokens: ['ASSUME_FETCHED'], why: 'The skill always fetches the change itself.' }] }),
      'docs/guide.md': '# Guide\n\nSet ASSUME_FETCHED to skip the fetch.\n\nWith ASSUME_FETCHED the skill trusts the caller.\n\nNever combine ASSUME_FETCHED with a fork.\n',
      'docs/faq.md': '# FAQ\n\nWhat was ASSUME_FETCHED for?\n',
    };
    const result = await check({ cwd: makeGitRepo(files), cache: false });
    expect(result.findings.map((f) => `${f.file}:${f.line}:${f.column} ${f.messageId} ${f.severity} ${f.message.slice(f.message.indexOf('globs.') + 'globs.'.length)}`)).toEqual([
      'docs/faq.md:3:10 removedToken warn ',
      'docs/guide.md:3:5 removedToken warn  Named 3 times in this file; this is the first.',
    ]);
    const strict = await check({ cwd: makeGitRepo({ ...files, 'tripwire.config.json': JSON.stringify({ ...JSON.parse(files['tripwire.config.json']), preset: 'strict' }) }), cache: false });
    expect(strict.findings.map((f) => `${f.file}:${f.line} ${f.severity}`)).toEqual(['docs/faq.md:3 error', 'docs/guide.md:3 error']);
  });

  it('reports a stub that reads an env var whose case is gone', async () => {
    expect(await findings(fixtureRepo('shipped/good', 'shipped/bad/stub-reads-unset-env'))).toEqual([
      'tests/checking-merge-readiness/fixtures/bin/gh:25:43 this stub reads CMR_ALLOW_MERGE, but nothing else in the repository sets or names it any more: the case that set it is gone. Remove the read and the behaviour behind it, or restore the case.',
    ]);
  });

  it('reports a runner that sets a variable of the stubs family that nothing reads', async () => {
    expect(await findings(fixtureRepo('shipped/good', 'shipped/bad/runner-sets-unread-env'))).toEqual([
      'tests/checking-merge-readiness/cases/merge-digest.test.ts:12:106 sets CMR_TRACE_DIR for the stubs, but no stub or other file reads it any more: the seam it configured is gone. Remove the assignment.',
    ]);
  });

  it('reports no leftover seam with the option seams: false, and still reports the rest', async () => {
    const dir = fixtureRepo('shipped/good', 'shipped/bad/stub-reads-unset-env');
    rmSync(join(dir, 'skills/checking-merge-readiness/references/outcomes.md'));
    configure(dir, (config) => ({ ...config, rules: { 'no-dangling-references': ['error', { seams: false }] } }));
    expect(await findings(dir)).toEqual([
      `${SKILL}:38:16 names references/outcomes.md, which does not exist: a reader told to use it finds nothing. Fix the path or remove the reference.`,
    ]);
  });

  it('checks the paths of a fenced example once it is no longer marked illustrative', async () => {
    const dir = fixtureRepo('shipped/good');
    configure(dir, (config) => ({ ...config, shipped: { ...config.shipped, illustrative: ['illustrative'] } }));
    expect((await findings(dir)).map((line) => line.slice(0, line.indexOf(' ')))).toEqual([`${SKILL}:51:1`, `${SKILL}:52:1`]);
  });

  it('leaves slashed words that are not repository paths alone', async () => {
    const dir = makeGitRepo({
      'tripwire.config.json': JSON.stringify({ shipped: { include: ['skills/**/SKILL.md'] } }),
      'src/app.ts': 'export const app = 1;\n',
      'skills/ship/SKILL.md': [
        '# Ship',
        '',
        'Push to `origin/main` for `owner/repo`, send `application/json`, compare with `HEAD~1`, read `~/.config/gh/hosts.yml`,',
        'run `/usr/bin/env node`, see <https://example.com/a/b> and [the docs](https://docs.example.com/x/y), use `Bash(git diff:*)`,',
        'write `src/<name>.ts` or `{skill}/SKILL.md`, and use `$HOME/bin/tool` and/or `${XDG_CONFIG_HOME}/gh`. Edit `src/app.ts`.',
        '',
        '```diff',
        '--- a/src/removed.ts',
        '+++ b/src/added.ts',
        '```',
        '',
      ].join('\n'),
    });
    expect(await findings(dir)).toEqual([]);
  });

  it("leaves locations in the user's project, placeholders, site routes (root-absolute, or any extensionless link of an MDX page) and code run from the user's directory alone", async () => {
    const dir = makeGitRepo({
      'tripwire.config.json': JSON.stringify({ shipped: { include: ['skills/**', 'docs/guide.md', 'docs/site/**'] } }),
      'docs/site/01-overview.mdx': 'Start with [generating text](./generating-text) and the [example](/examples/next-app/tools).\n',
      'examples/next-app/page.ts': 'export const page = 1;\n',
      'skills/plan/SKILL.md': [
        '# Plan',
        '',
        'Save the plan to `docs/plans/<date>-<topic>.md`, then to `notes/plans/2026-01-01-topic.md` in your project.',
        'Work in `.claude/worktrees/feature/` and write results under `out/report.json`.',
        'Never open `../../../etc/passwd`. Run `./setup` from where the skill is installed.',
        'See [providers](/providers/openai) on the site, and `review/diff` or `VERSION/CHANGELOG`.',
        '',
        '```sh',
        'cat ./build/summary.md ../shared/notes.md skills/plan/notes.md',
        '```',
        '',
      ].join('\n'),
      'skills/plan/run.sh': '#!/bin/sh\n# writes reports/latest/summary.md\ncat skills/plan/state.md\n',
      'skills/plan/plugin.json': '{ "skills": ["skills/plan/SKILL.md"] }\n',
      'skills/plan/scaffold.ts': "export const files = { 'skills/app/index.js': 'x' };\n",
      'docs/guide.md': 'Paths in a guide: `src/lib/gone.md` is not shipped here.\n',
      'src/lib/index.ts': 'export const x = 1;\n',
    });
    expect(await findings(dir)).toEqual([]);
  });

  it('still reports a path into a shipped directory (in prose or a manifest), a relative path beside the file, and a root link into a shipped directory, when they are gone', async () => {
    const dir = makeGitRepo({
      'tripwire.config.json': JSON.stringify({ shipped: { include: ['skills/**', 'docs/site/**'] } }),
      'docs/site/01-overview.mdx': 'Start with [generating text](./05-generating-text.mdx).\n',
      'skills/plan/SKILL.md': [
        '# Plan',
        '',
        'Follow `skills/review/SKILL.md`, then read `./checklist.md` and the [root notes](/skills/NOTES.md).',
        '',
      ].join('\n'),
      'skills/plan/template.md': 'A template.\n',
      'skills/plan/plugin.json': '{ "skills": ["skills/gone/SKILL.md"] }\n',
    });
    expect((await findings(dir)).map((line) => line.slice(0, line.indexOf(',')))).toEqual([
      'docs/site/01-overview.mdx:1:30 names ./05-generating-text.mdx',
      'skills/plan/SKILL.md:3:9 names skills/review/SKILL.md',
      'skills/plan/SKILL.md:3:45 names ./checklist.md',
      'skills/plan/SKILL.md:3:82 names /skills/NOTES.md',
      'skills/plan/plugin.json:1:15 names skills/gone/SKILL.md',
    ]);
  });

  it('reports configuration globs that match nothing', async () => {
    const dir = fixtureRepo('shipped/good');
    configure(dir, (config) => ({ ...config, shipped: { ...config.shipped, exclude: ['skills/legacy/**'], allow: [{ token: 'X', files: ['skills/gone/SKILL.md'], reason: 'r' }] } }));
    expect((await findings(dir)).map((line) => line.replace(/^(\S+) glob '([^']+)' matches no file.*?: ([^.]*)\..*$/, '$1 $2: $3'))).toEqual([
      'tripwire.config.json:1:190 skills/legacy/**: it excludes nothing from the shipped artifacts',
      'tripwire.config.json:1:241 skills/gone/SKILL.md: the exception it scopes applies nowhere',
    ]);
  });
});

describe('no-dangling-references: the configuration it reads', () => {
  it('reads the globs of a configuration in package.json: a negated or live glob is not dead, an illustrative word without a slash is not a glob; a dead exclude, illustrative glob or removed allow is reported over the whole string', async () => {
    const dir = makeGitRepo({
      'package.json': JSON.stringify({
        name: 'catalog',
        tripwire: {
          tests: { include: ['tests/**/*.test.ts'] },
          shipped: { include: ['docs/**/*.md'], exclude: ['!docs/keep.md', 'docs/drafts/**', 'gone/**'], illustrative: ['example', 'docs/old/*.md'] },
          removed: [{ id: 'legacy-mode', tokens: ['LEGACY_MODE'], why: 'Replaced by modes.', allow: ['old/**'] }],
        },
      }),
      'docs/guide.md': '# Guide\n\nRead the guide.\n',
      'docs/drafts/next.md': '# Next\n',
      'tests/a.test.ts': "import { test } from 'vitest';\ntest('a', () => {});\n",
    });
    const result = await check({ cwd: dir, cache: false, rules: ['no-dangling-references'] });
    expect(result.findings.map((f) => `${f.file}:${f.line}:${f.column}-${f.endLine ?? ''}:${f.endColumn ?? ''} ${f.messageId} ${f.message}`)).toEqual([
      "package.json:1:156-1:165 deadGlob glob 'gone/**' matches no file: it excludes nothing from the shipped artifacts. Fix the path, or declare generated paths in maps.generated.",
      "package.json:1:193-1:208 deadGlob glob 'docs/old/*.md' matches no file: no file is marked illustrative by it. Fix the path, or declare generated paths in maps.generated.",
      "package.json:1:303-1:311 deadGlob glob 'old/**' matches no file: it allows the removed tokens nowhere. Fix the path, or declare generated paths in maps.generated.",
    ]);
  });

  it('quotes why a mechanism was removed with one closing period, names the first entry that lists a token, and reports each token of a file', async () => {
    const dir = makeGitRepo({
      'tripwire.config.json': JSON.stringify({
        tests: { include: ['tests/**/*.test.ts'] },
        removed: [
          { id: 'legacy-mode', tokens: ['LEGACY_MODE', 'OLD_CACHE'], why: 'Replaced by modes in v2. It is gone ' },
          { id: 'old-cache', tokens: ['OLD_CACHE'], why: 'The cache moved!' },
        ],
      }),
      'README.md': '# Catalog\n\nSet LEGACY_MODE and OLD_CACHE to run the old way.\n',
      'tests/a.test.ts': "import { test } from 'vitest';\ntest('a', () => {});\n",
    });
    expect(await findings(dir, undefined, ['no-dangling-references'])).toEqual([
      "README.md:3:5 'LEGACY_MODE' belongs to the removed mechanism 'legacy-mode': Replaced by modes in v2. It is gone. This reference outlived it; delete it, or list this file in the entry's allow globs.",
      "README.md:3:21 'OLD_CACHE' belongs to the removed mechanism 'legacy-mode': Replaced by modes in v2. It is gone. This reference outlived it; delete it, or list this file in the entry's allow globs.",
    ]);
  });
});

describe('no-dangling-references: leftover test seams', () => {
  it('reports a stub read of a family variable nothing sets, once per file, and a family variable a test sets that nothing reads; not a variable the stub sets itself, one a test sets for it, a key, an ambient variable, or another family', async () => {
    const dir = makeGitRepo({
      'tripwire.config.json': JSON.stringify({ tests: { include: ['tests/**/*.test.ts'] }, shipped: { include: ['src/**/*.ts'] } }),
      'src/tool.ts': 'export const tool = 1;\n',
      'tests/fixtures/bin/tool':
        '#!/usr/bin/env python3\nimport os\n\nmode = os.environ.get("ACME_MODE")\nagain = os.environ.get("ACME_MODE")\nlevel = os.environ.get("ACME_LEVEL")\nos.environ["ACME_SELF"] = "1"\nself_set = os.environ.get("ACME_SELF")\nhome = os.environ.get("HOME")\nkey = os.environ.get("OPENAI_API_KEY")\n',
      'tests/tool.test.ts':
        "import { spawnSync } from 'node:child_process';\nimport { test } from 'vitest';\ntest('runs the tool', () => {\n  spawnSync('tool', [], { env: { ...process.env, ACME_LEVEL: '1', ACME_TRACE: '/tmp/trace', OTHER_FLAG: '1', ACMX_DEBUG: '1' } });\n});\n",
    });
    const result = await check({ cwd: dir, cache: false, rules: ['no-dangling-references'] });
    expect(result.findings.map((f) => `${f.file}:${f.line}:${f.column} ${f.messageId}`)).toEqual(['tests/fixtures/bin/tool:4:24 staleStubRead', 'tests/tool.test.ts:4:67 staleSeamSet']);
  });
});

describe('no-dangling-references --base: the fix for a renamed path', () => {
  it('replaces a string literal of code that is the old path exactly, keeping its quotes; no fix for a deleted file, a path written another way, or a link in Markdown', async () => {
    const dir = makeGitRepo({
      'tripwire.config.json': JSON.stringify({ shipped: { include: ['src/**/*.ts', 'docs/**/*.md'] } }),
      'scripts/build.sh': '#!/bin/sh\necho build\n',
      'scripts/lint.sh': '#!/bin/sh\necho lint\n',
      'src/run.ts':
        "import { execFileSync } from 'node:child_process';\n\nexport const build = () => execFileSync('sh', ['scripts/build.sh']);\nexport const again = () => execFileSync('sh', ['./scripts/build.sh']);\nexport const lint = () => execFileSync('sh', ['scripts/lint.sh']);\n",
      'docs/guide.md': '# Guide\n\nRun [the build](../scripts/build.sh).\n',
    });
    git(dir, 'mv', 'scripts/build.sh', 'scripts/build-all.sh');
    git(dir, 'rm', '-q', 'scripts/lint.sh');
    commit(dir, 'rename the build, delete the lint');
    const result = await check({ cwd: dir, cache: false, base: 'HEAD~1', rules: ['no-dangling-references'] });
    expect(result.findings.map((f) => ({ at: `${f.file}:${f.line}:${f.column} ${f.messageId}`, ...(f.fix && { fix: f.fix }) }))).toEqual([
      { at: 'docs/guide.md:3:17 removedFileReference' },
      {
        at: 'src/run.ts:3:48 removedFileReference',
        fix: {
          messageId: 'replaceRenamedPath',
          description: "replace 'scripts/build.sh' by 'scripts/build-all.sh', the name git gives it since the merge base",
          edits: [{ file: 'src/run.ts', range: [99, 117], text: "'scripts/build-all.sh'" }],
        },
      },
      { at: 'src/run.ts:4:59 removedFileMention' },
      { at: 'src/run.ts:5:47 removedFileReference' },
    ]);
  });
});

describe('no-dangling-references --base: what the diff removed, still named', () => {
  it('reports a doc that still names a helper the diff deleted, at the surviving reference (real commits)', async () => {
    const dir = catalogOnBranch();
    rmSync(join(dir, 'skills/checking-merge-readiness/scripts/fetch-pr.sh'));
    commit(dir, 'drop the fetch helper');
    const lines = await findings(dir, 'main');
    const base = git(dir, 'merge-base', 'main', 'HEAD').trim().slice(0, 12);
    expect(lines).toEqual([`${SKILL}:28:2 names scripts/fetch-pr.sh (skills/checking-merge-readiness/scripts/fetch-pr.sh), which the diff since ${base} deleted: update or remove the reference.`]);
    // Without --base the same reference is still dangling, for a plainer reason.
    expect(await findings(dir)).toEqual([`${SKILL}:28:2 names scripts/fetch-pr.sh, which does not exist: a reader told to use it finds nothing. Fix the path or remove the reference.`]);
  });

  it('reports a renamed helper at its reference, naming the new path', async () => {
    const dir = catalogOnBranch();
    git(dir, 'mv', 'skills/checking-merge-readiness/scripts/summarize.py', 'skills/checking-merge-readiness/scripts/summarise.py');
    commit(dir, 'rename');
    const lines = await findings(dir, 'main');
    expect(lines.map((line) => line.replace(/since \w+/, 'since BASE'))).toEqual([
      `${SKILL}:37:24 names scripts/summarize.py (skills/checking-merge-readiness/scripts/summarize.py), which the diff since BASE renamed to skills/checking-merge-readiness/scripts/summarise.py: update the reference.`,
    ]);
  });

  it('reports a removed export, a removed CLI flag and an env var nothing reads any more, where they are still named', async () => {
    const dir = makeGitRepo({
      'tripwire.config.json': JSON.stringify({ tests: { include: ['test/**/*.test.ts'] }, shipped: { include: ['docs/**/*.md', 'src/**/*.ts'] } }),
      // `digest`, as the docs run it, is this CLI: its bin, built from src/cli.ts.
      'package.json': JSON.stringify({ name: 'digest-tools', bin: { digest: 'dist/cli.js' } }),
      'src/cli.ts': `import { parseArgs } from 'node:util';\nimport { digest } from './digest.js';\nconst { values } = parseArgs({ options: { pr: { type: 'string' }, json: { type: 'boolean' } } });\nconsole.log(digest(values.pr ?? ''), values.json, process.env.DIGEST_TRACE);\n`,
      'src/digest.ts': `export function digest(pr: string) {\n  return pr;\n}\nexport function legacyDigest(pr: string) {\n  return pr;\n}\n`,
      'src/report.ts': `import { legacyDigest } from './digest.js';\nexport const report = legacyDigest('1');\n`,
      'docs/usage.md': '# Usage\n\nRun `digest --pr 7 --json`, or call `legacyDigest()`.\nSet `DIGEST_TRACE=1` to trace.\n',
      'test/cli.test.ts': `import { test } from 'vitest';\ntest('x', () => {\n  process.env.DIGEST_TRACE = '1';\n});\n`,
    });
    git(dir, 'checkout', '-q', '-b', 'feature');
    writeFiles(dir, {
      'src/cli.ts': `import { parseArgs } from 'node:util';\nimport { digest } from './digest.js';\nconst { values } = parseArgs({ options: { pr: { type: 'string' } } });\nconsole.log(digest(values.pr ?? ''));\n`,
      'src/digest.ts': `export function digest(pr: string) {\n  return pr;\n}\n`,
    });
    commit(dir, 'simplify the cli');
    // no-test-carve-outs also reports docs/usage.md:4: only a test names DIGEST_TRACE now.
    const lines = (await findings(dir, 'main', ['no-dangling-references'])).map((line) => line.replace(/since \w+/, 'since BASE'));
    expect(lines).toEqual([
      'docs/usage.md:3:20 names --json, which the diff since BASE removed from the option list in src/cli.ts: the CLI rejects it now. Update or remove the reference.',
      'docs/usage.md:3:38 names legacyDigest, which the diff since BASE removed from src/digest.ts; nothing exports it now. Update or remove the reference.',
      'docs/usage.md:4:6 names DIGEST_TRACE, which nothing reads any more: the diff since BASE removed its last read (src/cli.ts:4 at the base). Remove this leftover.',
      'src/report.ts:1:1 imports legacyDigest from ./digest.js, which the diff since BASE removed from src/digest.ts: update the import.',
      'test/cli.test.ts:3:15 names DIGEST_TRACE, which nothing reads any more: the diff since BASE removed its last read (src/cli.ts:4 at the base). Remove this leftover.',
    ]);
  });

  it("reports a removed flag on its CLI's command line or in prose about the CLI, never on another program's command line", async () => {
    const dir = makeGitRepo({
      'tripwire.config.json': JSON.stringify({ tests: { include: ['test/**/*.test.ts'] }, shipped: { include: ['docs/**/*.md'] } }),
      'test/notes.test.ts': `import { test } from 'vitest';\ntest('notes', () => {});\n`,
      'package.json': JSON.stringify({ name: 'release-kit', bin: { notes: 'dist/notes.js' }, scripts: { draft: 'tsx src/notes.ts --draft' } }),
      'src/notes.ts': `import { parseArgs } from 'node:util';\nconst { values } = parseArgs({ options: { draft: { type: 'boolean' }, since: { type: 'string' } } });\nconsole.log(values.draft, values.since);\n`,
      'docs/node.md': '# Notes\n\n```sh\nnode dist/notes.js --since v1.2\n```\n',
      'docs/npm-script.md': '# Drafts\n\n```sh\nnpm run draft -- --since v1.2\n```\n',
      'docs/continued.md': '# Tags\n\n```sh\ngit log --since=2.weeks --oneline\nnotes \\\n  --since v1.2\n```\n',
      'docs/prose.md': '# notes\n\nDrafts release notes from the tags.\n\n## Options\n\nGive `--since` a tag.\n',
      'docs/other-tools.md': '# Reading history\n\nThe notes CLI drafts from it; this page is about git.\n\n## git\n\nRun `git log --since=2.weeks`; its `--since` takes a date, as in\n`gh search prs --since 2026-01-01` and `env TZ=UTC git shortlog --since v1.2`.\n',
      'scripts/publish.sh': '#!/bin/sh\nset -e\ngit log --since="$1" --oneline | head\nnpx notes --since "$1"\n',
      'scripts/git-log.ts': `import { spawnSync } from 'node:child_process';\nspawnSync('git', ['log', '--since', process.argv[2] ?? '']);\n`,
    });
    git(dir, 'checkout', '-q', '-b', 'feature');
    writeFiles(dir, { 'src/notes.ts': `import { parseArgs } from 'node:util';\nconst { values } = parseArgs({ options: { draft: { type: 'boolean' } } });\nconsole.log(values.draft);\n` });
    commit(dir, 'drop --since');
    const lines = (await findings(dir, 'main', ['no-dangling-references'])).map((line) => line.replace(/ names --since, .*$/, ''));
    // docs/other-tools.md (its page names the CLI, its section does not) and scripts/git-log.ts name only git's and gh's --since;
    // the first --since of docs/continued.md and of scripts/publish.sh is git's.
    expect(lines).toEqual(['docs/continued.md:6:3', 'docs/node.md:4:20', 'docs/npm-script.md:4:18', 'docs/prose.md:7:7', 'scripts/publish.sh:4:11']);
  });

  it('is reported by the CLI with --base, and exits 2 when the base is missing', () => {
    const dir = catalogOnBranch();
    rmSync(join(dir, 'skills/checking-merge-readiness/references/outcomes.md'));
    commit(dir, 'drop outcomes');
    const run = runCli(['check', '--base', 'main', '--rule', 'no-dangling-references', '--no-cache'], dir);
    expect(run.code).toBe(1);
    expect(run.stdout).toContain(`${SKILL}\n  38:16  error  names references/outcomes.md (skills/checking-merge-readiness/references/outcomes.md), which the diff since`);
    expect(runCli(['check', '--base', 'origin/gone'], dir).code).toBe(2);
  });
});
