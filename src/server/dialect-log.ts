/** The handler's default `onDialect`: one `service_dialect` event per shape the service speaks, once per process. */
import type { DialectVariant, OnDialect } from '../client/index.js';
import type { EventSink } from './events.js';

const told = new Set<DialectVariant>();

/** Once per process, however many handlers a process makes (a serverless module may make one per request). */
export function dialectEvents(emit: EventSink): OnDialect {
  return (report) => {
    if (told.has(report.variant)) return;
    told.add(report.variant);
    emit({ level: 'info', name: 'service_dialect', message: `${report.message} (first seen on ${report.route})`, variant: report.variant, route: report.route });
  };
}
