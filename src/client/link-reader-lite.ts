/**
 * The link answer read against the contract without zod, for the browser's first interactive screen: the browser
 * builds (build/lite-link-check.ts) hand this reader the link's and the error's schemas as compact shapes generated
 * from the zod schemas at build time, so the contract stays one zod schema and the chunk fetched beside the first
 * script drops zod's ~6 kB gzip. Same verdicts and issue codes as zod (test/node/link-reader-lite.test.ts).
 */
import type { CheckoutLink } from '../contract/checkout-link.js';
import type { FieldProblem } from '../contract/problems.js';
import { InvalidResponseError, ServiceError } from './errors.js';
import type { Answer } from './send.js';

/**
 * A schema as data: `s` string, `n` number, `i` safe integer, `b` boolean, `u` anything; `['s', regex]`,
 * `['i', min]`, `['e', values]` (enum or literal), `['?', inner]` optional, `['0', inner]` nullable, `['a', item]`,
 * `['o', { key: shape }]` (unknown keys allowed).
 */
export type LiteShape = string | [string, unknown];

const typeOf: Record<string, (v: unknown) => boolean> = {
  s: (v) => typeof v === 'string',
  n: (v) => typeof v === 'number' && Number.isFinite(v),
  i: Number.isInteger,
  b: (v) => typeof v === 'boolean',
  u: () => true,
  a: Array.isArray,
  o: (v) => typeof v === 'object' && v !== null && !Array.isArray(v),
};

/** The issues of `value` against `shape`, as zod names them: `{ field: 'gateways.0.kind', message: 'invalid value' }`. */
export function liteIssues(shape: LiteShape, value: unknown, path: string[] = [], issues: FieldProblem[] = []): FieldProblem[] {
  const [kind, arg] = typeof shape === 'string' ? [shape, undefined] : shape;
  const issue = (message: string) => issues.push({ field: path.length ? path.join('.') : 'body', message });
  if (kind === '?' || kind === '0') {
    if (value === (kind === '?' ? undefined : null)) return issues;
    return liteIssues(arg as LiteShape, value, path, issues);
  }
  if (kind === 'e') {
    if (!(arg as unknown[]).includes(value)) issue('invalid value');
    return issues;
  }
  if (!typeOf[kind]?.(value)) {
    issue('invalid type');
    return issues;
  }
  if (kind === 's' && arg !== undefined && !new RegExp(arg as string).test(value as string)) issue('invalid format');
  if (kind === 'i') {
    // As zod: outside the safe range is a size problem, and the minimum is checked too.
    if ((value as number) < Number.MIN_SAFE_INTEGER) issue('too small');
    if ((value as number) > Number.MAX_SAFE_INTEGER) issue('too big');
    if (arg !== undefined && (value as number) < (arg as number)) issue('too small');
  }
  // An index loop, not forEach: a hole in an array a page hands over is `undefined`, as zod sees it.
  if (kind === 'a') for (let i = 0; i < (value as unknown[]).length; i++) liteIssues(arg as LiteShape, (value as unknown[])[i], [...path, String(i)], issues);
  if (kind === 'o') {
    for (const [key, inner] of Object.entries(arg as Record<string, LiteShape>)) liteIssues(inner, (value as Record<string, unknown>)[key], [...path, key], issues);
  }
  return issues;
}

/** `readLinkAnswer` and `pageLink` of client/checkout-link.ts, over the generated shapes. */
export function linkReader(link: LiteShape, errorResponse: LiteShape) {
  const answerShape: LiteShape = ['o', { data: link }];
  return {
    readLinkAnswer({ status, text }: Answer): CheckoutLink {
      let json: unknown;
      try {
        json = JSON.parse(text);
      } catch {
        throw new InvalidResponseError(status);
      }
      const failure = liteIssues(errorResponse, json);
      if (failure.length === 0) throw new ServiceError(status, json as ConstructorParameters<typeof ServiceError>[1]);
      if (status < 200 || status > 299) throw new InvalidResponseError(status, failure);
      const problems = liteIssues(answerShape, json);
      if (problems.length) throw new InvalidResponseError(status, problems);
      return (json as { data: CheckoutLink }).data;
    },
    pageLink(answer: unknown, hash: string, now: number): CheckoutLink | undefined {
      const data = typeof answer === 'object' && answer !== null && 'data' in answer ? (answer as { data: unknown }).data : answer;
      if (liteIssues(link, data).length) return undefined;
      const found = data as CheckoutLink;
      if (found.hash !== hash) return undefined;
      return (found.expires_at === null ? Infinity : Date.parse(found.expires_at)) > now ? found : undefined;
    },
  };
}
