import type { ReactiveControllerHost } from 'lit';
import type { ClientOptions, Environment } from '../../client/send.js';
import type { CheckoutLink } from '../../contract/checkout-link.js';
import { toFlowError } from '../../flow/errors.js';
import type { FlowEvent, FlowRequest } from '../../flow/types.js';
import { keepsOrderOrReceipt } from '../internal/saved-keys.js';
import { requestLink } from '../internal/link-request.js';
import type { OrderTracker } from '../order/order-tracker.js';
import { shownLink } from '../internal/page-choices.js';
import type { PagePrefill } from '../internal/prefill-of.js';
import type { DetailsSteps, LaterSteps } from '../steps/steps.js';

/** What the flow's requests read from `<pay-checkout>`: its public settings. */
export interface CheckoutPage extends ReactiveControllerHost, HTMLElement, PagePrefill {
  link: string;
  returnUrl: string | undefined;
  apiBase: string | undefined;
  environment: Environment;
  botCheck: string | undefined;
  methods: string | undefined;
  linkData: unknown;
}

/**
 * What the runner needs of the steps past the first screen (StepChunks): the chunks here so far and the order tracker
 * made with the later steps', and the loads. One narrow view, read as it stands, rather than a closure for each.
 */
export interface StepSource {
  readonly details: DetailsSteps | undefined;
  readonly later: LaterSteps | undefined;
  readonly tracker: OrderTracker | undefined;
  loadDetails(): Promise<unknown>;
  loadLater(): Promise<OrderTracker>;
  /** A run starts (`linkHere`: the link is here, its first screen on the way): the steps past it are wanted. */
  wantSteps(linkHere: boolean): void;
}

/** One run of the flow runner, as its requests see it: its signal, its way back into the flow, and the chunks. */
export interface RequestRun {
  readonly page: CheckoutPage;
  readonly signal: AbortSignal;
  /** Whether this run is still the runner's (a restart drops older answers). */
  current(): boolean;
  send(event: FlowEvent): void;
  /** The client's settings. */
  readonly options: ClientOptions;
  /** The link answer the page carries, the first time only. */
  pageLink(): unknown;
  readonly steps: Pick<StepSource, 'later' | 'loadLater'>;
}

/**
 * Carries out a request of the flow: the link (or, with a saved order or receipt for it, a resume, once the later
 * steps are here), else an order call through the order tracker, which arrives with them. Answers go back only while
 * the run is current.
 */
export async function performRequest(request: FlowRequest, run: RequestRun): Promise<void> {
  const { page, signal, steps } = run;
  const answer = (event: FlowEvent) => {
    if (run.current()) run.send(event);
  };
  const shown = (link: CheckoutLink) => shownLink(link, page.methods);
  let tracker;
  if (request.kind === 'load_link') {
    const link = requestLink(run.options, page.link, signal, run.pageLink()).then(shown);
    if (!keepsOrderOrReceipt(page.link)) {
      return link.then(
        (link) => answer({ type: 'link_loaded', link }),
        (e: unknown) => {
          if (!signal.aborted) answer({ type: 'link_failed', error: toFlowError(e) });
        },
      );
    }
    // A saved order or receipt for this link (a reload, the card page's return, a retry after a failed resume).
    link.catch(() => undefined); // read by the later steps, once here
    try {
      tracker = await steps.loadLater();
    } catch (error) {
      // The later steps could not be fetched (offline): the error screen, whose retry resumes again.
      return answer({ type: 'resume_failed', error: toFlowError(error) });
    }
    return steps.later?.resumeRun({ ...run, shown }, tracker, page.link, link, () => void performRequest(request, run));
  }
  try {
    tracker = await steps.loadLater();
  } catch {
    // The order code could not be fetched (offline): the outcome is as unknown as a network error's.
    return answer({ type: 'order_failed', error: { category: 'network' } });
  }
  if (run.current()) return tracker.perform(request, signal);
}

/** The buyer API's base URL a server put beside the script it served (`pay-checkout serve`'s `/pay-checkout.js`). */
const servedApiBase = Symbol.for('pay-checkout.api-base');

/**
 * The client's settings for the page: a relative `api-base` ("/v1") means this page's own origin. Without one, the
 * buyer API the script was served beside, where its server said so (`pay-checkout serve` writes it into its copy of
 * the script), so the embed needs no `api-base` on another origin.
 */
export function clientOptionsOf(page: CheckoutPage): ClientOptions {
  const options: ClientOptions = { environment: page.environment };
  const served = (globalThis as { [servedApiBase]?: unknown })[servedApiBase];
  const base = page.apiBase || (typeof served === 'string' ? served : undefined);
  if (base) options.baseUrl = new URL(base, location.href).href;
  return options;
}

/** A step's event for the flow: paying takes the page's `return-url`, else this page. */
export function withReturnUrl(event: FlowEvent, page: CheckoutPage): FlowEvent {
  return event.type === 'details_submitted' && !event.returnUrl ? { ...event, returnUrl: page.returnUrl || location.href.split('#')[0] } : event;
}
