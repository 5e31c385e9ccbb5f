import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { interpolate, localEnvironment, readComposeServices, startOrder } from './compose-topology';

const composeFile = resolve(__dirname, '../../../docker-compose.yml');

describe('compose variable interpolation', () => {
  it.each([
    ['${A}', { A: 'x' }, 'x'],
    ['${A:-fallback}', {}, 'fallback'],
    ['${A:-fallback}', { A: '' }, 'fallback'],
    ['${A-fallback}', { A: '' }, ''],
    ['pre-${A}-post', { A: 'mid' }, 'pre-mid-post'],
    ['${A:-http://localhost:${B:-3000}}', {}, 'http://localhost:3000'],
    ['${A:-http://localhost:${B:-3000}}', { B: '8080' }, 'http://localhost:8080'],
    ['${A:-http://localhost:${B:-3000}}/x', { A: 'https://p.example.org' }, 'https://p.example.org/x'],
    ['${A:-${B:?unused when A is set}}', { A: 'a' }, 'a'],
  ])('%s with %j is %s', (template, variables, expected) => {
    expect(interpolate(template, variables)).toBe(expected);
  });

  it('stops on a required variable that is missing, with its message', () => {
    expect(() => interpolate('${SECRET:?set SECRET}', {})).toThrow('compose variable SECRET: set SECRET');
  });
});

describe('docker-compose.yml as a local topology', () => {
  it('has one container per service, all depending on the backends, the gateway on every service', async () => {
    const services = await readComposeServices(composeFile, { PRINCIPAL_SECRET: 'x'.repeat(32) });
    expect(services.map((s) => s.name).sort()).toEqual(['actions', 'audit', 'data', 'gateway', 'identity', 'publishing', 'visitors']);
    const gateway = services.find((s) => s.name === 'gateway');
    expect(gateway?.dependsOn).toEqual(expect.arrayContaining(['identity', 'data', 'audit', 'publishing', 'actions', 'visitors']));
    for (const service of services.filter((s) => s.name !== 'gateway')) {
      expect(service.environment.SERVICES).toBe(service.name);
      expect(service.dependsOn).toEqual(expect.arrayContaining(['mongo', 'nats', 'redis']));
    }
    expect(startOrder(services).at(-1)?.map((s) => s.name)).toEqual(['gateway']);
  });

  it('maps backend and service hosts to loopback', async () => {
    const services = await readComposeServices(composeFile, { PRINCIPAL_SECRET: 'x'.repeat(32) });
    const gateway = services.find((s) => s.name === 'gateway')!;
    const ports = new Map(services.map((s, index) => [s.name, 4000 + index]));
    const env = localEnvironment(gateway, { mongo: 'mongodb://127.0.0.1:1/', nats: 'nats://127.0.0.1:2', redis: 'redis://127.0.0.1:3' }, ports);
    expect(env.REDIS_URL).toBe('redis://127.0.0.1:3');
    expect(env.DATA_URL).toBe(`http://127.0.0.1:${ports.get('data')}`);
    expect(env.PORT).toBe(String(ports.get('gateway')));
    expect(env.HOST).toBe('127.0.0.1');
  });
});
