export { visitorsService } from './app';
