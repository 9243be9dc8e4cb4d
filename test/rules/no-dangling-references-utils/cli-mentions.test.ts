import { describe, expect, it } from 'vitest';
import { buildModel } from '../../../src/engine/index.js';
import type { RepoModel } from '../../../src/model/model.js';
import { cliFlagMentions, cliIdentity, cliSubcommandMentions } from '../../../rules/no-dangling-references-utils/cli-mentions.js';
import { findMentions, type Mention } from '../../../rules/no-dangling-references-utils/mentions.js';
import { makeGitRepo } from '../../support/repo.js';

async function model(files: Record<string, string>): Promise<RepoModel> {
  return (await buildModel({ cwd: makeGitRepo(files), cache: false })).model;
}

const PACKAGES = {
  'tripwire.config.json': '{}',
  'src/cli.ts': "if (process.argv.includes('--since')) console.log('since');\n",
  'package.json': JSON.stringify({
    name: 'kit',
    bin: { kit: 'dist/cli.js', 'kit-lib': 'lib/cli.js', 'kit-src': 'src/cli.ts', 'kit-other': 'other/cli.js', 'kit-deep': 'dist/x/cli.js', 'kit-dist': 'dist', 'kit-num': 5 },
    scripts: { 'dev.watch': 'tsx src/cli.ts --watch', start: 'echo go && node dist/cli.js', lint: 'eslint .', other: 'node tools/other.js', num: 7 },
  }),
  'packages/tool/package.json': JSON.stringify({ name: '@acme/tool', bin: './bin.js', scripts: { tool: 'node ./bin.js' } }),
  'packages/tool/bin.js': '',
  'packages/nameless/package.json': JSON.stringify({ bin: '../../src/cli.ts' }),
  'packages/null/package.json': 'null',
  'packages/nb/package.json': JSON.stringify({ name: 'nb', bin: null, scripts: null }),
  'packages/odd/package.json': JSON.stringify({ name: 'odd@acme/x', bin: './x.js' }),
  'packages/odd/x.js': '',
  'config/tool.json': JSON.stringify({ bin: { fake: 'src/cli.ts' } }),
  'packages/list/package.json': '["not", "a", "package"]',
  'node_modules/dep/package.json': JSON.stringify({ name: 'dep', bin: { 'dep-cli': '../../src/cli.ts' } }),
  'vendor/broken/package.json': '{ "bin": ',
  'bin/kit-ship': '#!/bin/sh\n',
  'tools/bin/kit-tag': '#!/bin/sh\n',
};

describe('cliIdentity', () => {
  it("names a JS CLI by the bin names that map to it or its build output, and by the scripts that run it", async () => {
    const m = await model(PACKAGES);
    const identity = cliIdentity(m, ['src/cli.ts']);
    expect(identity.scripts).toEqual(['src/cli.ts']);
    expect([...identity.bins]).toEqual(['kit', 'kit-lib', 'kit-src']);
    expect([...identity.npmScripts]).toEqual(['dev.watch', 'start']);
    expect([...cliIdentity(m, ['src/x/cli.ts']).bins]).toEqual(['kit-deep']);
    expect([...cliIdentity(m, ['cli.ts']).bins]).toEqual([]);
    expect([...cliIdentity(m, ['src/cli.ts', 'scripts/none.py']).bins]).toEqual(['kit', 'kit-lib', 'kit-src']);
  });

  it("names a workspace package's CLI by its unscoped name, and a bin/ script by its file name", async () => {
    const m = await model(PACKAGES);
    const tool = cliIdentity(m, ['packages/tool/bin.js']);
    expect([...tool.bins]).toEqual(['tool']);
    expect([...tool.npmScripts]).toEqual(['tool']);
    expect([...cliIdentity(m, ['packages/odd/x.js']).bins]).toEqual(['odd@acme/x']);
    const scripts = cliIdentity(m, ['bin/kit-ship', 'tools/bin/kit-tag', 'src/cli.sh']);
    expect([...scripts.bins]).toEqual(['kit-ship', 'kit-tag']);
    expect([...scripts.npmScripts]).toEqual([]);
  });
});

const DOCS = {
  ...PACKAGES,
  'README.md': [
    '# Tools',
    '',
    '## kit',
    '',
    'Pass --since to limit the range.',
    '',
    '### Options',
    '',
    'The --since flag takes a duration.',
    '',
    '## gh',
    '',
    'Its --since flag differs from run develop.',
    '',
    'Also `--since` alone.',
    '',
    '## Usage',
    '',
    '```sh',
    'npx kit \\',
    '  --since 2d',
    'gh pr list --since 2d',
    'FOO=1 node dist/cli.js --since 1d',
    'npm run dev.watch -- --since 1d',
    'node --import tsx src/cli.ts --since 1d',
    'git log | kit --verbose --since 1d',
    'echo "$(kit --since 1d)"',
    'npm run lint --since',
    '```',
    '',
    'Run `kit --since 2d`, not `gh --since 2d`.',
    '',
    '## Scripts',
    '',
    'With npm run dev.watch, pass --since.',
    '',
    '## Paths',
    '',
    'See src/cli.ts; --since is there.',
    '',
    '## Elsewhere',
    '',
    'See dist/other.ts; --since is not.',
    '',
    '## More usage',
    '',
    '```sh',
    'spawn(["kit", "--since"])',
    './node_modules/.bin/kit --since 1d',
    'dev.watch --since 1d',
    '1X=2 kit --since 1d',
    'npx --yes kit --since 1d',
    'node -r dotenv/config dist/cli.js --since 1d',
    'node tools/other.js --since 1d',
    '```',
    '',
    '## pnpm',
    '',
    '```sh',
    'pnpm dev.watch \\',
    '--since 1d',
    '```',
    '',
    '## Late',
    '',
    'Late --since prose.',
    '',
    '### kit and --since',
  ].join('\n'),
  'src/README.md': '# cli\n\n```sh\nnode cli.ts --since 1d\n```\n',
  'scripts/tail.sh': '#!/bin/sh\necho --since\nkit \\',
  'docs/pre.md': 'The kit tool: see below.\n\n# Flags\n\nUse --since.\n',
  'docs/noh1.md': '## kit\n\n### Options\n\nThe --since flag.\n',
  'docs/notes.txt': 'The kit tool.\n--since sets the start.\n',
  'docs/other.txt': '--since sets the start.\n',
  'scripts/release.sh': '#!/bin/sh\nkit --since 1d\necho --since\n',
};

function show(mentions: readonly Mention[]): string[] {
  return mentions.map((mention) => `${mention.file}:${mention.loc.line}:${mention.loc.column}`);
}

describe('cliFlagMentions', () => {
  it("keeps a flag on the CLI's command line, or in prose or alone in a section or file that names the CLI, and drops the rest", async () => {
    const m = await model(DOCS);
    const identity = cliIdentity(m, ['src/cli.ts', 'scripts/none.py']);
    const mentions = findMentions(m, ['--since'], () => false);
    expect(show(cliFlagMentions(m, [...mentions, { token: '--since', file: 'gone.md', loc: { line: 1, column: 1, endLine: 1, endColumn: 8 } }], () => identity))).toEqual([
      'README.md:5:6',
      'README.md:9:5',
      'README.md:21:3',
      'README.md:23:24',
      'README.md:24:22',
      'README.md:25:30',
      'README.md:26:25',
      'README.md:27:13',
      'README.md:31:10',
      'README.md:35:30',
      'README.md:39:17',
      'README.md:48:16',
      'README.md:49:25',
      'README.md:52:15',
      'README.md:53:35',
      'README.md:61:1',
      'README.md:68:13',
      'docs/noh1.md:5:5',
      'docs/notes.txt:2:1',
      'scripts/release.sh:2:5',
      'src/README.md:4:13',
      'src/cli.ts:1:28',
    ]);
  });
});

describe('cliSubcommandMentions', () => {
  it("keeps a word that is the first after the CLI's name on its command line, and drops prose, another program's and a later position", async () => {
    const m = await model({
      ...PACKAGES,
      'docs/sub.md': [
        '# Sub',
        '',
        'Run `kit release --tag v2`.',
        '',
        'Make a release with kit.',
        '',
        '```sh',
        'kit --verbose release',
        'kit build release',
        'gh release create',
        'FOO=1 npx kit release',
        'gh kit release',
        '```',
        '',
        '`release`',
        '',
        'kit release is how you ship.',
        '',
        '```sh',
        'kit \\',
        '  release',
        'kit FOO=1 release',
        'kit x.y=1 release',
        '```',
      ].join('\n'),
      'scripts/ship.sh': '#!/bin/sh\nkit release\nother release\n  \\\n  kit \\\n  release\nkit --opt=a\\b\n  release\nkit \\  \n  release\nkit --opt=a\\b \\\n  release\nkit \\\n  --verbose \\\n  release\n',
    });
    const identity = cliIdentity(m, ['src/cli.ts']);
    const mentions = findMentions(m, ['release'], () => false);
    expect(show(cliSubcommandMentions(m, [...mentions, { token: 'release', file: 'gone.sh', loc: { line: 1, column: 1, endLine: 1, endColumn: 8 } }], () => identity))).toEqual([
      'docs/sub.md:3:10',
      'docs/sub.md:8:15',
      'docs/sub.md:11:15',
      'docs/sub.md:21:3',
      'docs/sub.md:22:11',
      'scripts/ship.sh:2:5',
      'scripts/ship.sh:6:3',
      'scripts/ship.sh:10:3',
      'scripts/ship.sh:12:3',
      'scripts/ship.sh:15:3',
    ]);
  });
});
