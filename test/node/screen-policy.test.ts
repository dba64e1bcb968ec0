// Which screen the element shows and when a tap on it answers at once, without a DOM: the flow's own screen, or
// loading while the strings or the chunk it needs are on their way (no screen flips language, no step shows without
// its code), and the method screen's wait behind a server-drawn copy.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { answering, shownState, type AtHand } from '../../src/element/internal/screen-policy.js';
import { es } from '../../src/i18n/es.js';
import { esFirst } from '../../src/i18n/es-first.js';
import { firstScreen, initialState } from '../../src/flow/first-screen.js';
import type { FlowState } from '../../src/flow/types.js';
import { makeLink, standardLink } from './flow-fixtures.js';

const chunk = {};
const at = (over: Partial<AtHand>): AtHand => ({ messages: esFirst, wantedLocale: 'es', details: undefined, later: undefined, nextAtHand: false, ...over });
const method = firstScreen(initialState(), { type: 'link_loaded', link: standardLink }) as FlowState;
const details = { ...method, step: 'details' } as unknown as FlowState;
const push = { ...method, step: 'push' } as unknown as FlowState;

describe('the screen on show', () => {
  it('the first screens show with the bundled strings; the embed does not hold its method screen back', () => {
    assert.equal(method.step, 'method');
    assert.equal(shownState(method, at({}), false), method);
  });

  it('behind a server-drawn method screen, the element waits until a tap on its own would open the details', () => {
    assert.equal(shownState(method, at({}), true).step, 'loading');
    assert.equal(shownState(method, at({ nextAtHand: true }), true), method);
  });

  it('another locale asked for: loading until its catalog is here, so no screen flips language', () => {
    assert.equal(shownState(method, at({ wantedLocale: 'en' }), false).step, 'loading');
  });

  it('the details screen needs the whole catalog and the details step (or the later steps)', () => {
    assert.equal(shownState(details, at({ details: chunk }), false).step, 'loading', 'first screens strings only');
    assert.equal(shownState(details, at({ messages: es }), false).step, 'loading', 'no chunk');
    assert.equal(shownState(details, at({ messages: es, details: chunk }), false), details);
    assert.equal(shownState(details, at({ messages: es, later: chunk }), false), details);
  });

  it('a step past the order needs the later steps: the details step alone is not enough', () => {
    assert.equal(shownState(push, at({ messages: es, details: chunk }), false).step, 'loading');
    assert.equal(shownState(push, at({ messages: es, later: chunk }), false), push);
  });

  it('a link that cannot be paid waits for the later steps too', () => {
    const unavailable = firstScreen(initialState(), { type: 'link_loaded', link: makeLink({ status: 'expired' }) }) as FlowState;
    assert.equal(unavailable.step, 'unavailable');
    assert.equal(shownState(unavailable, at({ messages: es }), false).step, 'loading');
    assert.equal(shownState(unavailable, at({ messages: es, later: chunk }), false), unavailable);
  });
});

describe('whether the screen on show answers', () => {
  it('on the method screen only once what it opens is at hand (or no longer waited for); elsewhere always', () => {
    assert.equal(answering(method, { nextAtHand: false }), false);
    assert.equal(answering(method, { nextAtHand: true }), true);
    assert.equal(answering(details, { nextAtHand: false }), true);
  });

  it('never while loading shows, whatever is at hand', () => {
    assert.equal(answering(initialState(), { nextAtHand: true }), false);
  });
});
