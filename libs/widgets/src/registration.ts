import { z } from 'zod';
import { inlineTranslationSchema } from './inline-translation';

/**
 * How a client loads a widget's component lazily: a function (`() => import('./Widget')`) in a
 * browser bundle, or the module specifier to import where functions cannot travel (the server).
 */
export type ComponentLoader = string | (() => Promise<unknown>);

const componentLoaderSchema = z.custom<ComponentLoader>(
  (value) => typeof value === 'function' || (typeof value === 'string' && value.length > 0),
  'expected a function that imports the component, or its module specifier',
);

const dataSchemaSchema = z.custom<z.ZodType>((value) => value instanceof z.ZodType, 'expected a zod schema of the widget configuration');

/**
 * A widget type as it is registered: the spec's fields, with `description` required when the
 * widget is offered in the catalogue (agents and editors need it to choose a widget).
 */
export const widgetRegistrationSchema = z
  .object({
    name: z.string().regex(/^[A-Za-z][A-Za-z0-9]*$/, 'a widget name is letters and digits, starting with a letter'),
    title: inlineTranslationSchema.optional(),
    description: inlineTranslationSchema.optional(),
    category: z.string().min(1).optional(),
    visibleInCatalog: z.boolean().optional(),
    componentLoader: componentLoaderSchema,
    dataSchema: dataSchemaSchema.optional(),
  })
  .superRefine((registration, context) => {
    if (registration.visibleInCatalog && registration.description === undefined) {
      context.addIssue({ code: 'custom', path: ['description'], message: 'description is required when visibleInCatalog is true' });
    }
  });

export type WidgetRegistration = z.infer<typeof widgetRegistrationSchema>;
