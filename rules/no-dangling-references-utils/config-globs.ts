import { posix } from 'node:path';
import { findNodeAtLocation, parseTree, type Node } from 'jsonc-parser';
import { deadGlob } from '../shared/dead-glob.js';
import type { RepoModel } from '../../src/model/model.js';
import { lineIndex, rangeLoc } from '../../src/model/positions.js';
import { isDynamicGlob } from '../../src/util/glob.js';
import type { RuleFinding } from '../../src/rule.js';

/**
 * The globs of the shipped-artifact and removal settings that the core check
 * does not already cover: each must still match a file, or it silently
 * narrows what is checked (or allowed) to nothing.
 */
export function deadConfigGlobs(model: RepoModel): RuleFinding<'deadGlob'>[] {
  const configFile = model.configFile;
  if (configFile === null) return [];
  const text = model.text(configFile);
  const tree = text === null ? undefined : parseTree(text);
  if (text === null || !tree) return [];
  const prefix = posix.basename(configFile) === 'package.json' ? ['tripwire'] : [];
  const position = lineIndex(text);
  const findings: RuleFinding<'deadGlob'>[] = [];
  const check = (node: Node | undefined, consequence: string, onlyGlobs = false): void => {
    for (const element of node?.children ?? []) {
      const value: unknown = element.value;
      if (typeof value !== 'string' || value.startsWith('!')) continue;
      if (onlyGlobs && !value.includes('/') && !isDynamicGlob(value)) continue;
      const loc = rangeLoc(position, element.offset, element.offset + element.length);
      const dead = deadGlob(model, { value, file: configFile, loc }, consequence);
      if (dead) findings.push(dead);
    }
  };
  const at = (...path: (string | number)[]): Node | undefined => findNodeAtLocation(tree, [...prefix, ...path]);
  check(at('shipped', 'exclude'), 'it excludes nothing from the shipped artifacts');
  check(at('shipped', 'illustrative'), 'no file is marked illustrative by it', true);
  model.config.shipped.allow.forEach((_entry, index) => check(at('shipped', 'allow', index, 'files'), 'the exception it scopes applies nowhere'));
  model.config.removed.forEach((_entry, index) => check(at('removed', index, 'allow'), 'it allows the removed tokens nowhere'));
  return findings;
}
