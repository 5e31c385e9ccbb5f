/** The services of the platform; the process entry hosts any subset of them. */
export const serviceNames = ['gateway', 'identity', 'data', 'audit', 'publishing', 'actions', 'visitors'] as const;
export type ServiceName = (typeof serviceNames)[number];
export type BackendServiceName = Exclude<ServiceName, 'gateway'>;
export const backendServiceNames = serviceNames.filter((name): name is BackendServiceName => name !== 'gateway');
