// The parts of `npm test` (test/run.mjs) that are whole runners of their own: each runs alone as `node FILE` and
// prints `N passed, N failed` as its last line, which the entry point adds to its summary. The end-to-end part runs
// once per engine; the others once.
export const E2E_PART = { key: 'e2e', name: 'End-to-end', file: 'test/e2e/run.mjs' };

export const PARTS = [
  { key: 'size', name: 'Bundle size', file: 'test/size/size-check.mjs' },
  { key: 'pack', name: 'Packaging (publint, attw, the tarball in throwaway projects)', file: 'test/pack/pack-check.mjs' },
  { key: 'docs', name: 'Documentation site (Chromium: pages, links, axe, live checkouts, npm start /docs/; a live checkout in Firefox and WebKit)', file: 'test/docs/run.mjs' },
];
