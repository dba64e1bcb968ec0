import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import * as z from 'zod/mini';
import { Timestamp, parseWith } from '../../src/contract/index.js';

/** `Timestamp` writes out the pattern of `z.iso.datetime({ offset: true })` (see common.ts): it must accept the same. */
describe('Timestamp', () => {
  const zod = z.iso.datetime({ offset: true });
  const samples = [
    '2025-06-01T12:00:00.000Z',
    '2025-06-01T12:00:00Z',
    '2000-02-29T23:59:59.123456-03:00',
    '2024-02-29T00:00:00+05:30',
    '2025-06-01T12:00Z',
    '2025-02-29T00:00:00Z',
    '1900-02-29T00:00:00Z',
    '2025-04-31T00:00:00Z',
    '2025-13-01T00:00:00Z',
    '2025-06-01T24:00:00Z',
    '2025-06-01T12:00:60Z',
    '2025-06-01T12:00:00+0530',
    '2025-06-01T12:00:00',
    '2025-06-01 12:00:00Z',
    'yesterday',
  ];

  it('accepts and refuses exactly what z.iso.datetime({ offset: true }) does', () => {
    for (const sample of samples) assert.equal(Timestamp.safeParse(sample).success, zod.safeParse(sample).success, sample);
    assert.ok(samples.filter((s) => Timestamp.safeParse(s).success).length >= 4, 'the samples include valid ones');
  });

  it('words its problem as before', () => {
    const result = parseWith(Timestamp, '2025-02-30T00:00:00Z');
    assert.deepEqual(result, { ok: false, problems: [{ field: 'body', message: 'must be a valid datetime' }] });
    const before = parseWith(zod, '2025-02-30T00:00:00Z');
    assert.deepEqual(before, result);
  });
});
