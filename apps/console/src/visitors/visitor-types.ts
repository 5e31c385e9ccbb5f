import { checkInConfigurationSchema, findWidgets } from '@platform/widgets';

/**
 * The project's visitor types: those a CheckIn widget of one of its applications names as
 * `visitorTypeId`, read as the visitors service reads them (a widget whose configuration is
 * invalid binds nothing), in the order first met.
 */
export function visitorTypesOf(applications: readonly unknown[]): string[] {
  const types: string[] = [];
  for (const application of applications) {
    for (const widget of findWidgets(application, 'CheckIn')) {
      const parsed = checkInConfigurationSchema.safeParse(widget.data ?? {});
      const typeId = parsed.success ? parsed.data.visitorTypeId : undefined;
      if (typeId && !types.includes(typeId)) types.push(typeId);
    }
  }
  return types;
}
