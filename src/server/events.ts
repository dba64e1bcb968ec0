/**
 * Structured events of the server parts (handler, serve(), claim stores): plain JSON-serializable objects with a
 * level and a name, given to one `onEvent` option; the default writes each as one console line.
 * Nothing secret or personal goes in one: no merchant key, order token, signing secret, document, phone, email or name.
 */

export type ServerEventLevel = 'error' | 'warn' | 'info';

/**
 * `name`s: `unexpected_error`, `adapter_error`, `store_error`, `store_durability`, `store_write_back`,
 * `store_listener_failed`, `limit_reached`, `webhook_refused`, `claim_in_doubt`, `not_ready`, `shutdown_started`,
 * `shutdown_finished`, `service_dialect`, `order_status_unlinked`, `order_status_unrecorded`, `order_link_delayed`; the
 * relay's (`pay-checkout serve`): `notice_recorded`, `notice_delivered`, `notice_delivery_failed`, `notice_given_up`,
 * `notice_outbox_error`, `notice_outbox_volatile`. Other fields are plain values (strings, numbers, booleans) or `error: { name, message, stack? }`.
 */
export interface ServerEvent {
  level: ServerEventLevel;
  name: string;
  message: string;
  [field: string]: unknown;
}

export type EventSink = (event: ServerEvent) => void;

/**
 * An error as plain fields; `redact` takes out what must never be written (the merchant key). The stack only for
 * what is a bug to look into (an unexpected error), not for an outage the message says all of (a store unreachable).
 */
export function errorFields(error: unknown, redact: (text: string) => string = (t) => t, withStack = true): { name: string; message: string; stack?: string } {
  if (!(error instanceof Error)) return { name: 'Error', message: redact(String(error)) };
  return { name: error.name, message: redact(error.message), ...(withStack && error.stack ? { stack: redact(error.stack) } : {}) };
}

/** The default sink: one console line per event, at its level (`[pay-checkout] name: message`, a stack below when there is one). */
export const consoleSink: EventSink = (event) => {
  const { level, name, message, ...fields } = event;
  const write = level === 'error' ? console.error : level === 'warn' ? console.warn : console.info;
  const stack = (fields.error as { stack?: string } | undefined)?.stack;
  write(`[pay-checkout] ${name}: ${message}${stack ? `\n${stack}` : ''}`);
};

/** A sink that never throws into the server: a failing `onEvent` is reported once on the console. */
export function safeSink(sink: EventSink | undefined): EventSink {
  if (!sink) return consoleSink;
  let warned = false;
  return (event) => {
    try {
      sink(event);
    } catch (error) {
      if (!warned) console.error('[pay-checkout] onEvent threw; events go on to it regardless:', error);
      warned = true;
    }
  };
}

/**
 * A store's own events: to its `onEvent` option when given, else to the handler's (a handler given this store
 * attaches its own sink through `attach`), else the console.
 */
export function storeEvents(own: EventSink | undefined): { emit: EventSink; attach(sink: EventSink): void } {
  let attached: EventSink | undefined;
  const sink = own ? safeSink(own) : undefined;
  return {
    emit: (event) => (sink ?? attached ?? consoleSink)(event),
    attach: (handlerSink) => {
      attached = handlerSink;
    },
  };
}
