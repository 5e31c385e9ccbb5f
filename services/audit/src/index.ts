export { auditService } from './app';
/** Where the trail's items are stored (for tests across services that look at what was stored). */
export { TRAIL_COLLECTION } from './trail/trail-item';
