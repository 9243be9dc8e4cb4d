#!/usr/bin/env node
// The floor: the least work any checker of this repository must do, in one
// process. List the files (git ls-files), read every file the check reads,
// parse each script once with the TypeScript compiler's createSourceFile (no
// program, parent pointers off, AST dropped at once) and each Markdown file
// once with markdown-it. Prints its phases as JSON on stdout.
//
//   node bench/floor.mjs bench/out/1k
//
// "Files the check reads" = every script file (tests, helpers, maps, shipped
// source: the import closures reach all of them), the Markdown matched by
// shipped.include, and the JSON configuration files.

import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

const t0 = performance.now();
const root = path.resolve(process.argv[2] ?? '.');
const require = createRequire(import.meta.url);
const phases = {};
let mark = t0;
const lap = (name) => {
  const now = performance.now();
  phases[name] = Math.round((now - mark) * 10) / 10;
  mark = now;
};

const picomatch = require('picomatch');
const files = execFileSync('git', ['ls-files', '-z'], { cwd: root, encoding: 'utf8', maxBuffer: 1 << 30 }).split('\0').filter(Boolean);
lap('list');

const config = JSON.parse(readFileSync(path.join(root, 'tripwire.config.json'), 'utf8'));
const shipped = picomatch(config.shipped?.include ?? [], { dot: true });
const SCRIPT = /\.(?:[cm]?tsx?|[cm]?jsx?)$/;
const scripts = files.filter((file) => SCRIPT.test(file) && !file.endsWith('.d.ts'));
const markdown = files.filter((file) => file.endsWith('.md') && shipped(file));
const json = files.filter((file) => /(?:^|\/)(?:tripwire\.config|tsconfig|package)\.json$|^\.tripwire\/.*\.json$/.test(file));

const texts = new Map();
let bytes = 0;
for (const file of [...scripts, ...markdown, ...json]) {
  const text = readFileSync(path.join(root, file), 'utf8');
  bytes += text.length;
  texts.set(file, text);
}
lap('read');

const ts = require('typescript');
lap('loadTypeScript');
for (const file of scripts) {
  const kind = file.endsWith('x') ? (file.endsWith('.tsx') ? ts.ScriptKind.TSX : ts.ScriptKind.JSX) : /\.[cm]?js$/.test(file) ? ts.ScriptKind.JS : ts.ScriptKind.TS;
  ts.createSourceFile(file, texts.get(file), ts.ScriptTarget.Latest, false, kind);
}
lap('parseTypeScript');

const MarkdownIt = require('markdown-it');
const md = new MarkdownIt();
lap('loadMarkdownIt');
for (const file of markdown) md.parse(texts.get(file), {});
lap('parseMarkdown');
for (const file of json) JSON.parse(texts.get(file));
lap('parseJson');

process.stdout.write(
  `${JSON.stringify({
    files: { listed: files.length, scripts: scripts.length, markdown: markdown.length, json: json.length, bytes },
    phasesMs: phases,
    totalMs: Math.round(performance.now() - t0),
  })}\n`,
);
