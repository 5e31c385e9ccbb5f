export { actionsService } from './app';
