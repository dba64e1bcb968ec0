/**
 * The shapes the live service is documented or observed to answer in besides the contract's
 * (live-service-facts §12–13), named, so a merchant's log can say which one their account speaks.
 */

/** One way the service's answer differs from the contract that the clients read anyway. */
export type DialectVariant =
  /** `{ "result": … }` where the contract says `{ "data": … }`. */
  | 'result_envelope'
  /** The result itself, with no wrapper. */
  | 'bare_envelope'
  /** Gateway discovery as `{ payment_gateways: [...] }` (or `{ gateways: [...] }`) instead of a list. */
  | 'gateways_object'
  /** A created link's URL as `link` instead of `payment_url`. */
  | 'link_field'
  /** An order's `amount` where the contract says `total`. */
  | 'amount_field'
  /** An order's `created_at` where the contract says `purchase_date`. */
  | 'created_at_field'
  /** A status in another letter case (`CONFIRMED`). */
  | 'status_case'
  /** Cancel answered on `PUT /orders/{id}/cancel` (the guide's route) rather than `POST /orders/cancel/{id}`. */
  | 'cancel_put_route'
  /** A failure whose body is not the service's ErrorResponse (an HTML page, a framework's `{statusCode, message}`). */
  | 'foreign_error_body';

export interface DialectReport {
  variant: DialectVariant;
  /** Where it was first seen: `GET /orders/42`. */
  route: string;
  /** One plain sentence for the merchant's log. */
  message: string;
}

/** Called once per client for each variant the service uses (two clients, or two handlers, are each told). */
export type OnDialect = (report: DialectReport) => void;

const sentences: Record<DialectVariant, string> = {
  result_envelope: 'The service wraps answers in "result" rather than "data"; read as the contract\'s.',
  bare_envelope: 'The service answers without a "data" wrapper; read as the contract\'s.',
  gateways_object: 'The service lists payment gateways as an object ({ payment_gateways: [...] }); read as a list.',
  link_field: 'The service names a link\'s URL "link" rather than "payment_url"; read as payment_url.',
  amount_field: 'The service names an order\'s total "amount"; read as total.',
  created_at_field: 'The service names an order\'s date "created_at"; read as purchase_date.',
  status_case: 'The service sends order statuses in another letter case; read in lower case.',
  cancel_put_route: 'The service cancels orders on PUT /orders/{id}/cancel; that route is used from now on.',
  foreign_error_body: 'The service answered a failure with a body that is not its error format; reported with the HTTP status and route.',
};

/** Reports `variant` to the client's `onDialect` unless this client reported it before; a throwing callback is ignored. */
export type NoteDialect = (variant: DialectVariant, route: string) => void;

/**
 * A client's noter (each client makes one): once per client, not once per answer. Not once per process nor per
 * callback: a second client, or a second handler with its own `onEvent`, is told too, whatever the first was told.
 */
export function dialectNoter(onDialect: OnDialect | undefined): NoteDialect {
  if (!onDialect) return () => {};
  const known = new Set<DialectVariant>();
  return (variant, route) => {
    if (known.has(variant)) return;
    known.add(variant);
    try {
      onDialect({ variant, route, message: sentences[variant] });
    } catch {
      // a logging callback must never fail a payment call
    }
  };
}
