import type * as z from 'zod/mini';
import { dataOf, resultOf } from '../contract/common.js';
import type { FieldProblem } from '../contract/problems.js';
import { readFront } from './answer-front.js';
import { InvalidResponseError } from './errors.js';
import type { Answer } from './send.js';

/**
 * Reading an answer against the contract, with the wording of schema problems left to the caller: the clients word
 * them (`toFieldProblems`), the element's link reader names them by issue code (`issueCodes`), so the chunk it needs
 * before the first interactive screen carries no wording.
 */

/** Words a zod error as field problems (the input is there to tell a missing field from a wrong one). */
export type DescribeProblems = (error: { issues: readonly z.core.$ZodIssue[] }, input: unknown) => FieldProblem[];

/**
 * How the result is wrapped: `data` (most endpoints), `result` (dashboard stats),
 * `result-or-data` (refund: the contract says `result`, the live docs show `data`),
 * `data-or-bare` (partner webhook endpoints, whose wrapper the contract does not show).
 */
export type Wrapper = 'data' | 'result' | 'result-or-data' | 'data-or-bare';

/** How to read an answer: the contract's schema of the unwrapped result, and its wrapper. */
export interface ReadSpec<S extends z.ZodMiniType> {
  schema: S;
  wrapper: Wrapper;
  /** A 204 or empty 2xx body counts as success, with no result. */
  allowEmpty?: boolean;
}

/** An answer read against the contract: the unwrapped result, or ServiceError / InvalidResponseError. */
export function readAnswerWith<S extends z.ZodMiniType>(answer: Answer, spec: ReadSpec<S>, describe: DescribeProblems): z.output<S> {
  const status = answer.status;
  const front = readFront(answer, spec.allowEmpty);
  if (!front) return undefined as z.output<S>;
  const { ok, json, failure } = front;
  if (!front.parsed) throw new InvalidResponseError(status);
  if (failure && !ok) throw new InvalidResponseError(status, describe(failure, json));
  const key = wrapperKey(spec.wrapper, json);
  // Validating the wrapper too makes problems name the full path (`data.id_order`).
  const schema = key === 'data' ? wrapped(spec.schema, 'data') : key === 'result' ? wrapped(spec.schema, 'result') : spec.schema;
  const result = schema.safeParse(json);
  if (!result.success) throw new InvalidResponseError(status, describe(result.error, json));
  const value = result.data as Record<string, unknown>;
  return (key ? value[key] : value) as z.output<S>;
}

/** One wrapper schema per result schema and key: zod compiles a schema on its first parse, so a new one per answer costs. */
const wrappers = { data: new WeakMap<z.ZodMiniType, z.ZodMiniType>(), result: new WeakMap<z.ZodMiniType, z.ZodMiniType>() };
function wrapped(schema: z.ZodMiniType, key: 'data' | 'result'): z.ZodMiniType {
  let outer = wrappers[key].get(schema);
  if (!outer) wrappers[key].set(schema, (outer = key === 'data' ? dataOf(schema) : resultOf(schema)));
  return outer;
}

function wrapperKey(wrapper: Wrapper, json: unknown): 'data' | 'result' | undefined {
  const has = (k: string) => typeof json === 'object' && json !== null && k in json;
  switch (wrapper) {
    case 'data':
      return 'data';
    case 'result':
      return 'result';
    case 'result-or-data':
      return has('data') && !has('result') ? 'data' : 'result';
    case 'data-or-bare':
      return has('data') ? 'data' : undefined;
  }
}

