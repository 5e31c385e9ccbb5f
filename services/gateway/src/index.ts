export { buildGateway, type Gateway, type GatewayOptions } from './app';
export { routeTable, serviceForPath, sessionBypassList } from './route-table';
export { issueRealtimeToken } from './realtime/realtime-token';
