/**
 * The README is the package's page on the npm registry, where relative links lead nowhere: every link and image
 * is absolute (https) or an anchor to a heading of the README itself, and no path points outside the repository.
 * Install comes first after the introduction.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { repoRoot } from './build-helpers.js';

const readme = readFileSync(path.join(repoRoot, 'README.md'), 'utf8');
// Code blocks hold shell and HTML, not links.
const prose = readme.replace(/```[\s\S]*?```/g, '');

/** GitHub's heading anchors: lower case, punctuation dropped, spaces to hyphens. */
const slug = (heading: string) =>
  heading
    .toLowerCase()
    .replace(/`/g, '')
    .replace(/[^\p{L}\p{N} _-]/gu, '')
    .replace(/ /g, '-');

describe('README links', () => {
  const anchors = new Set([...readme.matchAll(/^#{1,6} (.+)$/gm)].map((match) => slug(match[1] ?? '')));
  const targets = [...prose.matchAll(/!?\[[^\]]*\]\(([^)\s]+)[^)]*\)/g)].map((match) => match[1] ?? '');

  it('are absolute https URLs or anchors of this README', () => {
    assert.ok(targets.length > 0, 'the README has no links');
    for (const target of targets) {
      if (target.startsWith('#')) assert.ok(anchors.has(target.slice(1)), `no heading for ${target}`);
      else assert.match(target, /^https:\/\//, `${target} does not resolve on the registry page`);
    }
  });

  it('never point at the shared product docs outside the repository', () => {
    assert.doesNotMatch(readme, /\.\.\/shared/);
  });

  it('put Install first after the introduction', () => {
    const sections = [...readme.matchAll(/^## (.+)$/gm)].map((match) => match[1]);
    assert.equal(sections[0], 'Install');
  });
});
