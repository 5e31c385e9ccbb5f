export { identityService } from './app';
