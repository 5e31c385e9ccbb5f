export { publishingService } from './app';
