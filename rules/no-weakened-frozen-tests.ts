import * as z from 'zod';
import { createRule } from '../src/rule.js';
import { inspect } from './no-weakened-frozen-tests-utils/inspect.js';

export default createRule({
  id: 'no-weakened-frozen-tests',
  meta: {
    description: 'Frozen tests still exist, run, and keep their pinned body, assertions, timeout and retries; locked fixtures keep their bytes; a diff never re-pins what it changes.',
    languages: ['js/js', 'json/json'],
    recommended: true,
  },
  options: z.strictObject({}),
  check(model) {
    return inspect(model).map(({ file, loc, message, related }) => ({ file, loc, message, ...(related && { related }) }));
  },
});
