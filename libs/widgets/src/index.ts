export { inlineTranslationSchema, type InlineTranslation } from './inline-translation';
export { widgetSchema, widgetTreeSchema, type Widget, type WidgetTree } from './widget';
export { widgetRegistrationSchema, type ComponentLoader, type WidgetRegistration } from './registration';
export { WidgetRegistry, WidgetRegistrationError, createWidgetRegistry, widgetRegistry, type ConfigurationResult } from './registry';
export { validateWidgetTree, type TreeProblem } from './widget-tree';
export { findWidgets } from './find-widgets';
export { platformLlmText, widgetsLlmText, WIDGETS_LLM_PATH } from './llm-docs';
export { gameWorldConfigurationSchema, gameWorldRegistration, type GameWorldConfiguration } from './widgets/game-world';
export { streamVideoConfigurationSchema, streamVideoPlayerUrl, streamVideoRegistration, STREAM_VIDEO_FLAGS, type StreamVideoConfiguration } from './widgets/stream-video';
export {
  checkInConfigurationSchema,
  checkInRegistration,
  defaultDeletionPeriod,
  deletionPeriodSchema,
  DEFAULT_DELETION_PERIODS,
  DEFAULT_RETENTION_MS,
  type CheckInConfiguration,
  type DeletionPeriod,
} from './widgets/check-in';
