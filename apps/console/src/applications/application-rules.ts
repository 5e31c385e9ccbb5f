import { installValidationMessages } from '@platform/contracts/validation-messages';
import { findWidgets, inlineTranslationSchema, validateWidgetTree, widgetRegistry, widgetTreeSchema, type InlineTranslation } from '@platform/widgets';
import { z } from 'zod';

// The problems below are shown as the server words its own (installed here, in the lazily loaded
// chunk that checks with Zod, so the console's first load does not carry Zod).
installValidationMessages();

/** One page of an application: where it is served and its widget tree (the shape the platform's tools write). */
const routeSchema = z.object({
  path: z.string().startsWith('/', 'a route path starts with /'),
  widgetTree: widgetTreeSchema,
});

export interface ApplicationFields {
  title: InlineTranslation;
  routes: Array<z.infer<typeof routeSchema>>;
}

/** A problem with one field of the form, and where inside it (`routes.0.widgetTree.widgets.w1.data.url`). */
export interface FieldProblem {
  field: 'title' | 'routes';
  path: string;
  message: string;
}

const pathOf = (parts: ReadonlyArray<PropertyKey>): string => parts.map(String).join('.');

/**
 * Checks an application's title and routes by the widget registry's rules before they are saved:
 * the title is an InlineTranslation, each route a path and a widget tree that is one tree of
 * registered widgets, each widget's configuration valid for its type. Answers the fields, or
 * every problem with its path.
 */
export function checkApplication(input: { title: unknown; routes: unknown }): { fields: ApplicationFields } | { problems: FieldProblem[] } {
  const problems: FieldProblem[] = [];
  const title = inlineTranslationSchema.safeParse(input.title);
  if (!title.success) for (const issue of title.error.issues) problems.push({ field: 'title', path: pathOf(['title', ...issue.path]), message: issue.message });
  const routes = z.array(routeSchema).safeParse(input.routes);
  if (!routes.success) {
    for (const issue of routes.error.issues) problems.push({ field: 'routes', path: pathOf(['routes', ...issue.path]), message: issue.message });
  } else {
    for (const [index, route] of routes.data.entries()) {
      const at = `routes.${index}.widgetTree`;
      for (const problem of validateWidgetTree(route.widgetTree, widgetRegistry)) problems.push({ field: 'routes', path: `${at}.${problem.path}`, message: problem.message });
      for (const [id, widget] of Object.entries(route.widgetTree.widgets)) {
        if (!widgetRegistry.get(widget.name)) continue;
        const configuration = widgetRegistry.resolveConfiguration(widget);
        if (!configuration.success) for (const issue of configuration.issues) problems.push({ field: 'routes', path: `${at}.widgets.${id}.${issue.field}`, message: issue.message });
      }
    }
  }
  if (problems.length > 0 || !title.success || !routes.success) return { problems };
  return { fields: { title: title.data, routes: routes.data } };
}

/** Whether an application has a CheckIn widget that names a visitor type: then it has a kiosk page. */
export function hasKiosk(application: unknown): boolean {
  return findWidgets(application, 'CheckIn').some((widget) => typeof (widget.data as { visitorTypeId?: unknown } | undefined)?.visitorTypeId === 'string');
}
