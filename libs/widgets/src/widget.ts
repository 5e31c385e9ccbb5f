import { z } from 'zod';

/** One widget instance on a page: a registered widget type, its data, styles and child slots. */
export const widgetSchema = z.object({
  id: z.string().min(1),
  name: z.string().min(1).describe('A registered widget type'),
  data: z.unknown().optional(),
  styles: z.record(z.string(), z.string()).optional().describe('CSS property to value'),
  slots: z.record(z.string(), z.array(z.string())).optional().describe('Slot name to the ids of the widgets in it, in order'),
});

export type Widget = z.infer<typeof widgetSchema>;

/** A page's widgets, keyed by id, and the one at the root (undefined for an empty page). */
export const widgetTreeSchema = z.object({
  rootWidgetId: z.string().min(1).optional(),
  widgets: z.record(z.string(), widgetSchema),
});

export type WidgetTree = z.infer<typeof widgetTreeSchema>;
