import { z } from 'zod';
import { inlineTranslationSchema } from '../inline-translation';
import type { WidgetRegistration } from '../registration';

/** 28 days: the spec's default visitor retention. */
export const DEFAULT_RETENTION_MS = 2_419_200_000;

/** How long a visitor record is kept; the entry marked `isDefault` is pre-selected. */
export const deletionPeriodSchema = z.object({
  duration: z.number().int().positive().describe('Milliseconds'),
  label: inlineTranslationSchema,
  isDefault: z.boolean().default(false),
});

export type DeletionPeriod = z.infer<typeof deletionPeriodSchema>;

export const DEFAULT_DELETION_PERIODS: DeletionPeriod[] = [{ duration: DEFAULT_RETENTION_MS, label: { en: '28 days', de: '28 Tage' }, isDefault: true }];

/** CheckIn configuration: texts, the scanner, retention choices and the types it writes to. */
export const checkInConfigurationSchema = z.object({
  title: inlineTranslationSchema.optional(),
  description: inlineTranslationSchema.optional(),
  successSignInMessage: inlineTranslationSchema.optional(),
  successSignOutMessage: inlineTranslationSchema.optional(),
  smallPrint: inlineTranslationSchema.optional(),
  scannerButtonText: inlineTranslationSchema.optional(),
  scannerEnabled: z.boolean().default(false).describe('Offer a code scanner for check-out'),
  deletionPeriods: z
    .array(deletionPeriodSchema)
    .min(1)
    .refine((periods) => periods.filter((period) => period.isDefault).length <= 1, 'at most one deletion period is the default')
    .default(DEFAULT_DELETION_PERIODS)
    .describe('Retention choices offered to the visitor; one period of 2419200000 ms (28 days) when omitted'),
  visitorTypeId: z.string().min(1).optional().describe('Type of the visitor records'),
  visitorEventTypeId: z.string().min(1).optional().describe('Type of the check-in and check-out records'),
  contactsTypeId: z.string().min(1).optional().describe('Type of the contacts a visitor can name'),
});

export type CheckInConfiguration = z.infer<typeof checkInConfigurationSchema>;

/** The pre-selected period: the one marked `isDefault`, else the first. */
export function defaultDeletionPeriod(configuration: Pick<CheckInConfiguration, 'deletionPeriods'>): DeletionPeriod {
  return configuration.deletionPeriods.find((period) => period.isDefault) ?? (configuration.deletionPeriods[0] as DeletionPeriod);
}

export const checkInRegistration: WidgetRegistration = {
  name: 'CheckIn',
  title: { en: 'Visitor check-in', de: 'Besucher-Check-in' },
  description: {
    en: 'A kiosk form where visitors check in and out; records are deleted after the chosen retention period.',
    de: 'Ein Kiosk-Formular zum Ein- und Auschecken von Besuchern; Einträge werden nach der gewählten Frist gelöscht.',
  },
  category: 'content',
  visibleInCatalog: true,
  componentLoader: '@platform/widgets-ui/check-in',
  dataSchema: checkInConfigurationSchema,
};
