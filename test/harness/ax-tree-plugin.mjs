// A web-test-runner command for the screen-reader tests: what Chromium's accessibility tree (the one NVDA, JAWS and
// TalkBack read through) says about the focused element and the live region, read over CDP from the test's page.
// Only Chromium's launcher (Playwright's) exposes that tree; elsewhere the command answers `{ available: false }` (null
// would read as "no plugin handles it") and the test reads what the DOM exposes (test/browser/support/screen-reader.ts).

/** The text a node's subtree gives a screen reader: its static text, in order, skipping ignored (hidden) nodes. */
function textOf(node, byId) {
  if (!node || node.ignored) return '';
  if (node.role?.value === 'StaticText' || node.role?.value === 'InlineTextBox') return node.name?.value ?? '';
  return (node.childIds ?? []).map((id) => textOf(byId.get(id), byId)).join(' ');
}

const clean = (text) => text.replace(/\s+/g, ' ').trim();
const property = (node, name) => node.properties?.find((p) => p.name === name)?.value?.value;

/** The name of the nearest group (a radio group, a fieldset) around a node, or ''. */
function groupOf(node, byId) {
  for (let at = byId.get(node.parentId); at; at = byId.get(at.parentId)) {
    if (!at.ignored && (at.role?.value === 'radiogroup' || at.role?.value === 'group')) return clean(at.name?.value ?? '');
  }
  return '';
}

/** What a control holds: a field's text or a select's chosen option, a box's `true`/`false`; '' for anything else. */
function stateOf(node) {
  const checked = property(node, 'checked');
  if (checked !== undefined) return String(checked);
  return clean(String(node.value?.value ?? ''));
}

/** `{ focused: { role, name, description, value, group } | null, live: string[] }` from one snapshot of the whole tree. */
async function readTree(page) {
  const cdp = await page.context().newCDPSession(page);
  try {
    const { nodes } = await cdp.send('Accessibility.getFullAXTree');
    const byId = new Map(nodes.map((n) => [n.nodeId, n]));
    const focused = nodes.filter((n) => !n.ignored && property(n, 'focused') === true && n.role?.value !== 'RootWebArea').at(-1);
    // Each live region root (role status, aria-live), with the text it holds now.
    const live = nodes.filter((n) => !n.ignored && n.role?.value === 'status').map((n) => clean(textOf(n, byId)));
    return {
      available: true,
      focused: focused
        ? {
            role: focused.role?.value ?? '',
            name: clean(focused.name?.value ?? ''),
            description: clean(focused.description?.value ?? ''),
            value: stateOf(focused),
            group: groupOf(focused, byId),
          }
        : null,
      live,
    };
  } finally {
    await cdp.detach();
  }
}

export function axTreePlugin() {
  return {
    name: 'ax-tree',
    async executeCommand({ command, session }) {
      if (command !== 'ax-read') return undefined;
      if (session.browser.type !== 'playwright') return { available: false };
      return readTree(session.browser.getPage(session.id));
    },
  };
}
