import { parseTree, type Node } from 'jsonc-parser';

/**
 * Keys refused at every level of the configuration, the manifests and JSON/YAML
 * maps: a JSON parser that assigns `obj[key] = value` (jsonc-parser does) gives
 * `__proto__` to the object's prototype, where a validator sees no own key but
 * a lookup finds its settings; `constructor` and `prototype` shadow what every
 * object inherits. No tripwire setting, path or test id is named so.
 */
export const FORBIDDEN_KEYS: ReadonlySet<string> = new Set(['__proto__', 'constructor', 'prototype']);

export interface ForbiddenKey {
  /** The key path down to the key itself (`rules.__proto__`, `tests[0].constructor`). */
  path: (string | number)[];
  key: string;
  /** The key's offset and length in the text. */
  offset: number;
  length: number;
}

/** Every forbidden key in a JSON(C) text, in order; `within` limits the search to the value at that key path (the root's own keys are always searched). */
export function forbiddenJsonKeys(text: string, within: readonly string[] = []): ForbiddenKey[] {
  const tree = parseTree(text, [], { allowTrailingComma: true });
  if (!tree) return [];
  const found: ForbiddenKey[] = [];
  if (within.length === 0) {
    collect(tree, [], found);
    return found;
  }
  // The root's own keys, for `{"__proto__": {"tripwire": …}}` in package.json; then the scoped value.
  for (const property of tree.type === 'object' ? (tree.children ?? []) : []) {
    const keyNode = property.children?.[0];
    if (keyNode && typeof keyNode.value === 'string' && FORBIDDEN_KEYS.has(keyNode.value)) found.push({ path: [keyNode.value], key: keyNode.value, offset: keyNode.offset, length: keyNode.length });
  }
  let node: Node | undefined = tree;
  for (const key of within) node = node?.type === 'object' ? node.children?.find((property) => property.children?.[0]?.value === key)?.children?.[1] : undefined;
  if (node) collect(node, [...within], found);
  return found;
}

function collect(node: Node, path: (string | number)[], found: ForbiddenKey[]): void {
  if (node.type === 'array') {
    (node.children ?? []).forEach((child, index) => collect(child, [...path, index], found));
    return;
  }
  if (node.type !== 'object') return;
  for (const property of node.children ?? []) {
    const [keyNode, valueNode] = property.children ?? [];
    if (!keyNode || typeof keyNode.value !== 'string') continue;
    const at = [...path, keyNode.value];
    if (FORBIDDEN_KEYS.has(keyNode.value)) found.push({ path: at, key: keyNode.value, offset: keyNode.offset, length: keyNode.length });
    if (valueNode) collect(valueNode, at, found);
  }
}

/** `rules.__proto__`, `tests.ids[0].constructor`. */
export function formatKeyPath(path: readonly (string | number)[]): string {
  let out = '';
  for (const segment of path) out += typeof segment === 'number' ? `[${segment}]` : out === '' ? segment : `.${segment}`;
  return out;
}

export function forbiddenKeyMessage(key: string): string {
  return key === '__proto__'
    ? "the key '__proto__' is refused at every level: a JSON parser gives its value to the object's prototype, where it applies unseen; remove it"
    : `the key '${key}' is refused at every level: it shadows what every object inherits; rename or remove it`;
}
