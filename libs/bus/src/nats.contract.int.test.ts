import { describeWithBackend } from '@platform/testkit';
import { runEventBusContract } from './contract';
import { createNatsBus } from './nats';

describeWithBackend('nats', 'JetStream adapter', ({ url }) => {
  runEventBusContract('nats', () => createNatsBus({ url }));
});
