import { applicationsCollection, type StoredEntity } from '@platform/documents';
import type { DocumentStore } from '@platform/storage';
import { checkInConfigurationSchema, findWidgets, type CheckInConfiguration } from '@platform/widgets';

/** What a public kiosk page needs to render one application's CheckIn widget, and nothing more. */
export interface KioskConfiguration {
  applicationId: string;
  widgetId: string;
  visitorCollectionName: string;
  eventCollectionName?: string;
  configuration: Omit<CheckInConfiguration, 'visitorTypeId' | 'visitorEventTypeId' | 'contactsTypeId'>;
}

/**
 * The first CheckIn widget of a live application that binds a visitor type, with every default
 * filled in. Only the widget's texts, scanner flag and deletion periods leave the server (the
 * kiosk is public): no other part of the application, and no contacts type.
 */
export async function kioskConfiguration(store: DocumentStore, projectId: string, applicationId: string): Promise<KioskConfiguration | null> {
  const application = await store.collection<StoredEntity>(applicationsCollection(projectId)).findById(applicationId);
  if (!application || application.deletedAt !== undefined) return null;
  for (const widget of findWidgets(application, 'CheckIn')) {
    const parsed = checkInConfigurationSchema.safeParse(widget.data ?? {});
    if (!parsed.success || !parsed.data.visitorTypeId) continue;
    const { visitorTypeId, visitorEventTypeId, contactsTypeId: _contacts, ...configuration } = parsed.data;
    return {
      applicationId,
      widgetId: widget.id,
      visitorCollectionName: `tenant-${projectId}-${visitorTypeId}`,
      ...(visitorEventTypeId ? { eventCollectionName: `tenant-${projectId}-${visitorEventTypeId}` } : {}),
      configuration,
    };
  }
  return null;
}
