import * as z from 'zod';
import { createRule } from '../src/rule.js';
import { FROZEN_MESSAGES, inspect, MESSAGE_IDS } from '../src/frozen/inspect.js';

export default createRule({
  id: 'no-weakened-frozen-tests',
  meta: {
    description: 'Frozen tests still exist, run, and keep their pinned body, assertions, timeout and retries; locked fixtures keep their bytes; a diff never re-pins what it changes.',
    languages: ['js/js', 'json/json'],
    recommended: true,
    messages: FROZEN_MESSAGES,
  },
  options: z.strictObject({}),
  check(model) {
    return inspect(model).map(({ kind, file, loc, message, related }) => ({ messageId: MESSAGE_IDS[kind], file, loc, message, ...(related && { related }) }));
  },
});
