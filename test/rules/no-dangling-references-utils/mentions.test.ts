import { describe, expect, it } from 'vitest';
import { buildModel } from '../../../src/engine/index.js';
import { findMentions, isHistoryFile, scannableFiles } from '../../../rules/no-dangling-references-utils/mentions.js';
import { makeGitRepo } from '../../support/repo.js';

describe('isHistoryFile', () => {
  it('is a changelog, release notes, news, a migration or upgrade guide, by its file name in any case', () => {
    const history = ['CHANGELOG.md', 'docs/changes.txt', 'HISTORY.md', 'RELEASES.md', 'release.md', 'RELEASE-NOTES.md', 'release_notes.md', 'NEWS', 'MIGRATING.md', 'migrations.md', 'MIGRATION.md', 'UPGRADING.md', 'upgrade.md', 'CHANGELOG-2024.md'];
    expect(history.filter(isHistoryFile)).toEqual(history);
  });

  it('is not a name that only starts or ends like one', () => {
    expect(['CHANGELOGS.md', 'my-changelog.md', 'newsletter.md', 'docs/releasing.md', 'changelog/index.md', 'RELEASEXNOTES.md'].filter(isHistoryFile)).toEqual([]);
  });
});

describe('scannableFiles', () => {
  it('keeps text files, extension-less files and dotfiles, and drops lockfiles, minified scripts and binary formats', async () => {
    const { model } = await buildModel({
      cwd: makeGitRepo({
        'tripwire.config.json': '{}',
        'README.md': '# A\n',
        'Makefile': 'all:\n',
        '.env': 'A=1\n',
        'package-lock.json': '{}',
        'yarn.lock': '',
        'pnpm-lock.yaml': '',
        'bun.lock': '',
        'bun.lockb': '',
        'dist/app.min.js': '',
        'my-package-lock.json': '{}',
        'yarn.lock.md': '# not a lockfile\n',
        'my-pnpm-lock.yaml': 'a: 1\n',
        'logo.png': 'png',
      }),
      cache: false,
    });
    expect(scannableFiles(model).sort()).toEqual(['.env', 'Makefile', 'README.md', 'my-package-lock.json', 'my-pnpm-lock.yaml', 'tripwire.config.json', 'yarn.lock.md']);
  });
});

describe('findMentions', () => {
  it('finds each whole-word occurrence with its place, phrases in any case, and skips what skip rules out', async () => {
    const { model } = await buildModel({
      cwd: makeGitRepo({
        'tripwire.config.json': '{}',
        'docs/a.md': '# A\n\nSet KIT_TOKEN, not KIT_TOKENS or MY_KIT_TOKEN.\nThe Gate Tier runs; KIT_TOKEN again.\n',
        'docs/b.md': '# B\n\nKIT_TOKEN here too.\n',
        'docs/c.md': '# C\n\nNothing.\n',
      }),
      cache: false,
    });
    const show = (tokens: string[], skip: (file: string, token: string) => boolean): string[] =>
      findMentions(model, tokens, skip).map((m) => `${m.token} ${m.file}:${m.loc.line}:${m.loc.column}-${m.loc.endLine}:${m.loc.endColumn}`);
    expect(show(['KIT_TOKEN', 'gate tier'], () => false)).toEqual([
      'KIT_TOKEN docs/a.md:3:5-3:14',
      'KIT_TOKEN docs/a.md:4:21-4:30',
      'gate tier docs/a.md:4:5-4:14',
      'KIT_TOKEN docs/b.md:3:1-3:10',
    ]);
    expect(show(['KIT_TOKEN', 'gate tier'], (file, token) => file === 'docs/b.md' || token === 'gate tier')).toEqual(['KIT_TOKEN docs/a.md:3:5-3:14', 'KIT_TOKEN docs/a.md:4:21-4:30']);
    // Each token list has its own cached scan of a file: another list finds its own tokens.
    expect(show(['Nothing'], () => false)).toEqual(['Nothing docs/c.md:3:1-3:8']);
    expect(show([], () => false)).toEqual([]);
  });

  it("keys each file's cached scan by the token list: with the cache on, another list still finds its own tokens", async () => {
    const { model } = await buildModel({ cwd: makeGitRepo({ 'tripwire.config.json': '{}', 'docs/c.md': '# C\n\nNothing.\n' }), cache: true });
    expect(findMentions(model, ['KIT_TOKEN'], () => false)).toEqual([]);
    expect(findMentions(model, ['Nothing'], () => false).map((m) => `${m.token} ${m.file}:${m.loc.line}:${m.loc.column}`)).toEqual(['Nothing docs/c.md:3:1']);
  });

  it('scans every line when there are many tokens, and finds nothing in a file that is not text', async () => {
    const tokens = Array.from({ length: 17 }, (_, index) => `TOKEN_${index}`);
    const { model } = await buildModel({
      cwd: makeGitRepo({ 'tripwire.config.json': '{}', 'docs/a.md': '# A\n\nTOKEN_16 and TOKEN_3.\n', 'bin/blob': `TOKEN_3 ${'\u0000'.repeat(40)}\n` }),
      cache: false,
    });
    expect(findMentions(model, tokens, () => false).map((m) => `${m.token} ${m.file}:${m.loc.line}:${m.loc.column}`)).toEqual(['TOKEN_3 docs/a.md:3:14', 'TOKEN_16 docs/a.md:3:1']);
  });
});
