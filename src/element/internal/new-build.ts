// A lazy chunk that does not come although the script's own server answers: this script's build was replaced.
import { storage } from './saved-keys.js';

/**
 * What a lazy chunk that failed to load does besides its network error. The script-tag entry (script-tag.ts) sets it:
 * its chunks may be gone with an upgrade while its 5-minute copy lives on (`chunkFailed` below). Unset in the
 * hosted page (served uncached) and in bundles, whose chunks are the app's.
 */
export const chunkHooks: { failed?: () => void } = {};

/** When this tab last loaded the page again for a new build (ms since the epoch, as a string). */
const reloadedKey = 'pay-checkout:reload';

/**
 * Called when a lazy chunk failed to load. The chunks are named by their content, so after an upgrade (of `serve`, or
 * of the files on a CDN) a page whose script came before it may ask for names that are gone, and no newer chunk can
 * stand in: each imports the entry it was built with. If the script's server answers, the script is fetched again past the
 * browser's cache (so the reload gets the new script, not the cached old one) and the page is loaded again: an order
 * already made resumes from this tab's copy (order/session.ts). Offline (the fetch fails too), nothing happens and the
 * caller's own retry stands. At most once a minute a tab, so a build that really lacks a chunk is not loaded again
 * and again; never without sessionStorage to keep that mark. Kept this small for the first script's 20 KB.
 */
export function chunkFailed(): void {
  // Storage keeps strings: the mark is subtracted as one (unset: NaN, which lets the reload happen).
  const tab = storage('sessionStorage') as (Storage & Record<typeof reloadedKey, number>) | null;
  if (tab && !(Date.now() - tab[reloadedKey] < 6e4))
    fetch(import.meta.url, { cache: 'reload' }).then(
      () => {
        // Whatever it answered: a server that lost the script too is met once, then the mark holds.
        tab[reloadedKey] = Date.now();
        location.reload();
      },
      () => undefined,
    );
}
