import { describe, expect, it } from 'vitest';
import { buildModel } from '../../../src/engine/index.js';
import type { RepoModel } from '../../../src/model/model.js';
import { missingReferences, pathRefs } from '../../../rules/no-dangling-references-utils/references.js';
import { makeGitRepo } from '../../support/repo.js';

async function model(files: Record<string, string>): Promise<RepoModel> {
  return (await buildModel({ cwd: makeGitRepo(files), cache: false })).model;
}

const SKILL = 'skills/review/SKILL.md';

const CATALOG = {
  'tripwire.config.json': JSON.stringify({
    tests: { include: ['tests/**/*.test.ts'] },
    shipped: {
      include: ['skills/**/*'],
      allow: [
        { token: 'references/allowed.md', files: ['skills/**'], reason: 'A file the reader creates.' },
        { token: '#allowed-anchor', reason: 'Rendered by the site.' },
        { token: 'references/elsewhere.md', files: ['docs/**'], reason: 'Only in the docs.' },
      ],
    },
  }),
  'skills/review/references/grading.md': '# Grading\n\n## Severity tiers\n\n<a id="legacy-anchor"></a>\n',
  'skills/review/scripts/collect.sh': '#!/bin/sh\ncat references/collected.md\n',
  'skills/other/SKILL.md': '# Other\n',
  'tests/review.test.ts': 'export {};\n',
  [SKILL]: [
    '# Review',
    '',
    'See [grading](references/grading.md) and [outcomes](references/outcomes.md).',
    '',
    'Tiers: [a](references/grading.md#severity-levels) [b](references/grading.md#Severity-Tiers) [c](references/grading.md#legacy-anchor) [d](#review) [e](#nowhere) [f](#allowed-anchor) [g](references/grading.md#)',
    '',
    '[site](https://example.com/x.md) [mail](mailto:a@b.c) [cdn](//cdn.example.com/x.md) [query](references/grading.md?plain=1) [space](references/grading%20old.md)',
    '',
    'Use `references/gradng.md` for typos, never `references/allowed.md` or `references/elsewhere.md`.',
    '',
    'Run `./scripts/collect.sh`, `./scripts/missing.sh`, `./scripts/-x.md`, `./nowhere/x.md` and `../other/SKILL.md` and `../other/missing.md`.',
    '',
    'Paths in prose like references/nothing.md are not checked.',
    '',
    '```sh',
    'cat references/none.md',
    '```',
    '',
    '```diff',
    '+++ b/references/patched.md',
    '```',
    '',
    '```md illustrative',
    'see references/example.md',
    '```',
    '',
    '```text',
    'references/plain.md',
    '```',
    '',
    '`<name>/SKILL.md` `notes/YYYY-MM-DD.md` `out/` `and/or` `src/*.ts` `a/b…md` `XXX/a.md`',
    '',
    '`skills/gone/SKILL.md` and `skills/other/SKILL.md` and `elsewhere/a.md` and `review/SKILL.md`',
    '',
    '[abs](/skills/other/SKILL.md) [absent](/skills/gone.md) [route](/providers/openai) [up](../../../outside.md)',
  ].join('\n'),
  'skills/review/page.mdx': '# Page\n\n[route](guide/setup) [file](guide/setup.md) [anchor](#page)\n',
  'skills/review/notes.txt': 'See references/txt-missing.md\n# see references/comment.md\n',
  'skills/review/tool.ts': "import x from './lib/x.js';\nimport y from '../../outside.js';\nimport z from 'pkg/sub';\nexport const p = 'references/a.md';\nexport const q = 'noslash';\n",
};

function show(found: ReturnType<typeof missingReferences>): string[] {
  return found.map((f) => `${f.messageId} ${f.loc.line}:${f.loc.column}-${f.loc.endColumn} ${f.message}`);
}

describe('missingReferences', () => {
  it('reports each link, code span and block path of shipped Markdown that names nothing in the repository, with a near name as a hint', async () => {
    const m = await model(CATALOG);
    expect(show(missingReferences(m, SKILL))).toEqual([
      'missingPath 3:53-75 names references/outcomes.md, which does not exist: a reader told to use it finds nothing. Fix the path or remove the reference.',
      'missingAnchor 5:12-49 links to #severity-levels in skills/review/references/grading.md, which has no such heading (did you mean #severity-tiers?): the heading was renamed or removed. Update the anchor.',
      'missingAnchor 5:151-159 links to #nowhere in this file, which has no such heading: the heading was renamed or removed. Update the anchor.',
      'missingPath 7:132-159 names references/grading old.md, which does not exist (did you mean skills/review/references/grading.md?): a reader told to use it finds nothing. Fix the path or remove the reference.',
      'missingPath 9:6-26 names references/gradng.md, which does not exist (did you mean skills/review/references/grading.md?): a reader told to use it finds nothing. Fix the path or remove the reference.',
      'missingPath 9:73-96 names references/elsewhere.md, which does not exist: a reader told to use it finds nothing. Fix the path or remove the reference.',
      'missingPath 11:30-50 names ./scripts/missing.sh, which does not exist: a reader told to use it finds nothing. Fix the path or remove the reference.',
      'missingPath 11:118-137 names ../other/missing.md, which does not exist: a reader told to use it finds nothing. Fix the path or remove the reference.',
      'missingPath 28:1-20 names references/plain.md, which does not exist: a reader told to use it finds nothing. Fix the path or remove the reference.',
      'missingPath 33:2-22 names skills/gone/SKILL.md, which does not exist: a reader told to use it finds nothing. Fix the path or remove the reference.',
      'missingPath 35:40-55 names /skills/gone.md, which does not exist: a reader told to use it finds nothing. Fix the path or remove the reference.',
    ]);
  });

  it('reports a file link of an MDX page but not a route, and a plain text line but not a comment or a script', async () => {
    const m = await model(CATALOG);
    expect(show(missingReferences(m, 'skills/review/page.mdx'))).toEqual([
      'missingPath 3:29-43 names guide/setup.md, which does not exist: a reader told to use it finds nothing. Fix the path or remove the reference.',
    ]);
    expect(show(missingReferences(m, 'skills/review/notes.txt'))).toEqual([
      'missingPath 1:5-30 names references/txt-missing.md, which does not exist: a reader told to use it finds nothing. Fix the path or remove the reference.',
    ]);
    expect(show(missingReferences(m, 'skills/review/scripts/collect.sh'))).toEqual([]);
    expect(show(missingReferences(m, 'skills/review/tool.ts'))).toEqual([]);
  });
});

describe('pathRefs', () => {
  it("reads a script's strings with a slash and its relative imports, with the places they may point", async () => {
    const m = await model(CATALOG);
    expect(pathRefs(m, 'skills/review/tool.ts').map((ref) => `${ref.where} ${ref.written} ${ref.loc.line}:${ref.loc.column} [${ref.candidates.join(' ')}]`)).toEqual([
      'string references/a.md 4:18 [references/a.md skills/review/references/a.md]',
      'import ./lib/x.js 1:1 [skills/review/lib/x.js]',
      'import ../../outside.js 2:1 [outside.js]',
    ]);
  });

  it('marks a link with its anchor, a block path as illustrative or a command, and reads no diff block', async () => {
    const m = await model(CATALOG);
    const refs = pathRefs(m, SKILL);
    expect(refs.filter((ref) => ref.anchor !== undefined).map((ref) => `${ref.written}#${ref.anchor} [${ref.candidates.join(' ')}]`)).toEqual([
      'references/grading.md#severity-levels [skills/review/references/grading.md]',
      'references/grading.md#Severity-Tiers [skills/review/references/grading.md]',
      'references/grading.md#legacy-anchor [skills/review/references/grading.md]',
      '#review#review [skills/review/SKILL.md]',
      '#nowhere#nowhere [skills/review/SKILL.md]',
      '#allowed-anchor#allowed-anchor [skills/review/SKILL.md]',
      'references/grading.md# [skills/review/references/grading.md]',
    ]);
    expect(refs.filter((ref) => ref.illustrative || ref.command).map((ref) => `${ref.written} ${ref.illustrative ? 'illustrative' : ''}${ref.command ? 'command' : ''}`)).toEqual([
      'references/none.md command',
      'references/example.md illustrative',
    ]);
    expect(refs.some((ref) => ref.written.includes('patched'))).toBe(false);
    expect(refs.filter((ref) => ref.where === 'link' && ref.written.includes('outside')).map((ref) => ref.candidates)).toEqual([[]]);
    expect(pathRefs(m, 'skills/review/scripts/collect.sh').map((ref) => `${ref.written} ${ref.where} ${ref.command === true}`)).toEqual(['references/collected.md line true']);
  });
});
