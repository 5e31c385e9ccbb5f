export { loadPlatformConfig, type PlatformConfig } from './config';
export { startPlatform, type RunningPlatform } from './host';
export { startLocalTopology, type LocalTopology } from './compose/local-topology';
