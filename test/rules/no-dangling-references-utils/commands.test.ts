import { describe, expect, it } from 'vitest';
import { buildModel } from '../../../src/engine/index.js';
import type { TestAreas } from '../../../src/analysis/seams.js';
import { binNames, commandMentions, commandPrefix, commandTextFiles, executables, inTestArea, isBinFile, unknownCommands } from '../../../rules/no-dangling-references-utils/commands.js';
import { makeGitRepo } from '../../support/repo.js';

async function model(files: Record<string, string>) {
  return (await buildModel({ cwd: makeGitRepo(files), cache: false })).model;
}

function areas(testOnly: string[], roots: string[]): TestAreas {
  return { roots, isTestOnly: (file) => testOnly.includes(file), paths: new Set(), stubs: new Map(), dirs: new Set() };
}

describe('isBinFile', () => {
  it('is a file directly in a bin/ directory, at the root or below, and nothing else', () => {
    expect(isBinFile('bin/kit')).toBe(true);
    expect(isBinFile('tools/bin/kit')).toBe(true);
    expect(isBinFile('bin/sub/kit')).toBe(false);
    expect(isBinFile('robin/kit')).toBe(false);
    expect(isBinFile('bins/kit')).toBe(false);
    expect(isBinFile('kit')).toBe(false);
  });
});

describe('binNames', () => {
  it('reads the keys of a bin object, and a string bin by the package name without its scope', () => {
    expect(binNames('{"bin":{"kit-a":"a.js","kit-b":"b.js"}}')).toEqual(['kit-a', 'kit-b']);
    expect(binNames('{"name":"@acme/kit","bin":"cli.js"}')).toEqual(['kit']);
    expect(binNames('{"name":"kit","bin":"cli.js"}')).toEqual(['kit']);
    expect(binNames('{"name":"kit@acme/x","bin":"cli.js"}')).toEqual(['kit@acme/x']);
  });

  it('reads nothing from no text, text that is not JSON, JSON that is not an object, no bin, a nameless string bin', () => {
    expect(binNames(null)).toEqual([]);
    expect(binNames('{ "bin": ')).toEqual([]);
    expect(binNames('null')).toEqual([]);
    expect(binNames('["kit"]')).toEqual([]);
    expect(binNames('"kit"')).toEqual([]);
    expect(binNames('{"name":"kit"}')).toEqual([]);
    expect(binNames('{"name":"kit","bin":null}')).toEqual([]);
    expect(binNames('{"bin":"cli.js"}')).toEqual([]);
    expect(binNames('{"name":7,"bin":"cli.js"}')).toEqual([]);
  });
});

describe('inTestArea', () => {
  it('is a test-only file, a path under a test root, or a path through a fixture directory', () => {
    expect(inTestArea(areas(['src/a.test.ts'], []), 'src/a.test.ts')).toBe(true);
    expect(inTestArea(areas([], ['tests']), 'tests/bin/kit')).toBe(true);
    expect(inTestArea(areas([], []), 'src/fixtures/bin/kit')).toBe(true);
  });

  it('is not a sibling that starts like a root, a file named like a fixture directory, or any other path', () => {
    expect(inTestArea(areas([], ['tests']), 'tests-old/bin/kit')).toBe(false);
    expect(inTestArea(areas([], ['tests']), 'tests')).toBe(false);
    expect(inTestArea(areas([], []), 'src/fixtures')).toBe(false);
    expect(inTestArea(areas(['src/a.test.ts'], ['tests']), 'bin/kit')).toBe(false);
  });
});

describe('executables', () => {
  it('names the bin/ files outside the test areas and the bin names of every package.json', async () => {
    const m = await model({
      'tripwire.config.json': '{}',
      'bin/kit-build': '#!/bin/sh\n',
      'tools/bin/kit-lint': '#!/bin/sh\n',
      'bin/lib/helper.sh': '#!/bin/sh\n',
      'test/fixtures/bin/gh': '#!/bin/sh\n',
      'test/run.test.ts': 'export {};\n',
      'package.json': '{"name":"kit","bin":{"kit-ship":"dist/ship.js"}}',
      'packages/doctor/package.json': '{"name":"@kit/doctor","bin":"cli.js"}',
      'packages/doctor/package.jsonc': '{"bin":{"not-read":"x.js"}}',
    });
    expect([...executables(m)].sort()).toEqual(['doctor', 'kit-build', 'kit-lint', 'kit-ship']);
  });
});

describe('commandTextFiles', () => {
  it('is the Markdown outside the test areas and the shipped files', async () => {
    const m = await model({
      'tripwire.config.json': '{"tests":{"include":["tests/**/*.test.ts"]},"shipped":{"include":["prompts/*.txt"]}}',
      'README.md': '# kit\n',
      'docs/guide.md': '# Guide\n',
      'prompts/release.txt': 'Run kit-ship.\n',
      'notes/todo.txt': 'Run kit-ship.\n',
      'tests/README.md': '# Tests\n',
      'tests/ship.test.ts': 'export {};\n',
      'src/fixtures/usage.md': '# Usage\n',
    });
    expect(commandTextFiles(m).sort()).toEqual(['README.md', 'docs/guide.md', 'prompts/release.txt']);
  });
});

describe('commandMentions', () => {
  const accept = (word: string): boolean => word.startsWith('kit-');

  it('finds the command word of code spans, of each command of a shell or unlabelled block line, and after run in prose', async () => {
    const m = await model({
      'tripwire.config.json': '{}',
      'README.md': [
        '# kit',
        '',
        'Start with `kit-build --out dist`, then `npx kit-lint`.',
        '',
        '```sh',
        '$ FOO=1 kit-a && ./bin/kit-b; tools/bin/kit-c | ./kit-d || sudo env kit-e',
        '```',
        '',
        '```',
        'kit-f',
        '```',
        '',
        'To ship, run kit-ship.sh or run `kit-g`, never run kitship.',
        '',
        'Then `bin/kit-j` and run  kit-k.sh.',
      ].join('\n'),
    });
    expect(commandMentions(m, 'README.md', accept).map((x) => `${x.token} ${x.loc.line}:${x.loc.column}-${x.loc.endLine}:${x.loc.endColumn}`)).toEqual([
      'kit-build 3:13-3:22',
      'kit-lint 3:46-3:54',
      'kit-a 6:9-6:14',
      'kit-b 6:24-6:29',
      'kit-c 6:41-6:46',
      'kit-d 6:51-6:56',
      'kit-e 6:69-6:74',
      'kit-f 10:1-10:6',
      'kit-ship.sh 13:14-13:25',
      'kit-g 13:34-13:39',
      'kit-j 15:11-15:16',
      'kit-k.sh 15:27-15:35',
    ]);
  });

  it('reads no command from a block in another language, a word that is not a name, a path that is not a bin/ path, or what accept refuses', async () => {
    const m = await model({
      'tripwire.config.json': '{}',
      'README.md': [
        '---',
        'description: run kit-m.sh first',
        '---',
        '# kit',
        '',
        '```python',
        'kit-a --x',
        '```',
        '',
        'kit-z is documented elsewhere.',
        '',
        '`"kit-b"` and `src/kit-c` and `kit-d/bin` and `other kit-e` and `npm`',
        '',
        '`1X=2 kit-q` and `x:bin/kit-h` and `bin/kit-i/sub` and `x./kit-k` and `./kit-l/x`',
        '',
        'We run tests, then run kit_ship, then run the kit-ship.',
      ].join('\n'),
    });
    expect(commandMentions(m, 'README.md', accept)).toEqual([]);
    expect(commandMentions(m, 'README.md', (word) => word === 'kit_ship').map((x) => `${x.token} ${x.loc.line}:${x.loc.column}`)).toEqual(['kit_ship 16:24']);
  });

  it('finds nothing in a file with no text runs', async () => {
    const m = await model({ 'tripwire.config.json': '{}', 'src/cli.ts': "export const usage = 'kit-a';\n" });
    expect(commandMentions(m, 'src/cli.ts', accept)).toEqual([]);
    expect(commandMentions(m, 'missing.md', accept)).toEqual([]);
  });
});

describe('commandPrefix', () => {
  it('picks the prefix most names share, not the first one seen', () => {
    expect(commandPrefix(new Set(['app-x', 'kit-a', 'kit-b', 'kit-c', 'kit-d', 'kit-e', 'kit-f', 'kit-g']))).toBe('kit-');
  });

  it('needs three names with the prefix: two are not a convention, even when they are all', () => {
    expect(commandPrefix(new Set(['kit-a', 'kit-b']))).toBeNull();
    expect(commandPrefix(new Set(['kit-a', 'kit-b', 'kit-c']))).toBe('kit-');
  });

  it('takes exactly two thirds, not fewer; a name starting with a dash or without one has no prefix', () => {
    expect(commandPrefix(new Set(['kit-a', 'kit-b', 'kit-c', 'kit-d', 'a', 'b']))).toBe('kit-');
    expect(commandPrefix(new Set(['kit-a', 'kit-b', 'kit-c', 'kit-d', 'a', 'b', 'c']))).toBeNull();
    expect(commandPrefix(new Set(['-a', '-b', '-c']))).toBeNull();
    expect(commandPrefix(new Set())).toBeNull();
  });
});

const KIT = {
  'tripwire.config.json': '{"tests":{"include":["test/**/*.test.ts"]},"shipped":{"include":["prompts/*.txt"]}}',
  'bin/kit-build': '#!/bin/sh\n',
  'bin/kit-lint': '#!/bin/sh\n',
  'bin/kit-ship': '#!/bin/sh\n',
  'package.json': '{"name":"kit","scripts":{"kit-selftest":"vitest run"}}',
  'vendor/broken/package.json': '{ "scripts": ',
  'scripts/kit-setup': '#!/bin/sh\n',
  'test/ship.test.ts': 'export {};\n',
};

describe('unknownCommands', () => {
  it('reports a command with the prefix that names no executable, once per file at its first place, with the count', async () => {
    const m = await model({
      ...KIT,
      'README.md': '# kit\n\nRun `kit-deploy --prod`.\n\n```sh\nkit-build && kit-deploy\n```\n\nOr `kit-rollback`.\n',
      'config/tasks.json': '{"scripts":{"kit-rollback":"kit-build"}}',
      'packages/doc/package.json': '{"name":"doc"}',
      'docs/shipping.md': '# Release\n\nThen run kit-publish.\n',
    });
    expect(unknownCommands(m).map((f) => `${f.file}:${f.loc.line}:${f.loc.column}-${f.loc.endColumn} ${f.messageId} ${f.message}`)).toEqual([
      'README.md:3:6-16 unknownCommand runs kit-deploy, but no executable of this repository has that name (its own commands are the kit-* files in bin/ and package.json bin names): a command renamed or removed. Update the instruction. Named 2 times in this file; this is the first.',
      'README.md:9:5-17 unknownCommand runs kit-rollback, but no executable of this repository has that name (its own commands are the kit-* files in bin/ and package.json bin names): a command renamed or removed. Update the instruction.',
      'docs/shipping.md:3:10-21 unknownCommand runs kit-publish, but no executable of this repository has that name (its own commands are the kit-* files in bin/ and package.json bin names): a command renamed or removed. Update the instruction.',
    ]);
  });

  it('reports no executable, script, file name, bare prefix, capitalised name, other prefix, history file or test-only text', async () => {
    const m = await model({
      ...KIT,
      'README.md': '# kit\n\n`kit-build`, `kit-selftest`, `kit-setup`, `kit-`, `kit-Deploy`, `app-deploy`, `kit-ship.sh`.\n',
      'CHANGELOG.md': '# Changes\n\nRemoved `kit-deploy`.\n',
      'test/README.md': '# Tests\n\nRun `kit-deploy`.\n',
    });
    expect(unknownCommands(m)).toEqual([]);
  });

  it('reports nothing without a prefix convention', async () => {
    const m = await model({
      'tripwire.config.json': '{}',
      'bin/kit-build': '#!/bin/sh\n',
      'bin/kit-lint': '#!/bin/sh\n',
      'bin/setup': '#!/bin/sh\n',
      'README.md': '# kit\n\nRun `kit-deploy` or `null-deploy`.\n',
    });
    expect(unknownCommands(m)).toEqual([]);
  });
});
