// `npm run build`: dist/THIRD-PARTY-NOTICES.txt, the licenses of the packages whose code the build bundles (the
// script tag and the hosted page carry lit, zod, qrcode; the sandbox carries hono; pay-checkout/react @lit/react).
import { readFileSync, readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const bundledPackages = ['lit', 'lit-html', 'lit-element', '@lit/reactive-element', '@lit/react', 'zod', 'qrcode', 'dijkstrajs', 'hono', '@hono/node-server'];

const notice = (name) => {
  const dir = path.join(root, 'node_modules', name);
  const { version, license } = JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8'));
  const file = readdirSync(dir).find((entry) => /^licen[cs]e/i.test(entry));
  if (!file) throw new Error(`${name} ships no LICENSE file`);
  return `${name}@${version} (${license})\n\n${readFileSync(path.join(dir, file), 'utf8').trim()}\n`;
};

const text = `pay-checkout bundles code from these packages; their licenses follow.\n\n${bundledPackages.map(notice).join(`\n${'-'.repeat(72)}\n\n`)}`;
writeFileSync(path.join(root, 'dist', 'THIRD-PARTY-NOTICES.txt'), text);
