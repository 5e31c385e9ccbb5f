export { auditService } from './app';
/** Where the trail's items are stored (for tests across services that look at what was stored). */
export { TRAIL_COLLECTION } from './trail/trail-item';
/** Regenerates a project's trail from the documents' histories (the rebuild command's work; for tests that compare it with the live trail). */
export { rebuildProjectTrail } from './rebuild/rebuild-project';
