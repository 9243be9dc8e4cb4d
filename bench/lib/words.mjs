// Vocabulary for the synthetic harness: area names, test names, prose.

export const AREA_HEADS = [
  'billing', 'search', 'review', 'ledger', 'invoice', 'summary', 'citation', 'tone', 'answer', 'changelog',
  'triage', 'routing', 'pricing', 'refund', 'onboarding', 'alerts', 'audit', 'catalog', 'checkout', 'coupon',
  'dispatch', 'export', 'feed', 'forecast', 'glossary', 'ingest', 'inbox', 'labels', 'metrics', 'notify',
  'orders', 'payroll', 'quota', 'ranking', 'schedule', 'shipping', 'sync', 'tagging', 'translate', 'vault',
];

export const AREA_TAILS = [
  'core', 'api', 'cli', 'jobs', 'web', 'batch', 'admin', 'mobile', 'edge', 'worker',
  'import', 'report', 'stream', 'cache', 'policy', 'rules', 'store', 'index', 'gateway', 'queue',
  'digest', 'agent', 'planner', 'notes', 'panel', 'hooks', 'events', 'ledger', 'tasks', 'graph',
  'drafts', 'links',
];

export const SKILL_NAMES = [
  'review', 'summarize', 'triage', 'translate', 'cite', 'plan', 'refactor', 'explain', 'release', 'audit',
  'migrate', 'onboard', 'forecast', 'reconcile', 'label', 'rank', 'dedupe', 'draft', 'verify', 'archive',
];

export const VERBS = [
  'parses', 'formats', 'ranks', 'keeps', 'drops', 'merges', 'splits', 'sorts', 'groups', 'counts',
  'rejects', 'accepts', 'trims', 'escapes', 'resolves', 'caches', 'retries', 'limits', 'orders', 'dedupes',
];

export const NOUNS = [
  'records', 'titles', 'scores', 'tags', 'lines', 'headers', 'totals', 'ids', 'dates', 'links',
  'notes', 'labels', 'rows', 'fields', 'entries', 'blocks', 'names', 'ranges', 'units', 'codes',
];

export const QUALIFIERS = [
  'empty input', 'one record', 'duplicate ids', 'unicode titles', 'trailing whitespace', 'a missing score',
  'negative scores', 'a long title', 'mixed case tags', 'a blank line', 'windows line endings', 'a single tag',
  'the default limit', 'a zero limit', 'ties on score', 'an unknown field', 'nested quotes', 'a comment line',
];

export const SLUG_A = [
  'basic', 'empty', 'large', 'unicode', 'edge', 'dedupe', 'order', 'limit', 'merge', 'split',
  'escape', 'retry', 'cache', 'stale', 'nested', 'multi', 'single', 'partial', 'strict', 'loose',
];

export const SLUG_B = [
  'input', 'output', 'records', 'titles', 'scores', 'tags', 'headers', 'links', 'dates', 'ranges',
  'totals', 'notes', 'labels', 'rows', 'fields', 'blocks',
];

export const PROSE = (
  'the change each step reads report finding line file reviewer caller output section table ' +
  'record score title tag limit order rank summary detail context reason evidence source ' +
  'request response budget timeout retry cache index query result error warning note example ' +
  'always never only once before after when unless until while because so that which where ' +
  'check collect compare confirm verify explain list name quote cite keep drop merge split ' +
  'a an of to in for on with from by as at into over under between within without about'
).split(' ');
