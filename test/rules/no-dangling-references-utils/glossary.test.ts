import { renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildModel } from '../../../src/engine/index.js';
import { definedTerms, isDatedLog, isGlossaryFile, removedTermMentions } from '../../../rules/no-dangling-references-utils/glossary.js';
import { git, makeGitRepo, writeFiles } from '../../support/repo.js';

describe('isGlossaryFile', () => {
  it('is a Markdown file whose name has a glossary word as a whole part, in any case', () => {
    expect(['docs/glossary.md', 'GLOSSARY.md', 'concepts.md', 'docs/concept.md', 'terminology.md', 'terms.md', 'vocabulary.md', 'api-glossary.md', 'glossary_v2.md', 'core.concepts.md'].filter(isGlossaryFile)).toEqual([
      'docs/glossary.md',
      'GLOSSARY.md',
      'concepts.md',
      'docs/concept.md',
      'terminology.md',
      'terms.md',
      'vocabulary.md',
      'api-glossary.md',
      'glossary_v2.md',
      'core.concepts.md',
    ]);
  });

  it('is not a file of another kind, a word that only contains one, or a glossary directory', () => {
    expect(['glossary.txt', 'glossaryx.md', 'myglossary.md', 'docs/glossary/intro.md', 'determs.md'].filter(isGlossaryFile)).toEqual([]);
  });
});

describe('isDatedLog', () => {
  it('is a file whose name starts with a date, at the root or below', () => {
    expect(['notes/2026-11-03.md', 'log/2026-11-03-retro.md', '2026-11-03.md'].filter(isDatedLog)).toEqual(['notes/2026-11-03.md', 'log/2026-11-03-retro.md', '2026-11-03.md']);
  });

  it('is not a name with a date inside, a dated directory, or a short date', () => {
    expect(['notes/x2026-11-03.md', '2026-11-03/notes.md', 'notes/2026-1-03.md', 'notes/2026-11-3.md', 'notes/retro.md'].filter(isDatedLog)).toEqual([]);
  });
});

describe('definedTerms', () => {
  it('reads headings below the title and bold definition lines, without backticks or closing hashes', () => {
    const text = [
      '# Glossary',
      '',
      '## Touchfile',
      '### `Gate tier` ##',
      '###### Deep term',
      '**Free suite**: the tests that cost nothing.',
      '- **Paid suite** — the tests that cost money.',
      '  * **Selector** – picks tests.',
      '+ **Oracle** - the expected answer.',
      'Write ``` to open a block.',
      '-   **Spaced item**: more room.',
      '**Padded **: trimmed.',
    ].join('\n');
    expect([...definedTerms(text)]).toEqual(['Touchfile', 'Gate tier', 'Deep term', 'Free suite', 'Paid suite', 'Selector', 'Oracle', 'Spaced item', 'Padded']);
  });

  it('reads nothing in a code block, a level-7 heading, bold without a definition mark, or a term too short, too long or without a letter', () => {
    const text = [
      '# Title',
      '```md',
      '## Fenced',
      '**Fenced term**: no.',
      '```',
      '~~~',
      '## Tilde fenced',
      '~~~',
      '####### Seven',
      '**Bold** alone.',
      '**Hyphen**-joined',
      '## ab',
      '## 1234',
      `## ${'a'.repeat(61)}`,
      `## ${'b'.repeat(60)}`,
      '## abc',
      '##NoSpace',
      'See **Inline**: not a definition.',
      '  ```',
      '## Indented fence',
      '  ```',
    ].join('\n');
    expect([...definedTerms(text)]).toEqual(['b'.repeat(60), 'abc']);
  });
});

/** The docs committed on main, then a feature branch where `change` runs and is committed. */
async function diffModel(files: Record<string, string>, change: (dir: string) => void) {
  const dir = makeGitRepo(files);
  git(dir, 'checkout', '-q', '-b', 'feature');
  change(dir);
  git(dir, 'add', '-A');
  git(dir, 'commit', '-q', '-m', 'change');
  return (await buildModel({ cwd: dir, cache: false, base: 'main' })).model;
}

const DOCS = {
  'tripwire.config.json': '{}',
  'docs/glossary.md': '# Glossary\n\n## Touchfile\n\n**Gate tier**: runs on every pull request.\n\n**Oracle**: the expected answer.\n',
  'docs/guide.md': '# Guide\n\nEach Touchfile selects tests.\n\nA Gate tier test runs often; the Touchfile says when.\n\nThe Oracle decides.\n',
  'CHANGELOG.md': '# Changes\n\nThe Touchfile was removed.\n',
  'notes/2026-11-03.md': '# Notes\n\nTouchfile retro.\n',
  'src/select.ts': '// Touchfile\nexport const x = 1;\n',
};

function show(found: ReturnType<typeof removedTermMentions>): string[] {
  return found.map(({ mention, glossary }) => `${mention.file}:${mention.loc.line}:${mention.loc.column}-${mention.loc.endColumn} ${mention.token} from ${glossary}`);
}

describe('removedTermMentions', () => {
  it('finds the uses, in documentation, of the terms a diff removed from a glossary, and not of the terms it kept', async () => {
    const m = await diffModel({ ...DOCS, 'docs/howto.md': '# How to\n\n## Touchfile\n' }, (dir) => {
      writeFileSync(join(dir, 'docs/glossary.md'), '# Glossary\n\n**Oracle**: the expected answer, never a Touchfile.\n');
    });
    expect(show(removedTermMentions(m))).toEqual([
      'docs/guide.md:3:6-15 Touchfile from docs/glossary.md',
      'docs/guide.md:5:34-43 Touchfile from docs/glossary.md',
      'docs/guide.md:5:3-12 Gate tier from docs/glossary.md',
      'docs/howto.md:3:4-13 Touchfile from docs/glossary.md',
    ]);
  });

  it('finds the terms of a deleted glossary, and of a renamed one under its old path', async () => {
    const deleted = await diffModel(DOCS, (dir) => {
      rmSync(join(dir, 'docs/glossary.md'));
    });
    expect(show(removedTermMentions(deleted))).toEqual([
      'docs/guide.md:3:6-15 Touchfile from docs/glossary.md',
      'docs/guide.md:5:34-43 Touchfile from docs/glossary.md',
      'docs/guide.md:5:3-12 Gate tier from docs/glossary.md',
      'docs/guide.md:7:5-11 Oracle from docs/glossary.md',
    ]);
    const renamed = await diffModel(DOCS, (dir) => {
      renameSync(join(dir, 'docs/glossary.md'), join(dir, 'docs/terms.md'));
      writeFileSync(join(dir, 'docs/terms.md'), '# Glossary\n\n## Touchfile\n\n**Gate tier**: runs on every pull request.\n');
    });
    expect(show(removedTermMentions(renamed))).toEqual(['docs/guide.md:7:5-11 Oracle from docs/glossary.md']);
  });

  it('finds nothing for a term another glossary defines now, a glossary renamed intact (also to a document that is no glossary), a heading removed from a document that is no glossary, or without a diff', async () => {
    const moved = await diffModel(DOCS, (dir) => {
      writeFileSync(join(dir, 'docs/glossary.md'), '# Glossary\n');
      writeFiles(dir, { 'docs/concepts.md': '# Concepts\n\n## Touchfile\n\n## Gate tier\n\n## Oracle\n' });
    });
    expect(show(removedTermMentions(moved))).toEqual([]);
    const intact = await diffModel(DOCS, (dir) => {
      renameSync(join(dir, 'docs/glossary.md'), join(dir, 'docs/terms.md'));
    });
    expect(show(removedTermMentions(intact))).toEqual([]);
    const intoDocument = await diffModel(DOCS, (dir) => {
      renameSync(join(dir, 'docs/glossary.md'), join(dir, 'docs/reference.md'));
    });
    expect(show(removedTermMentions(intoDocument))).toEqual([]);
    const notGlossary = await diffModel({ ...DOCS, 'docs/howto.md': '# How to\n\n## Widget\n', 'docs/faq.md': '# FAQ\n\nWhat is a Widget?\n' }, (dir) => {
      writeFileSync(join(dir, 'docs/howto.md'), '# How to\n');
    });
    expect(show(removedTermMentions(notGlossary))).toEqual([]);
    const noDiff = (await buildModel({ cwd: makeGitRepo(DOCS), cache: false })).model;
    expect(removedTermMentions(noDiff)).toEqual([]);
  });
});
