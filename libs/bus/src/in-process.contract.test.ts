import { runEventBusContract } from './contract';
import { createInProcessBus } from './in-process';

runEventBusContract('in-process', async () => createInProcessBus());
