export { dataService } from './app';
