/**
 * `ownOrderSchemas()`: a build plugin for the browser builds that gives the order client and the kept receipt (the later steps' chunk) their
 * own copy of zod and of the contract, instead of sharing the link schemas' chunk. A bundler places a module in one
 * chunk whole, so when the two share `zod/v4/core/schemas.js`, every zod type the order schemas use (discriminated
 * unions, URLs, e-mails, pipes…) lands in the chunk the first interactive screen waits for. With a copy of its own,
 * the link schemas' chunk holds only what validating the link answer needs; the later steps, fetched after the first
 * screen is painted, carry the rest. The typed error classes (client/errors.ts) and `send` stay shared.
 */
import type { Plugin } from 'vite';

const mark = '?order-schemas';
/** Where the copy starts: the order client and the kept receipt's check, imported only by the later steps. */
const root = /[\\/]src[\\/](?:client[\\/]checkout-client|element[\\/]order[\\/]receipt-store)\.ts$/;
/** What the copy holds: zod and every module that builds or reads schemas with it. */
const copied = /[\\/]node_modules[\\/]zod[\\/]|[\\/]src[\\/]contract[\\/]|[\\/]src[\\/]client[\\/](?:http|read-answer|checkout-link|link-client|checkout-client)\.ts$/;

export const withoutMark = (id: string) => (id.endsWith(mark) ? id.slice(0, -mark.length) : id);

export function ownOrderSchemas(): Plugin {
  return {
    name: 'pay-checkout-own-order-schemas',
    apply: 'build',
    enforce: 'pre',
    async resolveId(source, importer, options) {
      if (!importer || source.endsWith(mark)) return null;
      const fromCopy = importer.endsWith(mark);
      const resolved = await this.resolve(source, withoutMark(importer), { ...options, skipSelf: true });
      if (!resolved || resolved.external) return resolved;
      const id = withoutMark(resolved.id);
      return (fromCopy && copied.test(id)) || root.test(id) ? { ...resolved, id: id + mark } : resolved;
    },
    async load(id) {
      if (!id.endsWith(mark)) return null;
      const { readFile } = await import('node:fs/promises');
      return readFile(withoutMark(id), 'utf8');
    },
  };
}
