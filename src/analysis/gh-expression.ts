// GitHub Actions expressions (`if:` conditions), parsed and evaluated with
// three values: a context the caller knows (the event, the author's
// association) and everything else unknown. "Definitely false" is the only
// answer that proves a job skipped; anything unknown may run.
// https://docs.github.com/en/actions/reference/workflows-and-actions/expressions

/** A value the evaluation could not know. */
export const UNKNOWN_VALUE: unique symbol = Symbol('unknown');

export type ExprValue = string | number | boolean | null | readonly ExprValue[] | typeof UNKNOWN_VALUE;

type Node =
  | { kind: 'literal'; value: ExprValue }
  | { kind: 'path'; path: string }
  /** A property chosen at run time (`secrets[matrix.key]`): unknown, its parts still read. */
  | { kind: 'dynamic'; parts: Node[] }
  | { kind: 'call'; name: string; args: Node[] }
  | { kind: 'not'; operand: Node }
  | { kind: 'binary'; op: string; left: Node; right: Node };

export type ExprNode = Node;

export interface ParsedExpression {
  root: Node;
  /** Every context path it reads, lower case (`github.event.pull_request.author_association`). */
  paths: string[];
  /** Every function it calls, lower case. */
  calls: string[];
}

/** Resolves a lower-case context path; `UNKNOWN_VALUE` for what the caller cannot know. */
export type Resolve = (path: string) => ExprValue;

/**
 * The expression of an `if:` value: the text itself, or the one `${{ … }}`
 * that wraps all of it. Null for a value that mixes text and expressions:
 * GitHub reads that as a non-empty string, always true.
 */
export function conditionExpression(text: string): string | null {
  const trimmed = text.trim();
  const wrapped = /^\$\{\{([\s\S]*)\}\}$/.exec(trimmed);
  if (wrapped) return (wrapped[1] ?? '').includes('${{') || (wrapped[1] ?? '').includes('}}') ? null : (wrapped[1] ?? '');
  return trimmed.includes('${{') ? null : trimmed;
}

export function parseExpression(text: string): ParsedExpression | { error: string } {
  try {
    const parser = new Parser(tokenize(text));
    const root = parser.expression();
    parser.end();
    return { root, paths: parser.paths, calls: parser.calls };
  } catch (error) {
    if (error instanceof SyntaxError) return { error: error.message };
    throw error;
  }
}

export function evaluate(expression: ParsedExpression, resolve: Resolve): ExprValue {
  return evaluateNode(expression.root, resolve);
}

/** The expression with each node `replace` answers replaced by its answer (a replaced node's children are not visited). */
export function substitute(expression: ParsedExpression, replace: (node: ExprNode) => ExprNode | null): ParsedExpression {
  const map = (node: Node): Node => {
    const replaced = replace(node);
    if (replaced) return replaced;
    switch (node.kind) {
      case 'dynamic':
        return { kind: 'dynamic', parts: node.parts.map(map) };
      case 'call':
        return { kind: 'call', name: node.name, args: node.args.map(map) };
      case 'not':
        return { kind: 'not', operand: map(node.operand) };
      case 'binary':
        return { kind: 'binary', op: node.op, left: map(node.left), right: map(node.right) };
      default:
        return node;
    }
  };
  return { ...expression, root: map(expression.root) };
}

/** A value as `${{ … }}` writes it into a string (a job's output): `true`, `3`, '' for null. */
export function asText(value: ExprValue): string | typeof UNKNOWN_VALUE {
  return value === UNKNOWN_VALUE ? value : text(value);
}

/** Truthiness: true, false, or unknown. */
export function truth(value: ExprValue): boolean | typeof UNKNOWN_VALUE {
  if (value === UNKNOWN_VALUE) return UNKNOWN_VALUE;
  return !(value === false || value === null || value === 0 || value === '' || (typeof value === 'number' && Number.isNaN(value)));
}

interface Token {
  kind: 'string' | 'number' | 'word' | 'op';
  text: string;
}

const OPERATORS = ['==', '!=', '<=', '>=', '&&', '||', '<', '>', '!', '(', ')', '[', ']', '.', ',', '*'];

function tokenize(text: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  while (i < text.length) {
    const ch = text[i] ?? '';
    if (/\s/.test(ch)) {
      i++;
      continue;
    }
    if (ch === "'") {
      let value = '';
      i++;
      for (;;) {
        if (i >= text.length) throw new SyntaxError('an unterminated string');
        if (text[i] === "'") {
          if (text[i + 1] === "'") {
            value += "'";
            i += 2;
            continue;
          }
          i++;
          break;
        }
        value += text[i];
        i++;
      }
      tokens.push({ kind: 'string', text: value });
      continue;
    }
    const number = /^(?:0x[0-9a-f]+|-?\d+(?:\.\d+)?(?:e[+-]?\d+)?)/i.exec(text.slice(i));
    if (number && (number[0][0] !== '-' || tokens.length === 0 || tokens.at(-1)?.kind === 'op')) {
      tokens.push({ kind: 'number', text: number[0] });
      i += number[0].length;
      continue;
    }
    const word = /^[A-Za-z_][A-Za-z0-9_-]*/.exec(text.slice(i));
    if (word) {
      tokens.push({ kind: 'word', text: word[0] });
      i += word[0].length;
      continue;
    }
    const op = OPERATORS.find((candidate) => text.startsWith(candidate, i));
    if (op === undefined) throw new SyntaxError(`an unexpected character '${ch}'`);
    tokens.push({ kind: 'op', text: op });
    i += op.length;
  }
  return tokens;
}

const PRECEDENCE: Record<string, number> = { '||': 1, '&&': 2, '==': 3, '!=': 3, '<': 4, '<=': 4, '>': 4, '>=': 4 };

class Parser {
  readonly paths: string[] = [];
  readonly calls: string[] = [];
  private at = 0;

  constructor(private readonly tokens: Token[]) {}

  end(): void {
    const token = this.tokens[this.at];
    if (token !== undefined) throw new SyntaxError(`an unexpected '${token.text}'`);
  }

  expression(min = 1): Node {
    let left = this.unary();
    for (;;) {
      const token = this.tokens[this.at];
      const precedence = token?.kind === 'op' ? PRECEDENCE[token.text] : undefined;
      if (token === undefined || precedence === undefined || precedence < min) return left;
      this.at++;
      left = { kind: 'binary', op: token.text, left, right: this.expression(precedence + 1) };
    }
  }

  private unary(): Node {
    if (this.accept('!')) return { kind: 'not', operand: this.unary() };
    return this.postfix(this.primary());
  }

  private primary(): Node {
    const token = this.tokens[this.at++];
    if (token === undefined) throw new SyntaxError('an incomplete expression');
    if (token.kind === 'string') return { kind: 'literal', value: token.text };
    if (token.kind === 'number') return { kind: 'literal', value: Number(token.text) };
    if (token.kind === 'op' && token.text === '(') {
      const inner = this.expression();
      this.expect(')');
      return inner;
    }
    if (token.kind !== 'word') throw new SyntaxError(`an unexpected '${token.text}'`);
    const lower = token.text.toLowerCase();
    if (lower === 'true' || lower === 'false') return { kind: 'literal', value: lower === 'true' };
    if (lower === 'null') return { kind: 'literal', value: null };
    if (this.accept('(')) {
      const args: Node[] = [];
      if (!this.accept(')')) {
        do args.push(this.expression());
        while (this.accept(','));
        this.expect(')');
      }
      this.calls.push(lower);
      return { kind: 'call', name: lower, args };
    }
    return { kind: 'path', path: lower };
  }

  /** `.name`, `.*`, `['name']` extend a path; any other index makes it dynamic. */
  private postfix(node: Node): Node {
    let current = node;
    for (;;) {
      if (this.accept('.')) {
        const next = this.tokens[this.at++];
        const name = next?.kind === 'word' ? next.text.toLowerCase() : next?.text === '*' ? '*' : null;
        if (name === null) throw new SyntaxError('a property name expected after "."');
        current = current.kind === 'path' ? { kind: 'path', path: `${current.path}.${name}` } : { kind: 'dynamic', parts: [current] };
      } else if (this.accept('[')) {
        const index = this.expression();
        this.expect(']');
        if (current.kind === 'path' && index.kind === 'literal' && typeof index.value === 'string') current = { kind: 'path', path: `${current.path}.${index.value.toLowerCase()}` };
        else current = { kind: 'dynamic', parts: [current, index] };
      } else {
        if (current.kind === 'path') this.paths.push(current.path);
        return current;
      }
    }
  }

  private accept(op: string): boolean {
    const token = this.tokens[this.at];
    if (token?.kind !== 'op' || token.text !== op) return false;
    this.at++;
    return true;
  }

  private expect(op: string): void {
    if (!this.accept(op)) throw new SyntaxError(`'${op}' expected`);
  }
}

function evaluateNode(node: Node, resolve: Resolve): ExprValue {
  switch (node.kind) {
    case 'literal':
      return node.value;
    case 'path':
      return resolve(node.path);
    case 'dynamic':
      return UNKNOWN_VALUE;
    case 'not': {
      const value = truth(evaluateNode(node.operand, resolve));
      return value === UNKNOWN_VALUE ? UNKNOWN_VALUE : !value;
    }
    case 'call':
      return call(node.name, node.args.map((arg) => evaluateNode(arg, resolve)));
    case 'binary':
      return binary(node.op, node.left, node.right, resolve);
  }
}

function binary(op: string, leftNode: Node, rightNode: Node, resolve: Resolve): ExprValue {
  const left = evaluateNode(leftNode, resolve);
  if (op === '&&' || op === '||') {
    const leftTruth = truth(left);
    // && returns the first falsy operand, || the first truthy one.
    if (leftTruth === (op === '||')) return left;
    const right = evaluateNode(rightNode, resolve);
    if (leftTruth !== UNKNOWN_VALUE) return right;
    // Left unknown: a falsy right makes && falsy and a truthy right makes || truthy, whichever the left is.
    const rightTruth = truth(right);
    if (op === '&&' && rightTruth === false) return false;
    if (op === '||' && rightTruth === true) return true;
    return UNKNOWN_VALUE;
  }
  const right = evaluateNode(rightNode, resolve);
  if (left === UNKNOWN_VALUE || right === UNKNOWN_VALUE) return UNKNOWN_VALUE;
  switch (op) {
    case '==':
      return equals(left, right);
    case '!=':
      return !equals(left, right);
    default: {
      const a = toNumber(left);
      const b = toNumber(right);
      return op === '<' ? a < b : op === '<=' ? a <= b : op === '>' ? a > b : a >= b;
    }
  }
}

/** GitHub's loose equality: strings ignore case; operands of different types compare as numbers. */
function equals(left: Exclude<ExprValue, typeof UNKNOWN_VALUE>, right: Exclude<ExprValue, typeof UNKNOWN_VALUE>): boolean {
  if (typeof left === 'string' && typeof right === 'string') return left.toLowerCase() === right.toLowerCase();
  if (Array.isArray(left) || Array.isArray(right)) return left === right;
  if (typeof left === typeof right) return left === right;
  return toNumber(left) === toNumber(right);
}

function toNumber(value: Exclude<ExprValue, typeof UNKNOWN_VALUE>): number {
  if (value === null) return 0;
  if (typeof value === 'boolean') return value ? 1 : 0;
  if (typeof value === 'number') return value;
  if (typeof value === 'string') return value.trim() === '' ? 0 : Number(value);
  return Number.NaN;
}

function text(value: Exclude<ExprValue, typeof UNKNOWN_VALUE>): string {
  if (value === null) return '';
  if (Array.isArray(value)) return 'Array';
  return String(value);
}

function call(name: string, args: ExprValue[]): ExprValue {
  switch (name) {
    case 'always':
      return true;
    case 'contains':
    case 'startswith':
    case 'endswith': {
      const [search, item] = args;
      if (search === undefined || item === undefined || search === UNKNOWN_VALUE || item === UNKNOWN_VALUE) return UNKNOWN_VALUE;
      if (Array.isArray(search) && name === 'contains') {
        if (search.some((element) => element !== UNKNOWN_VALUE && equals(element, item))) return true;
        return search.includes(UNKNOWN_VALUE) ? UNKNOWN_VALUE : false;
      }
      const haystack = text(search).toLowerCase();
      const needle = text(item).toLowerCase();
      return name === 'contains' ? haystack.includes(needle) : name === 'startswith' ? haystack.startsWith(needle) : haystack.endsWith(needle);
    }
    case 'fromjson': {
      const [json] = args;
      if (typeof json !== 'string') return UNKNOWN_VALUE;
      try {
        return fromJson(JSON.parse(json));
      } catch {
        return UNKNOWN_VALUE;
      }
    }
    default:
      // success(), failure(), cancelled(), format(), hashFiles(), toJSON(), join(): not known here.
      return UNKNOWN_VALUE;
  }
}

function fromJson(value: unknown): ExprValue {
  if (value === null || typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') return value;
  if (Array.isArray(value)) return value.map(fromJson);
  return UNKNOWN_VALUE;
}
