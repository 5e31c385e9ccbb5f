export { buildGateway, type Gateway, type GatewayOptions } from './app';
export { routeTable, serviceForPath, sessionBypassList } from './route-table';
