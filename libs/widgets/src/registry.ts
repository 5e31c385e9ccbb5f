import type { z } from 'zod';
import { widgetRegistrationSchema, type WidgetRegistration } from './registration';
import { checkInRegistration } from './widgets/check-in';
import { gameWorldRegistration } from './widgets/game-world';
import { streamVideoRegistration } from './widgets/stream-video';
import type { Widget } from './widget';

export class WidgetRegistrationError extends Error {
  constructor(
    message: string,
    readonly issues: Array<{ field: string; message: string }>,
  ) {
    super(message);
    this.name = 'WidgetRegistrationError';
  }
}

export type ConfigurationResult = { success: true; configuration: Record<string, unknown> } | { success: false; issues: Array<{ field: string; message: string }> };

function describeIssues(error: z.ZodError, prefix: string): Array<{ field: string; message: string }> {
  return error.issues.map((issue) => ({ field: [prefix, ...issue.path.map(String)].filter(Boolean).join('.'), message: issue.message }));
}

/** Widget types by unique name; a registration is checked against the spec's rules when added. */
export class WidgetRegistry {
  private readonly registrations = new Map<string, WidgetRegistration>();

  constructor(registrations: WidgetRegistration[] = []) {
    for (const registration of registrations) this.register(registration);
  }

  register(registration: WidgetRegistration): void {
    const checked = widgetRegistrationSchema.safeParse(registration);
    if (!checked.success) {
      const issues = describeIssues(checked.error, '');
      throw new WidgetRegistrationError(`Invalid widget registration ${String(registration.name)}: ${issues[0]?.field} ${issues[0]?.message}`, issues);
    }
    if (this.registrations.has(registration.name)) throw new WidgetRegistrationError(`A widget named ${registration.name} is already registered`, [{ field: 'name', message: 'already registered' }]);
    this.registrations.set(registration.name, registration);
  }

  get(name: string): WidgetRegistration | undefined {
    return this.registrations.get(name);
  }

  all(): WidgetRegistration[] {
    return [...this.registrations.values()];
  }

  /** The widgets offered to editors and agents, in name order. */
  catalogue(): WidgetRegistration[] {
    return this.all()
      .filter((registration) => registration.visibleInCatalog === true)
      .sort((a, b) => a.name.localeCompare(b.name));
  }

  /**
   * A widget's effective configuration: its data with every default of its type filled in, or the
   * problems that make it invalid. A type without a data schema takes its data as it is.
   */
  resolveConfiguration(widget: Pick<Widget, 'name' | 'data'>): ConfigurationResult {
    const registration = this.registrations.get(widget.name);
    if (!registration) return { success: false, issues: [{ field: 'name', message: `${widget.name} is not a registered widget` }] };
    if (!registration.dataSchema) return { success: true, configuration: (widget.data ?? {}) as Record<string, unknown> };
    const parsed = registration.dataSchema.safeParse(widget.data ?? {});
    return parsed.success ? { success: true, configuration: parsed.data as Record<string, unknown> } : { success: false, issues: describeIssues(parsed.error, 'data') };
  }
}

/** The platform's widget types. */
export function createWidgetRegistry(): WidgetRegistry {
  return new WidgetRegistry([gameWorldRegistration, streamVideoRegistration, checkInRegistration]);
}

/** One shared registry of the platform's widget types (registrations are immutable data). */
export const widgetRegistry: WidgetRegistry = createWidgetRegistry();
