import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, it } from 'node:test';
import { en } from '../../src/i18n/en.js';
import { es } from '../../src/i18n/es.js';

const root = fileURLToPath(new URL('../..', import.meta.url));

/** Every `.ts` file of the product outside the catalogs: where a string of the catalog is read. */
function productSource(): string {
  const files: string[] = [];
  const walk = (dir: string) => {
    for (const name of readdirSync(dir)) {
      const file = join(dir, name);
      if (statSync(file).isDirectory()) walk(file);
      else if (file.endsWith('.ts') && !file.includes(`${join('src', 'i18n')}`)) files.push(file);
    }
  };
  walk(join(root, 'src'));
  walk(join(root, 'hosted'));
  return files.map((file) => readFileSync(file, 'utf8')).join('\n');
}

/** Dotted paths of a catalog's leaves, but the flow's rules (read by `MessageKey`, checked by the types). */
function leaves(catalog: object, path: string[] = []): string[] {
  return Object.entries(catalog).flatMap(([key, value]) => {
    if (path.length === 0 && key === 'rules') return [];
    return value !== null && typeof value === 'object' ? leaves(value as object, [...path, key]) : [[...path, key].join('.')];
  });
}

/** Groups read by a computed key (`m.method.kinds[gateway.kind]`, `m.resuming[card ? 'card' : 'order']`). */
const readByKey = ['method.kinds', 'resuming'];

describe('i18n catalogs', () => {
  it('es and en hold the same strings', () => {
    assert.deepEqual(leaves(en).sort(), leaves(es).sort());
  });

  it('every string of the catalog is read by the product (none left behind for translators to keep)', () => {
    const source = productSource();
    const unread = leaves(es).filter((leaf) => {
      const parent = leaf.split('.').slice(0, -1).join('.');
      if (readByKey.includes(parent)) return !source.includes(`.${parent}[`);
      return !source.includes(`.${leaf}`);
    });
    assert.deepEqual(unread, []);
  });
});
