import type { RepoModel } from '../../src/model/model.js';
import { isAllowed } from '../../src/analysis/text-scan.js';
import { compileGlobs } from '../../src/util/glob.js';
import type { RuleFinding } from '../../src/rule.js';
import { firstPerFile, timesNamed } from '../shared/mentions.js';
import { findMentions, isHistoryFile } from './mentions.js';

/**
 * Tokens of a mechanism the configuration declares removed, wherever they
 * still appear: outside the config itself, history files, and the paths the
 * entry allows.
 */
export function removedTokenFindings(model: RepoModel): RuleFinding<'removedToken'>[] {
  const entries = model.config.removed;
  if (entries.length === 0) return [];
  const byToken = new Map<string, { id: string; why: string; allowed: (file: string) => boolean }>();
  for (const entry of entries) {
    const allowed = compileGlobs(entry.allow);
    for (const token of entry.tokens) if (!byToken.has(token)) byToken.set(token, { id: entry.id, why: entry.why, allowed });
  }
  const skip = (file: string, token: string): boolean =>
    file === model.configFile || isHistoryFile(file) || (byToken.get(token)?.allowed(file) ?? false) || isAllowed(model, token, file);
  return firstPerFile(findMentions(model, [...byToken.keys()], skip), (mention) => mention.token).map(({ first: mention, count }) => {
    const entry = byToken.get(mention.token);
    const why = (entry?.why ?? '').trim();
    return {
      messageId: 'removedToken',
      file: mention.file,
      loc: mention.loc,
      message: `'${mention.token}' belongs to the removed mechanism '${entry?.id ?? ''}': ${why}${/[.!?]$/.test(why) ? '' : '.'} This reference outlived it; delete it, or list this file in the entry's allow globs.${timesNamed(count)}`,
    };
  });
}
