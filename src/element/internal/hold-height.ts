import type { FlowEvent } from '../../flow/types.js';

/** What the service (or the clock) changes on screen, with no tap just before it. */
const unasked: readonly FlowEvent['type'][] = ['order_created', 'order_failed', 'status_received', 'status_failed', 'otp_rejected', 'time_up', 'resume_retrying'];

/**
 * A screen the service brings (the order created, approved, declined) never makes the element shorter, so the page
 * below it does not move with no tap to explain it (a layout shift the vitals bench counts); the buyer's next tap lets it go. Called
 * before the new screen is drawn, while the old one is still there to measure. A style set through the CSSOM, which a
 * strict CSP allows.
 */
export function holdHeight(host: HTMLElement, event: FlowEvent): void {
  if (!unasked.includes(event.type)) {
    // Only a hold of ours: a page's own inline style stays.
    if (holding.delete(host)) host.style.removeProperty('min-block-size');
    return;
  }
  const held = Math.max(host.getBoundingClientRect().height, holding.has(host) ? parseFloat(host.style.minBlockSize) || 0 : 0);
  if (held > 0 && !(host.style.minBlockSize && !holding.has(host))) {
    holding.add(host);
    host.style.minBlockSize = `${held}px`;
  }
}

const holding = new WeakSet<HTMLElement>();
