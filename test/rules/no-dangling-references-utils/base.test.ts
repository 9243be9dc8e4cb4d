import { renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildModel } from '../../../src/engine/index.js';
import type { RepoModel } from '../../../src/model/model.js';
import { baseFindings } from '../../../rules/no-dangling-references-utils/base.js';
import { git, makeGitRepo, writeFiles } from '../../support/repo.js';

/** `files` committed on main, then a feature branch where `change` runs and is committed; the model with --base main, and the words every message names the diff by. */
async function diffModel(files: Record<string, string>, change: (dir: string) => void): Promise<{ model: RepoModel; since: string }> {
  const dir = makeGitRepo(files);
  const since = `the diff since ${git(dir, 'rev-parse', 'main').trim().slice(0, 12)}`;
  git(dir, 'checkout', '-q', '-b', 'feature');
  change(dir);
  git(dir, 'add', '-A');
  git(dir, 'commit', '-q', '-m', 'change');
  return { model: (await buildModel({ cwd: dir, cache: false, base: 'main' })).model, since };
}

function show(model: RepoModel): string[] {
  return baseFindings(model).map((f) => `${f.messageId} ${f.file}:${f.loc.line}:${f.loc.column}-${f.loc.endColumn} ${f.message}${f.fix ? ` [fix ${f.fix.edits.map((edit) => edit.text).join()}]` : ''}`);
}

describe('baseFindings', () => {
  it('finds nothing without a diff', async () => {
    const model = (await buildModel({ cwd: makeGitRepo({ 'tripwire.config.json': '{}', 'docs/a.md': '# A\n\nSee src/gone.ts.\n' }), cache: false })).model;
    expect(baseFindings(model)).toEqual([]);
  });

  it('reports a link, an import, a string and a code span that name a deleted or renamed file, and its file name in prose once per file; a string of the renamed path gets a fix', async () => {
    const { model, since } = await diffModel(
      {
        'tripwire.config.json': '{}',
        'src/old.ts': 'export const old = 1;\n',
        'src/moved.ts': 'export function moved() {\n  return "a long enough body for rename detection";\n}\n',
        'src/keep.ts': 'export const keep = 1;\n',
        'src/use.ts': "import { old } from './old';\nimport { moved } from './moved.js';\nimport { keep } from './keep';\nexport const p = 'src/moved.ts';\nexport const q = 'src/old.ts';\nexport const r = 'src/keep.ts';\n",
        'docs/guide.md': '# Guide\n\nSee [old](../src/old.ts) and `src/moved.ts`.\n\nThe old.ts file, old.ts again, and moved.ts.\n\n`src/old` and `src/keep.ts`.\n\n```md illustrative\nsee src/old.ts\n```\n',
        'CHANGELOG.md': '# Changes\n\nRemoved src/old.ts and old.ts.\n',
      },
      (dir) => {
        writeFileSync(join(dir, 'src/keep.ts'), 'export const keep = 2;\n');
        rmSync(join(dir, 'src/old.ts'));
        renameSync(join(dir, 'src/moved.ts'), join(dir, 'src/renamed.ts'));
      },
    );
    expect(show(model)).toEqual([
      `removedFileReference docs/guide.md:3:11-24 names ../src/old.ts (src/old.ts), which ${since} deleted: update or remove the reference.`,
      `removedFileReference docs/guide.md:3:31-43 names src/moved.ts, which ${since} renamed to src/renamed.ts: update the reference.`,
      `removedFileReference src/use.ts:4:18-32 names src/moved.ts, which ${since} renamed to src/renamed.ts: update the reference. [fix 'src/renamed.ts']`,
      `removedFileReference src/use.ts:5:18-30 names src/old.ts, which ${since} deleted: update or remove the reference.`,
      `removedFileReference src/use.ts:1:1-29 names ./old (src/old.ts), which ${since} deleted: update or remove the reference.`,
      `removedFileReference src/use.ts:2:1-36 names ./moved.js (src/moved.ts), which ${since} renamed to src/renamed.ts: update the reference.`,
      `removedFileMention docs/guide.md:5:5-11 names old.ts (src/old.ts), which ${since} deleted: update or remove the reference. Named 3 times in this file; this is the first.`,
      `removedFileMention docs/guide.md:5:36-44 names moved.ts (src/moved.ts), which ${since} renamed to src/renamed.ts: update the reference.`,
    ]);
  });

  it('reports a file name only when no file of that name is left, a deleted file that the tree still has is not gone, and an import that still resolves (to a directory\'s index) names nothing gone', async () => {
    const { model } = await diffModel(
      {
        'tripwire.config.json': '{}',
        'src/a/util.ts': 'export const a = 1;\n',
        'src/b/util.ts': 'export const b = 1;\n',
        'src/lib.ts': 'export const lib = 1;\n',
        'src/use.ts': "import { lib } from './lib';\n",
        'docs/guide.md': '# Guide\n\nThe util.ts helpers.\n',
      },
      (dir) => {
        rmSync(join(dir, 'src/a/util.ts'));
        rmSync(join(dir, 'src/lib.ts'));
        writeFiles(dir, { 'src/lib/index.ts': 'export const lib = 2;\nexport const more = 3;\n' });
      },
    );
    expect(show(model)).toEqual([]);
  });

  it('reports a deleted executable that docs still run, a bin name a package.json dropped, and not a test stub or a name that is still an executable', async () => {
    const { model, since } = await diffModel(
      {
        'tripwire.config.json': '{"tests":{"include":["test/**/*.test.ts"]}}',
        'bin/kit-build': '#!/bin/sh\n',
        'bin/kit-old': '#!/bin/sh\ncase "$1" in\n  deploy) : ;;\nesac\n',
        'bin/kit-moved': '#!/bin/sh\n',
        'test/fixtures/bin/gh': '#!/bin/sh\n',
        'test/run.test.ts': 'export {};\n',
        'package.json': JSON.stringify({ name: 'kit', bin: { 'kit-pkg': 'x.js', 'kit-keep': 'y.js' } }),
        'tools/package.json': JSON.stringify({ name: 't', bin: { 't-gone': 'z.js' } }),
        'README.md': '# kit\n\nRun `kit-old deploy`.\n\n```sh\nkit-pkg && kit-old\n```\n\n`gh pr view` and `t-gone` and `kit-keep` and `kit-moved`.\n',
        'CHANGELOG.md': '# Changes\n\nRemoved `kit-old`.\n',
      },
      (dir) => {
        rmSync(join(dir, 'bin/kit-old'));
        rmSync(join(dir, 'bin/kit-moved'));
        rmSync(join(dir, 'test/fixtures/bin/gh'));
        rmSync(join(dir, 'tools/package.json'));
        writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'kit', bin: { 'kit-keep': 'y.js', 'kit-moved': 'm.js' } }));
      },
    );
    expect(show(model)).toEqual([
      `removedCommandMention README.md:3:6-13 runs kit-old, which ${since} deleted (bin/kit-old): the command no longer exists. Update or remove the instruction. Named 2 times in this file; this is the first.`,
      `removedCommandMention README.md:6:1-8 runs kit-pkg, which ${since} deleted (the bin kit-pkg of package.json): the command no longer exists. Update or remove the instruction.`,
      `removedCommandMention README.md:9:19-25 runs t-gone, which ${since} deleted (the bin t-gone of tools/package.json): the command no longer exists. Update or remove the instruction.`,
    ]);
  });

  it("reports a subcommand a CLI no longer declares where docs run it, and a glossary term the diff removed where docs use it", async () => {
    const { model, since } = await diffModel(
      {
        'tripwire.config.json': '{}',
        'bin/kit': '#!/bin/sh\ncase "$1" in\n  build) : ;;\n  release) : ;;\nesac\n',
        'src/cli.ts': "program.command('publish');\nprogram.command('check');\n",
        'tools/new.sh': '#!/bin/sh\n',
        'package.json': JSON.stringify({ name: 'kit', bin: { kitjs: 'src/cli.ts' } }),
        'docs/glossary.md': '# Glossary\n\n## Touchfile\n\n## Oracle\n',
        'docs/guide.md': '# Guide\n\nRun `kit release` or `kit build`, and `kitjs publish`.\n\nEach Touchfile, every Touchfile; the Oracle.\n',
        'CHANGELOG.md': '# Changes\n\nThe Touchfile is gone; `kit release` too.\n',
      },
      (dir) => {
        writeFileSync(join(dir, 'bin/kit'), '#!/bin/sh\ncase "$1" in\n  build) : ;;\nesac\n');
        writeFileSync(join(dir, 'src/cli.ts'), "program.command('check');\n");
        writeFileSync(join(dir, 'docs/glossary.md'), '# Glossary\n');
        writeFiles(dir, { 'tools/added.sh': '#!/bin/sh\ncase "$1" in\n  deploy) : ;;\nesac\n' });
        rmSync(join(dir, 'tools/new.sh'));
      },
    );
    expect(show(model)).toEqual([
      `removedSubcommandMention docs/guide.md:3:10-17 runs the subcommand release, which ${since} removed from bin/kit: the CLI rejects it now. Update or remove the instruction.`,
      `removedSubcommandMention docs/guide.md:3:46-53 runs the subcommand publish, which ${since} removed from src/cli.ts: the CLI rejects it now. Update or remove the instruction.`,
      `removedTermMention docs/guide.md:5:6-15 uses 'Touchfile', a term whose definition ${since} removed from docs/glossary.md, and no glossary defines it now: define it again, or use the term that replaced it. Named 2 times in this file; this is the first.`,
      `removedTermMention docs/guide.md:5:38-44 uses 'Oracle', a term whose definition ${since} removed from docs/glossary.md, and no glossary defines it now: define it again, or use the term that replaced it.`,
    ]);
  });

  it('reads a renamed CLI and a renamed module under their new paths, and names every file a removed flag was declared in', async () => {
    const body = '# a long enough body for git to pair the old and the new file as a rename\n# and a second line of it\n';
    const { model, since } = await diffModel(
      {
        'tripwire.config.json': '{}',
        'bin/tool': `#!/bin/sh\n${body}case "$1" in\n  build) : ;;\n  publish) : ;;\nesac\n`,
        'src/api.ts': 'export function keepMe() {\n  return "a long enough body for git to pair the old and the new file as a rename";\n}\nexport const dropped = 1;\n',
        'scripts/a.py': "import argparse\np = argparse.ArgumentParser()\np.add_argument('--since')\n",
        'scripts/b.py': "import argparse\np = argparse.ArgumentParser()\np.add_argument('--since')\n",
        'docs/tools.md': '# Tools\n\nRun `tool2 publish` and `python3 scripts/a.py --since 2d`.\n',
      },
      (dir) => {
        rmSync(join(dir, 'bin/tool'));
        rmSync(join(dir, 'src/api.ts'));
        writeFiles(dir, {
          'bin/tool2': `#!/bin/sh\n${body}case "$1" in\n  build) : ;;\nesac\n`,
          'src/api2.ts': 'export function keepMe() {\n  return "a long enough body for git to pair the old and the new file as a rename";\n}\n',
          'src/use.ts': "import { dropped } from './api2';\n",
          'scripts/a.py': 'import argparse\np = argparse.ArgumentParser()\n',
          'scripts/b.py': 'import argparse\np = argparse.ArgumentParser()\n',
        });
      },
    );
    expect(model.diff?.changes.filter((change) => change.status === 'renamed').map((change) => `${change.oldPath} ${change.path}`)).toEqual(['bin/tool bin/tool2', 'src/api.ts src/api2.ts']);
    expect(show(model)).toEqual([
      `removedSubcommandMention docs/tools.md:3:12-19 runs the subcommand publish, which ${since} removed from bin/tool2: the CLI rejects it now. Update or remove the instruction.`,
      `removedExportImport src/use.ts:1:1-34 imports dropped from ./api2, which ${since} removed from src/api2.ts: update the import.`,
      `removedFlagMention docs/tools.md:3:47-54 names --since, which ${since} removed from the option list in scripts/a.py, scripts/b.py: the CLI rejects it now. Update or remove the reference.`,
    ]);
  });

  it('reports an import of an export the diff removed, and code in docs that names one nothing exports now', async () => {
    const { model, since } = await diffModel(
      {
        'tripwire.config.json': '{}',
        'src/lib.ts': "export const keep = 1;\nexport const gone = 2;\nexport const moved = 3;\nexport default 4;\nexport { helper } from './helper';\n",
        'src/helper.ts': 'export const helper = 1;\n',
        'src/other.ts': 'export const x = 1;\n',
        'src/use.ts': "import { keep, gone } from './lib';\nimport { x } from './other';\nimport { helper } from './lib';\nimport lib from './lib';\n",
        'docs/api.md': '# API\n\nCall `gone()` or `moved()` or `keep()` or `helper()`; gone in prose.\n\n```ts\ngone(1);\nexport default config;\n```\n',
        'CHANGELOG.md': '# Changes\n\n`gone()` was removed.\n',
      },
      (dir) => {
        writeFileSync(join(dir, 'src/lib.ts'), 'export const keep = 1;\n');
        writeFileSync(join(dir, 'src/other.ts'), 'export const x = 1;\nexport const moved = 3;\n');
      },
    );
    expect(show(model)).toEqual([
      `removedExportImport src/use.ts:1:1-36 imports gone from ./lib, which ${since} removed from src/lib.ts: update the import.`,
      `removedExportImport src/use.ts:3:1-32 imports helper from ./lib, which ${since} removed from src/lib.ts: update the import.`,
      `removedExportMention docs/api.md:3:7-11 names gone, which ${since} removed from src/lib.ts; nothing exports it now. Update or remove the reference.`,
      `removedExportMention docs/api.md:6:1-5 names gone, which ${since} removed from src/lib.ts; nothing exports it now. Update or remove the reference.`,
    ]);
  });

  it('reports an env var whose last read the diff removed where text still names it, and not a write, a var still read, a key or an ambient var', async () => {
    const { model, since } = await diffModel(
      {
        'tripwire.config.json': '// KIT_TOKEN was read by src/config.ts\n{}',
        'src/config.ts': "export const a = process.env.KIT_TOKEN;\nexport const b = process.env.KIT_KEEP;\nexport const c = process.env.OPENAI_API_KEY;\nexport const h = process.env.HOME;\nprocess.env.KIT_WRITTEN = 'x';\n",
        'scripts/run.sh': '#!/bin/sh\necho "$KIT_SHELL"\necho "$KIT_TOKEN"\nKIT_SET=1 other\n',
        'docs/env.md': '# Env\n\nSet KIT_TOKEN, KIT_SHELL, KIT_KEEP, KIT_WRITTEN, OPENAI_API_KEY, HOME.\n\nKIT_TOKEN again, and KIT_SET.\n',
        'CHANGELOG.md': '# Changes\n\nKIT_TOKEN is gone.\n',
      },
      (dir) => {
        writeFileSync(join(dir, 'src/config.ts'), 'export const b = process.env.KIT_KEEP;\n');
        writeFileSync(join(dir, 'scripts/run.sh'), '#!/bin/sh\necho hi\n');
      },
    );
    expect(show(model)).toEqual([
      `removedEnvMention docs/env.md:3:16-25 names KIT_SHELL, which nothing reads any more: ${since} removed its last read (scripts/run.sh:2 at the base). Remove this leftover.`,
      `removedEnvMention docs/env.md:3:5-14 names KIT_TOKEN, which nothing reads any more: ${since} removed its last read (scripts/run.sh:3 at the base). Remove this leftover. Named 2 times in this file; this is the first.`,
    ]);
  });

  it("reports a flag the diff removed from a CLI's option list on that CLI's command line, and not one another CLI still declares or one of a deleted CLI", async () => {
    const { model, since } = await diffModel(
      {
        'tripwire.config.json': '{}',
        'scripts/notes.py': "import argparse\np = argparse.ArgumentParser()\np.add_argument('--since')\np.add_argument('--limit')\np.add_argument('-s')\np.add_argument('--format')\n",
        'scripts/other.sh': '#!/bin/sh\ncase "$1" in\n  --limit) : ;;\nesac\n',
        'scripts/old.sh': '#!/bin/sh\ncase "$1" in\n  --purge) : ;;\nesac\n',
        'CHANGELOG.md': '# Changes\n\n`python3 scripts/notes.py --since` is gone.\n',
        'docs/notes.md': '# Notes\n\nRun `python3 scripts/notes.py --since 2d --limit 3 -s`, or `scripts/old.sh --purge`.\n\nNever `gh --since`.\n\n`python3 scripts/notes.py --format md`\n',
      },
      (dir) => {
        writeFileSync(join(dir, 'scripts/notes.py'), 'import argparse\np = argparse.ArgumentParser()\n');
        rmSync(join(dir, 'scripts/old.sh'));
      },
    );
    expect(show(model)).toEqual([
      `removedFileReference docs/notes.md:3:61-75 names scripts/old.sh, which ${since} deleted: update or remove the reference.`,
      `removedFlagMention docs/notes.md:3:31-38 names --since, which ${since} removed from the option list in scripts/notes.py: the CLI rejects it now. Update or remove the reference.`,
      `removedFlagMention docs/notes.md:7:27-35 names --format, which ${since} removed from the option list in scripts/notes.py: the CLI rejects it now. Update or remove the reference.`,
    ]);
  });
});
