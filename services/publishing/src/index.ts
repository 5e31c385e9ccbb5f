export { createPublishingService, publishingService, type PublishingServiceOptions } from './app';
