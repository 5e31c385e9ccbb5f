export type { BusMessage, DrainResult, EventBus, LiveMessage, PublishOptions, PublishResult, SubscribeOptions, Subscription } from './port';
export { whileWorking } from './heartbeat';
export { createInProcessBus, type InProcessBusOptions } from './in-process';
export { createNatsBus, NATS_NAMESPACE_PATTERN, type NatsBusOptions } from './nats';
export { openEventBus } from './open-event-bus';
export { subjectMatches } from './subject-filter';
