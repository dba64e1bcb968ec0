/**
 * How deep a JSON text nests, counted without parsing it (one pass, no recursion), so a hostile body is refused
 * before anything that walks parsed values recursively (fingerprints, schemas, serializers) can overflow the stack.
 */
import { maxJsonDepth } from './limits.js';
import type { FieldProblem } from './problems.js';

/** True when `text` opens more than `limit` arrays or objects inside each other; brackets inside strings don't count. */
export function jsonNestsDeeperThan(text: string, limit: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text.charCodeAt(i);
    if (inString) {
      if (ch === 0x5c) i++; // a backslash escapes the next character, a quote included
      else if (ch === 0x22) inString = false;
    } else if (ch === 0x22) inString = true;
    else if (ch === 0x5b || ch === 0x7b) {
      if (++depth > limit) return true;
    } else if (ch === 0x5d || ch === 0x7d) depth--;
  }
  return false;
}

/** The `validation_errors` entry for a body nested too deep. */
export const tooDeepProblem: FieldProblem = { field: 'body', message: `must not nest arrays or objects more than ${maxJsonDepth} levels deep` };
