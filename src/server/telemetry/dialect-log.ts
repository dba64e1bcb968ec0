/**
 * The handler's default `onDialect`: one `service_dialect` event per shape the service speaks, once per handler. Each
 * handler makes its own, so two handlers in one process, each with its own `onEvent`, are both told; a set kept for
 * the whole process would tell only the first.
 */
import type { DialectVariant, OnDialect } from '../../client/index.js';
import type { EventSink } from '../events.js';

export function dialectEvents(emit: EventSink): OnDialect {
  const told = new Set<DialectVariant>();
  return (report) => {
    if (told.has(report.variant)) return;
    told.add(report.variant);
    emit({ level: 'info', name: 'service_dialect', message: `${report.message} (first seen on ${report.route})`, variant: report.variant, route: report.route });
  };
}
