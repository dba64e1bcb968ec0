import type { CheckoutGateway, CheckoutLink } from '../contract/checkout-link.js';
import type { DocumentType } from '../contract/gateways.js';
import type { CheckoutOrder, CheckoutOrderCreated, CheckoutOrderInput, NextAction } from '../contract/checkout.js';
import type { FieldProblem } from '../contract/problems.js';

/**
 * The buyer flow as data. The element renders a `FlowState` and
 * sends `FlowEvent`s; `transition(state, event)` decides what comes next.
 *
 * Host contract, in four lines:
 * 1. Render `state.step`.
 * 2. When a new state carries a `request` that is not the very same object as
 *    the previous state's (`isNewRequest(prev, next)`), perform it once.
 * 3. Dispatch the result event: `link_loaded`/`link_failed`, `order_created`/`order_failed`,
 *    `status_received`/`status_failed`.
 * 4. While `isWaiting(state)`, poll the order's status (single flight) and
 *    dispatch `status_received`/`status_failed`; run `check_status` requests
 *    through that same single-flight controller.
 */

// ---------------------------------------------------------------------------
// Messages

/**
 * Every message the flow can put on a screen. The i18n catalogs translate
 * these; a catalog typed `Record<MessageKey, …>` fails type-checking when one
 * is missing. Range messages read `amountRange` / the gateway from the state.
 */
export const messageKeys = [
  // amount (dynamic links)
  'amount.required', // nothing typed
  'amount.invalid', // letters or symbols, or dots that don't group thousands
  'amount.decimals', // COP is whole pesos
  'amount.zero', // 0 pesos
  'amount.below_min', // under the lowest min_amount (or the chosen gateway's)
  'amount.above_max', // over the highest max_amount (or the chosen gateway's)
  'amount.out_of_range', // the service refused the amount for this method (AMOUNT_OUT_OF_RANGE)
  // payment method
  'method.amount_out_of_range', // this method does not take this amount
  // buyer details
  'id_type.required',
  'id_type.not_accepted', // this method does not accept this document type
  'id_number.required',
  'id_number.digits_only', // CC and TI
  'id_number.letters_and_digits_only', // CE and other types
  'id_number.too_short',
  'id_number.too_long',
  'id_number.rejected', // the service refused the number
  'phone_number.required',
  'phone_number.invalid', // not 10 digits starting with 3
  'phone_number.landline', // 60x… numbers cannot receive a push
  'first_name.required',
  'first_name.too_long',
  'last_name.required',
  'last_name.too_long',
  'email.required',
  'email.invalid',
  'consent.required', // consent="required" and the box is not checked (Ley 1581)
  'details.refused', // the service refused the payment data without saying which field
  'details.try_again', // the previous attempt cannot be repeated; submit again
  // SMS code
  'otp.required',
  'otp.invalid', // not exactly 6 digits
  'otp.rejected', // wrong or expired code (DAVIPLATA_OTP_ERROR)
  // notices on a waiting screen (the order is kept)
  'notice.status_check_failed', // could not check the payment status; still trying
  'notice.cancel_failed', // could not cancel; the order still stands
  // error screen
  'error.network',
  'error.service',
  'error.rate_limited', // 429: try again in a minute
  'error.rate_limited_minutes', // 429: in a few minutes
  'error.rate_limited_hours', // 429: in a few hours
  'error.unavailable', // 5xx / SERVICE_UNAVAILABLE
  'error.checking', // IDEMPOTENCY_KEY_IN_USE: the order is still being created or checked; retry the same request
  'error.invalid_response',
  'error.config',
  'error.no_methods', // the link offers no payment method
] as const;
export type MessageKey = (typeof messageKeys)[number];
/** The messages of the screens before the order (amount, method, error): the ones the first screens show. */
export type BeforeOrderMessageKey = Extract<MessageKey, `amount.${string}` | `method.${string}` | `error.${string}`>;
export type ErrorMessageKey = Extract<MessageKey, `error.${string}`>;

/** Result of a buyer-input rule. */
export type RuleResult<T, K extends MessageKey = MessageKey> = { ok: true; value: T } | { ok: false; error: K };
export const ok = <T>(value: T): { ok: true; value: T } => ({ ok: true, value });
export const fail = <K extends MessageKey>(error: K): { ok: false; error: K } => ({ ok: false, error });

// ---------------------------------------------------------------------------
// Errors

/**
 * What kind of failure a request met, so screens branch on a category, not a string.
 * - `network`: no answer (offline, timeout). The outcome is unknown: retry with the same key.
 * - `service`: the service answered with its ErrorResponse (fields below).
 * - `invalid_response`: an answer we could not read. Outcome unknown, like `network`.
 * - `config`: our side (bad `api-base`, a bug): retrying will not help.
 */
export type FlowErrorCategory = 'network' | 'service' | 'invalid_response' | 'config';

export interface FlowError {
  category: FlowErrorCategory;
  /** HTTP status, when there was an answer. */
  status?: number;
  /** ErrorResponse `code`, e.g. 6105. */
  code?: number;
  /** ErrorResponse `api_code`, e.g. `DAVIPLATA_OTP_ERROR`. */
  apiCode?: string;
  /** ErrorResponse `validation_errors`. */
  validationErrors?: readonly FieldProblem[];
  /** Seconds the server asked to wait before trying again (`Retry-After`). */
  retryAfterS?: number;
  /** `invalid_response`: where the answer broke the contract (`data.gateways.0.kind`), for the developer's logs. */
  problems?: readonly FieldProblem[];
}

// ---------------------------------------------------------------------------
// Buyer details

/** Fields the details screen may show, in display order. */
export const detailsFields = ['id_type', 'id_number', 'phone_number', 'first_name', 'last_name', 'email'] as const;
export type DetailsField = (typeof detailsFields)[number];
/**
 * What the buyer typed, as text. `id_type` holds the document type's integer
 * id as text (`"1"`), the value of a `<select>`; '' when none is chosen.
 */
export type DetailsFields = Record<DetailsField, string>;
/** The personal-data consent checkbox (`consent="required"`): an error and a focus target like a field's. */
export type ConsentField = 'consent';
export type FieldErrors = Partial<Record<DetailsField | ConsentField, MessageKey>>;
/**
 * What the page already knows about the buyer (`id-type`, `id-number`, `phone`, …, or the `shopper` property), as
 * text; `id_type` may be the document's code (`CC`) or its id (`"1"`). Checked by the same rules as typed values.
 */
export type Prefill = DetailsFields;

/** Lowest `min_amount` and highest `max_amount` of the link's gateways, in whole pesos. */
export interface AmountRange {
  min: number;
  max: number;
}

/** One payment method on the method screen. */
export interface MethodChoice {
  gateway: CheckoutGateway;
  /** False when the method cannot take this amount; show it disabled with `reason`. */
  available: boolean;
  reason: BeforeOrderMessageKey | null;
}

// ---------------------------------------------------------------------------
// Requests: side effects as data

/** `GET /checkout/links/{hash}`. */
export interface LoadLinkRequest {
  kind: 'load_link';
}
/** `POST /checkout/links/{hash}/orders` with header `Idempotency-Key`. */
export interface CreateOrderRequest {
  kind: 'create_order';
  idempotencyKey: string;
  body: CheckoutOrderInput;
}
/** `POST /checkout/orders/{id_order}/otp` with `{ daviplata_otp: code }`. Result: `status_received` with the order (or `order_failed`). */
export interface SubmitOtpRequest {
  kind: 'submit_otp';
  id_order: number;
  order_token: string;
  code: string;
}
/** `POST /checkout/orders/{id_order}/cancel`. Result: `status_received` with the order (or `order_failed`). */
export interface CancelOrderRequest {
  kind: 'cancel_order';
  id_order: number;
  order_token: string;
}
/** `GET /checkout/orders/{id_order}`. `final`: the last check after the countdown ended. */
export interface CheckStatusRequest {
  kind: 'check_status';
  id_order: number;
  order_token: string;
  final: boolean;
}
export type FlowRequest = LoadLinkRequest | CreateOrderRequest | SubmitOtpRequest | CancelOrderRequest | CheckStatusRequest;
export type FlowRequestKind = FlowRequest['kind'];

// ---------------------------------------------------------------------------
// States

export type PushAction = Extract<NextAction, { type: 'approve_push' }>;
export type OtpAction = Extract<NextAction, { type: 'enter_otp' }>;
export type TransferAction = Extract<NextAction, { type: 'transfer' }>;
export type RedirectAction = Extract<NextAction, { type: 'redirect' }>;

/** What every state after the link loaded carries. */
interface LinkContext {
  link: CheckoutLink;
  /** Whole pesos to pay: the link's own amount, or the buyer's once submitted; null before that. */
  amount: number | null;
  /** The chosen payment method; null before the buyer chose one. */
  gateway: CheckoutGateway | null;
  /** What the buyer typed, kept across "back" and "try again". */
  fields: DetailsFields;
  /** I/O the host must perform now; null when nothing is in flight. */
  request: FlowRequest | null;
}

/** The last create_order whose outcome is unknown (network error): the same body reuses its key. */
export interface PendingAttempt {
  idempotencyKey: string;
  body: CheckoutOrderInput;
}

export interface LoadingState {
  step: 'loading';
  request: LoadLinkRequest | null;
}

/**
 * A saved order being read again (a reload, the card page's return) while the service fails for now: retried
 * quietly, with a word on what is happening. `card`: the buyer is back from the card page.
 */
export interface ResumingState {
  step: 'resuming';
  card: boolean;
  request: null;
}

/** Link not found, already paid, or expired: a screen, not a crash. */
export interface UnavailableState {
  step: 'unavailable';
  reason: 'not_found' | 'paid' | 'expired';
  /** The link when it loaded (paid/expired); null when not found. */
  link: CheckoutLink | null;
  request: null;
}

/** Dynamic links: the buyer types the amount. */
export interface AmountState extends LinkContext {
  step: 'amount';
  /** The input's text, formatted as the buyer types ("50.000"). */
  text: string;
  error: BeforeOrderMessageKey | null;
  /** Lowest min and highest max across the link's gateways. */
  range: AmountRange;
  request: null;
}

export interface MethodState extends LinkContext {
  step: 'method';
  amount: number;
  /** The link's gateways, each marked available or not for this amount. */
  choices: readonly MethodChoice[];
  error: BeforeOrderMessageKey | null;
  request: null;
}

export interface DetailsState extends LinkContext {
  step: 'details';
  amount: number;
  gateway: CheckoutGateway;
  /** The fields this method needs, in display order. Show only these. */
  needed: readonly DetailsField[];
  /** The document types this method accepts, for the `id_type` select. */
  idTypes: readonly DocumentType[];
  /** Message per field, shown beside it; also the error summary on submit. */
  errors: FieldErrors;
  /** A message for the whole form (not tied to one field). */
  formError: MessageKey | null;
  /** True while `create_order` is in flight: the pay button is disabled and a second submit is ignored. */
  submitting: boolean;
  request: CreateOrderRequest | null;
  attempt: PendingAttempt | null;
  /**
   * Where focus should go: the first field in error, the phone after "change number", or `pay` when everything
   * the method needs was prefilled and is valid (a returning buyer pays in one tap).
   */
  focus: DetailsField | ConsentField | 'pay' | null;
  /** The personal-data consent box is checked (only asked with `consent="required"`). */
  consented?: boolean;
}

/** What a cancel is for, when the buyer asked for something other than just cancelling. */
export type AfterCancel =
  | { kind: 'change_number' }
  | { kind: 'new_code'; idempotencyKey: string }
  /** Back to choosing a method, keeping what the buyer typed. */
  | { kind: 'change_method' }
  /** The countdown ended and the service still had the order open: once it is cancelled, the time is up. */
  | { kind: 'expire' };

/** What every state with an order carries. */
interface OrderContext extends LinkContext {
  amount: number;
  order: CheckoutOrder;
  orderToken: string;
  /** The body that created the order (reused by "send a new code"); null after a resume. */
  body: CheckoutOrderInput | null;
}

/** What every "waiting for the payment" state carries. */
interface WaitingContext extends OrderContext {
  /** The countdown reached `expires_at`; a final status check decides. */
  timeUp: boolean;
  /** A passing notice (status check or cancel failed); the order is kept. */
  notice: MessageKey | null;
  /** True while `cancel_order` is in flight. */
  cancelling: boolean;
  /** What to do once the cancel is confirmed. */
  after: AfterCancel | null;
}

/** Push approval: the buyer approves on their phone. Poll status. */
export interface PushState extends WaitingContext {
  step: 'push';
  action: PushAction;
}

/** SMS code entry. `attemptsLeft` counts down on each wrong code. */
export interface OtpState extends WaitingContext {
  step: 'otp';
  action: OtpAction;
  /** The code as typed, digits only, at most 6. */
  code: string;
  error: MessageKey | null;
  attemptsLeft: number;
  /** True while `submit_otp` is in flight. */
  submitting: boolean;
}

/** QR and transfer key. Poll status. */
export interface TransferState extends WaitingContext {
  step: 'transfer';
  action: TransferAction;
}

/**
 * Card: hand the buyer to `action.url` (the provider's page). `returning`: the
 * buyer came back; do not send them away again, poll status instead.
 */
export interface RedirectState extends WaitingContext {
  step: 'redirect';
  action: RedirectAction;
  returning: boolean;
}

/** The order is being processed and the buyer has nothing to do (e.g. after a correct code). Poll status. */
export interface ProcessingState extends WaitingContext {
  step: 'processing';
}

export interface PaidState extends OrderContext {
  step: 'paid';
  request: null;
  /** Shown again from this device's saved receipt (a reload, a discarded tab): already reported once, no token. */
  restored?: boolean;
}
/** The gateway or the buyer's bank declined. "Try again" offered. */
export interface DeclinedState extends OrderContext {
  step: 'declined';
  request: null;
}
/**
 * Cancelled by the buyer, the merchant or too many wrong codes
 * (`order.cancel_reason`), or refunded (`order.status === 'refunded'`).
 */
export interface CancelledState extends OrderContext {
  step: 'cancelled';
  request: null;
}
/** The order's time ran out. "Try again" offered. */
export interface ExpiredState extends OrderContext {
  step: 'expired';
  request: null;
}

/** A state the error screen can return to: what was on screen when the request failed. */
export type ResumableState = LoadingState | DetailsState;

/** A request failed in a way the buyer should see; "try again" re-issues `retry`. */
export interface ErrorState {
  step: 'error';
  error: FlowError;
  message: ErrorMessageKey;
  /** The request "try again" re-issues (same idempotency key); null when retrying cannot help. */
  retry: FlowRequest | null;
  /** The screen to return to (with `retry` in flight, or without on `back`). */
  resume: ResumableState;
  link: CheckoutLink | null;
  request: null;
}

export type FlowState =
  | LoadingState
  | ResumingState
  | UnavailableState
  | AmountState
  | MethodState
  | DetailsState
  | PushState
  | OtpState
  | TransferState
  | RedirectState
  | ProcessingState
  | PaidState
  | DeclinedState
  | CancelledState
  | ExpiredState
  | ErrorState;

export type FlowStep = FlowState['step'];
export const flowSteps = [
  'loading',
  'resuming',
  'unavailable',
  'amount',
  'method',
  'details',
  'push',
  'otp',
  'transfer',
  'redirect',
  'processing',
  'paid',
  'declined',
  'cancelled',
  'expired',
  'error',
] as const satisfies readonly FlowStep[];

export type WaitingState = PushState | OtpState | TransferState | RedirectState | ProcessingState;
export type ResultState = PaidState | DeclinedState | CancelledState | ExpiredState;
export type OrderState = WaitingState | ResultState;

// ---------------------------------------------------------------------------
// Events

export type FlowEvent =
  /** The link loaded (result of `load_link`). */
  | { type: 'link_loaded'; link: CheckoutLink }
  /** `load_link` failed. LINK_NOT_FOUND/404, LINK_EXPIRED/410, LINK_ALREADY_PAID are screens. */
  | { type: 'link_failed'; error: FlowError }
  /** Resuming a saved order failed for now and is being retried (`card`: back from the card page). */
  | { type: 'resume_retrying'; card: boolean }
  /** Amount input changed (raw text; the state keeps it formatted). */
  | { type: 'amount_changed'; text: string }
  | { type: 'amount_submitted' }
  | { type: 'method_chosen'; id_payment_gateway: number }
  /** One screen back: details → method → amount. Error screen → the screen it came from. */
  | { type: 'back' }
  | { type: 'field_changed'; field: DetailsField; value: string }
  /** The personal-data consent box was checked or unchecked. */
  | { type: 'consent_changed'; checked: boolean }
  /**
   * The pay button. `idempotencyKey`: a fresh key the host generated for this
   * click (e.g. `crypto.randomUUID()`). Rule: one key per buyer intent. If the
   * previous attempt's outcome is unknown (network error, unreadable answer)
   * and the body is unchanged, the flow reuses that attempt's key and ignores
   * this one; otherwise (first submit, changed body, or after an order or a
   * definite refusal) it uses this one. Ignored while a submit is in flight.
   * `returnUrl`: where the card page returns (card methods only). `consentRequired`: the page asks for the
   * personal-data consent (`consent="required"`), so an unchecked box is a field error and no order is made.
   */
  | { type: 'details_submitted'; idempotencyKey: string; returnUrl?: string; consentRequired?: boolean }
  /** `create_order` succeeded. */
  | { type: 'order_created'; order: CheckoutOrderCreated }
  /** The request in flight (`create_order`, `submit_otp` or `cancel_order`) failed. */
  | { type: 'order_failed'; error: FlowError }
  /** The order as the service now sees it: a poll, a `check_status`, or the answer to `submit_otp`/`cancel_order`. */
  | { type: 'status_received'; order: CheckoutOrder }
  /** A status check failed; the waiting screen stays and keeps the order. */
  | { type: 'status_failed'; error: FlowError }
  /** SMS code input changed (kept as digits, at most 6). */
  | { type: 'otp_changed'; code: string }
  /** Submit the code (a paste of 6 digits submits at once). */
  | { type: 'otp_submitted'; code: string }
  /** The host learned a code was wrong some other way; `attempts_left` when known. */
  | { type: 'otp_rejected'; attempts_left?: number }
  | { type: 'cancel_requested' }
  /** Push: cancel this order, then back to details with focus on the phone. */
  | { type: 'change_number' }
  /** Any waiting screen: cancel this order on the service, then choose another method (what was typed is kept). */
  | { type: 'change_method' }
  /** SMS code: cancel this order and create a new one (a new intent, so a new key). */
  | { type: 'new_code'; idempotencyKey: string }
  /** The countdown reached `expires_at` (the host's clock); a final status check decides. */
  | { type: 'time_up' }
  /** "Try again" on the error screen: re-issue the failed request with the same key. */
  | { type: 'retry' }
  /** The receipt of a dynamic link: the buyer asks to pay the link again (a new amount). */
  | { type: 'new_payment' }
  /** "Try again" on declined/cancelled/expired: back to choosing a method, with what was typed. */
  | { type: 'try_again' }
  /**
   * The host found `{id_order, order_token}` in sessionStorage for this link and
   * loaded both the link and the order. `returnedFromCard`: the page is the card
   * provider's return, so don't redirect again.
   */
  | { type: 'resumed'; link: CheckoutLink; order: CheckoutOrder; orderToken: string; returnedFromCard?: boolean }
  /**
   * The host found this device's receipt of a paid order of this link (no token kept) and loaded the link: the
   * receipt again, instead of a fresh amount form or a bare "already paid". Only a confirmed order is taken.
   */
  | { type: 'receipt_restored'; link: CheckoutLink; order: CheckoutOrder }
  /**
   * The saved order could not be read for a reason that may pass (a 5xx, 429, offline, an unreadable answer): the
   * error screen, whose retry loads again and so resumes it. ORDER_NOT_FOUND is not this: the host forgets the order.
   */
  | { type: 'resume_failed'; error: FlowError }
  /** The buyer came back from the card page. */
  | { type: 'returned_from_card' }
  /** The card hand-off's URL is not one the element navigates to (not https, http only on loopback): the error screen. */
  | { type: 'handoff_refused' };

export type FlowEventType = FlowEvent['type'];
