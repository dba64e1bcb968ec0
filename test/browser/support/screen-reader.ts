// What a screen reader is given: the focused element's role, name and description, and every live-region message.
// Chromium: its accessibility tree over CDP (test/harness/ax-tree-plugin.mjs), with the DOM's reading checked against it.
// Firefox and WebKit: their trees are out of the test runner's reach (no CDP; WebDriver's computed role and label do
// not see into shadow roots), so what their DOM exposes, computed here by the accessible-name rules the element uses
// (aria-labelledby, aria-label, <label for>, content; aria-hidden skipped, visually hidden text kept).
import { expect } from '@open-wc/testing';
import { executeServerCommand } from '@web/test-runner-commands';
import type { PayCheckout } from '../../../src/index.js';

export interface Read {
  role: string;
  name: string;
  description: string;
  /** What a control holds: a field's text, a select's chosen option, a checkbox's or radio's `true`/`false`; '' else. */
  value: string;
  /** The name of the group (radio group, fieldset) the element is in; '' outside one. */
  group: string;
}

interface Tree {
  available: true;
  focused: Read | null;
  live: string[];
}

const clean = (text: string) => text.replace(/\s+/g, ' ').trim();

/** The element with focus, through every shadow root. */
export function deepFocus(): Element | null {
  let at: Element | null = document.activeElement;
  while (at?.shadowRoot?.activeElement) at = at.shadowRoot.activeElement;
  return at;
}

function hidden(e: Element): boolean {
  if (e.getAttribute('aria-hidden') === 'true' || (e as HTMLElement).hidden) return true;
  const style = getComputedStyle(e);
  return style.display === 'none' || style.visibility === 'hidden';
}

/** What a node's content says (screen-reader text): aria-hidden and display:none skipped, `.sr-only` kept. */
export function saidText(node: Node): string {
  if (node.nodeType === Node.TEXT_NODE) return node.textContent ?? '';
  if (!(node instanceof Element) || hidden(node)) return '';
  if (node instanceof HTMLSelectElement) return '';
  const from = node.shadowRoot ?? node;
  // A block inside inline text (a visually hidden span is absolutely positioned, so blockified) is set apart by spaces, as browsers do.
  const apart = (n: Node) => (n instanceof HTMLElement && !getComputedStyle(n).display.startsWith('inline') ? ` ${saidText(n)} ` : saidText(n));
  return clean([...from.childNodes].map(apart).join(node instanceof HTMLElement && getComputedStyle(node).display !== 'inline' ? ' ' : ''));
}

function byIds(e: Element, attribute: string): string | null {
  const ids = e.getAttribute(attribute);
  if (!ids) return null;
  const root = e.getRootNode() as Document | ShadowRoot;
  // A referenced node is read even if hidden itself; its hidden descendants are not.
  return clean(
    ids
      .split(/\s+/)
      .map((id) => root.getElementById(id))
      .map((n) => (n ? [...n.childNodes].map(saidText).join(' ') : ''))
      .join(' '),
  );
}

function role(e: Element): string {
  const explicit = e.getAttribute('role');
  if (explicit) return explicit.split(/\s+/)[0] ?? '';
  if (/^h[1-6]$/.test(e.localName)) return 'heading';
  if (e instanceof HTMLButtonElement) return 'button';
  if (e instanceof HTMLAnchorElement && e.hasAttribute('href')) return 'link';
  if (e instanceof HTMLSelectElement) return 'combobox';
  if (e instanceof HTMLInputElement && (e.type === 'checkbox' || e.type === 'radio')) return e.type;
  if (e instanceof HTMLInputElement) return 'textbox';
  if (e === document.body) return 'body';
  return e.localName;
}

function name(e: Element): string {
  const labelledBy = byIds(e, 'aria-labelledby');
  if (labelledBy) return labelledBy;
  const label = e.getAttribute('aria-label');
  if (label) return clean(label);
  if (e instanceof HTMLInputElement || e instanceof HTMLSelectElement) {
    return clean([...(e.labels ?? [])].map(saidText).join(' '));
  }
  return saidText(e);
}

function value(e: Element): string {
  if (e instanceof HTMLInputElement && (e.type === 'checkbox' || e.type === 'radio')) return String(e.checked);
  if (e instanceof HTMLSelectElement) return clean(e.selectedOptions[0]?.textContent ?? '');
  return e instanceof HTMLInputElement ? clean(e.value) : '';
}

function group(e: Element): string {
  const around = e.parentElement?.closest('fieldset, [role="group"], [role="radiogroup"]');
  if (!around) return '';
  const legend = around.querySelector(':scope > legend');
  return around.getAttribute('aria-label') ?? (legend ? saidText(legend) : '');
}

/** The focused element as the DOM exposes it. */
export function domRead(): Read {
  const e = deepFocus();
  if (!e || e === document.body) return { role: 'body', name: '', description: '', value: '', group: '' };
  return { role: role(e), name: name(e), description: byIds(e, 'aria-describedby') ?? '', value: value(e), group: group(e) };
}

async function tree(): Promise<Tree | null> {
  const answer = await executeServerCommand<Tree | { available: false }, undefined>('ax-read');
  return answer?.available ? answer : null;
}

/** Which engine's reading the tests assert: Chromium's accessibility tree, or the DOM's (Firefox, WebKit). */
export let readFrom: 'accessibility tree' | 'DOM' = 'DOM';

/**
 * The focused element as a screen reader gets it. In Chromium, from the accessibility tree, and the DOM's reading
 * (what Firefox and WebKit are checked with) must agree with it.
 */
export async function focused(): Promise<Read> {
  for (let attempt = 0; ; attempt++) {
    const dom = domRead();
    const ax = await tree();
    if (!ax) return dom;
    readFrom = 'accessibility tree';
    const read = ax.focused ?? { role: 'body', name: '', description: '', value: '', group: '' };
    // The page may move on between the two readings (a request answering): read both again.
    if (attempt < 5 && JSON.stringify(domRead()) !== JSON.stringify(dom)) continue;
    expect(dom, 'the DOM reading agrees with Chromium\'s tree').to.deep.equal(read);
    return read;
  }
}

/** Focus is never on <body> after an action; returns what is read. */
export async function expectFocus(expected: Partial<Omit<Read, 'name'>> & { name: string | RegExp }): Promise<Read> {
  const read = await focused();
  expect(read.role, `focus on ${read.role} "${read.name}"`).to.not.equal('body');
  if (expected.role) expect(read.role, `role of "${read.name}"`).to.equal(expected.role);
  if (typeof expected.name === 'string') expect(read.name).to.equal(expected.name);
  else expect(read.name).to.match(expected.name);
  if (expected.description !== undefined) expect(read.description, `description of "${read.name}"`).to.equal(expected.description);
  if (expected.value !== undefined) expect(read.value, `value of "${read.name}"`).to.equal(expected.value);
  if (expected.group !== undefined) expect(read.group, `group of "${read.name}"`).to.equal(expected.group);
  return read;
}

/** What the live region holds now: Chromium's tree, else the DOM. */
export async function liveNow(el: PayCheckout): Promise<string> {
  const ax = await tree();
  const region = el.shadowRoot?.querySelector('[role="status"]');
  const dom = region ? saidText(region) : '';
  if (!ax) return dom;
  expect(ax.live, 'one live region on the page').to.have.length(1);
  expect(ax.live[0]).to.equal(dom);
  return ax.live[0] ?? '';
}

/**
 * Every message the live region is given, in order: what assistive technology is sent when its text changes
 * (`aria-atomic`, so the whole text). `take()` returns those since the last take.
 */
export function recordLive(el: PayCheckout): { all: string[]; take(): string[] } {
  const region = el.shadowRoot?.querySelector('[role="status"]');
  if (!region) throw new Error('no live region');
  const all: string[] = [];
  let taken = 0;
  const note = () => {
    const text = saidText(region);
    if (text) all.push(text);
  };
  new MutationObserver(note).observe(region, { childList: true, characterData: true, subtree: true });
  return {
    all,
    take() {
      const since = all.slice(taken);
      taken = all.length;
      return since;
    },
  };
}
