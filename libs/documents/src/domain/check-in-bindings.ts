import { findWidgets } from '@platform/widgets';

export interface CheckInBinding {
  widgetId: string;
  /** The type the widget names as `visitorTypeId` or `visitorEventTypeId`. */
  typeId: string;
}

/**
 * The first CheckIn widget in an application that names a visitor or visitor-event type: such a
 * widget opens that type to anonymous writes through the visitors API (services/visitors reads
 * the same widgets). Any value under those keys counts, valid or not, so a later fix of the rest
 * of the configuration cannot bind a type unchecked.
 */
export function visitorTypeBinding(application: Record<string, unknown>): CheckInBinding | undefined {
  for (const widget of findWidgets(application, 'CheckIn')) {
    const data = widget.data;
    if (data === null || typeof data !== 'object') continue;
    const { visitorTypeId, visitorEventTypeId } = data as Record<string, unknown>;
    const named = visitorTypeId ?? visitorEventTypeId;
    if (named !== undefined) return { widgetId: widget.id, typeId: String(named) };
  }
  return undefined;
}
