import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildModel } from '../../src/engine/index.js';
import { extractMarkdownFacts, githubSlug } from '../../src/facts/extract-markdown.js';
import { makeGitRepo } from '../support/repo.js';
import type { Loc } from '../../src/types.js';

function at(loc: Loc): string {
  return `${loc.line}:${loc.column}-${loc.endLine}:${loc.endColumn}`;
}

describe('extractMarkdownFacts', () => {
  it('locates inline code spans, including several on one line and inside list items', () => {
    const facts = extractMarkdownFacts('# Steps\n\n1. Run `gh pr view` then `gh pr diff`.\n   - nested `CMR_FIXTURE` here\n');
    expect(facts.code.map((run) => `${run.text} ${at(run.loc)}`)).toEqual(['gh pr view 3:9-3:19', 'gh pr diff 3:27-3:37', 'CMR_FIXTURE 4:14-4:25']);
  });

  it('records link, image and definition targets where they are written, not their labels', () => {
    const facts = extractMarkdownFacts('See [refs/a.md](refs/a.md#top "title") and ![chart](img/c.png).\n\n[guide]: ./guide.md\n\nUse [the guide][guide] and <https://example.com/x>.\n');
    expect(facts.links.map((link) => `${link.kind} ${link.target} ${at(link.loc)}`)).toEqual([
      'link refs/a.md#top 1:17-1:30',
      'image img/c.png 1:53-1:62',
      'definition ./guide.md 3:10-3:20',
    ]);
  });

  it('gives headings GitHub anchors, numbering duplicates like GitHub', () => {
    const facts = extractMarkdownFacts('# Step 2: Fetch `gh` data!\n\n## Notes\n\n## Notes\n\nSetext heading\n---\n');
    expect(facts.headings.map((heading) => `${heading.level} ${heading.anchor} ${heading.loc.line}`)).toEqual(['1 step-2-fetch-gh-data 1', '2 notes 3', '2 notes-1 5', '2 setext-heading 7']);
    expect(githubSlug('Über die API — v2.0')).toBe('über-die-api--v20');
  });

  it('splits shell code blocks into commands and env assignments and reads, with positions', () => {
    const facts = extractMarkdownFacts('Intro.\n\n  ```console\n  $ CMR_FIXTURE=specimens/a gh pr view "$PR" \\\n      --json body\n  ```\n\n```ts\nconst x = process.env.X;\n```\n');
    const [shell, ts] = facts.fences;
    expect(shell?.lang).toBe('console');
    expect(shell?.commands).toEqual([['gh', 'pr', 'view', '$PR', '--json', 'body']]);
    expect(shell?.env.map((ref) => `${ref.op} ${ref.name} ${at(ref.loc)}`)).toEqual(['set CMR_FIXTURE 4:5-4:16', 'read PR 4:42-4:44']);
    expect(shell?.lines.map((run) => at(run.loc))).toEqual(['4:3-4:47', '5:3-5:18']);
    expect(ts?.lang).toBe('ts');
    expect(ts?.commands).toEqual([]);
  });

  it('reads front matter keys and values with positions and keeps its raw lines', () => {
    const facts = extractMarkdownFacts('---\nname: review\ntools: [gh, git]\nmeta:\n  owner: "@ilya"\n---\n# Review\n');
    expect(facts.frontMatter?.entries.map((entry) => `${entry.key}=${entry.value} ${at(entry.loc)}`)).toEqual([
      'name=review 2:7-2:13',
      'tools=null 3:1-3:6',
      'tools.0=gh 3:9-3:11',
      'tools.1=git 3:13-3:16',
      'meta=null 4:1-4:5',
      'meta.owner=@ilya 5:10-5:17',
    ]);
    expect(facts.frontMatter?.lines.map((run) => run.text)).toEqual(['name: review', 'tools: [gh, git]', 'meta:', '  owner: "@ilya"']);
    expect(facts.headings[0]?.loc.line).toBe(7);
  });

  it('reports front matter it cannot parse instead of skipping it', () => {
    const facts = extractMarkdownFacts('---\nname: [unclosed\n---\n# Title\n');
    expect(facts.parseErrors.length).toBeGreaterThan(0);
    expect(facts.parseErrors[0]?.message).toMatch(/^front matter: /);
  });

  it('reads the rest of a file after 50 levels of nested list markers', () => {
    const facts = extractMarkdownFacts(`${'- '.repeat(50)}deep\n\nHonour \`CMR_FIXTURE\` when set.\n`);
    expect(facts.parseErrors).toEqual([]);
    expect(facts.code.map((run) => `${run.text} ${at(run.loc)}`)).toEqual(['CMR_FIXTURE 3:9-3:20']);
  });

  it('reports blocks nested deeper than the parser reads as a parse error at the line where it stops', () => {
    const facts = extractMarkdownFacts(`# Skill\n\n${'- '.repeat(600)}deep\n\nHonour \`CMR_FIXTURE\` when set.\n`);
    expect(facts.parseErrors.map((error) => `${at(error.loc)} ${error.message}`)).toEqual([
      '3:1-3:1205 blocks nest deeper than 1000 levels at line 3: the Markdown parser stops there, and nothing nested deeper was read',
    ]);
  });

  it('records prose, table cells and HTML as text runs, and HTML anchors', () => {
    const facts = extractMarkdownFacts('| tool | path |\n|---|---|\n| gh | `bin/gh` and gh |\n\n<a id="degraded"></a>\n<!-- CMR_FIXTURE -->\n');
    expect(facts.text.map((run) => `${run.text} ${at(run.loc)}`)).toEqual([
      'tool 1:3-1:7',
      'path 1:10-1:14',
      'gh 3:3-3:5',
      ' and gh 3:16-3:23',
      '<a id="degraded"> 5:1-5:18',
      '</a> 5:18-5:22',
      '<!-- CMR_FIXTURE --> 6:1-6:21',
    ]);
    expect(facts.code.map((run) => at(run.loc))).toEqual(['3:9-3:15']);
    expect(facts.htmlAnchors).toEqual(['degraded']);
  });

  it('falls back to word positions when escapes change the text', () => {
    const facts = extractMarkdownFacts('Use \\*not\\* CMR\\_FIXTURE &amp; more.\n');
    expect(facts.text.map((run) => `${run.text} ${at(run.loc)}`)).toEqual(['Use 1:1-1:4', '*not* 1:5-1:12', 'CMR_FIXTURE 1:13-1:25', '& 1:26-1:27', 'more. 1:32-1:37']);
  });
});

describe('RepoModel.markdownFacts', () => {
  it('parses a Markdown file once and serves it from the fact cache on the next run', async () => {
    const cwd = makeGitRepo({ 'tripwire.config.json': '{}', 'skills/a/SKILL.md': '# A\n\nRun `gh pr view`.\n', 'src/a.ts': 'export const a = 1;\n' });
    const cacheLocation = mkdtempSync(join(tmpdir(), 'tripwire-cache-'));
    const first = await buildModel({ cwd, cacheLocation });
    expect(first.model.markdownFacts('skills/a/SKILL.md')?.code.map((run) => run.text)).toEqual(['gh pr view']);
    expect(first.model.markdownFacts('src/a.ts')).toBeNull();
    expect(first.model.stats).toMatchObject({ parsed: 1, cached: 0, read: 1 });
    first.cache.save();
    const second = await buildModel({ cwd, cacheLocation });
    expect(second.model.markdownFacts('skills/a/SKILL.md')?.headings.map((heading) => heading.anchor)).toEqual(['a']);
    // Committed and unmodified: found by its blob id, not read.
    expect(second.model.stats).toMatchObject({ parsed: 0, cached: 1, read: 0 });
  });
});
