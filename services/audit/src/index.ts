export { auditService } from './app';
