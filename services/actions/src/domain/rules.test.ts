import { describe, expect, it } from 'vitest';
import { evaluateCondition } from './condition';
import { NetworkPolicy } from './network-policy';
import { socketsCompatible, valueFits } from './sockets';
import { TemplateBudget } from '../blocks/template-budget';
import { MAX_PLACEHOLDERS, placeholderCount, renderTemplate } from './templates';
import { projectWebhookKey, verifyWebhookSignature, webhookSignature } from './webhook-signature';

describe('NetworkPolicy', () => {
  const strict = new NetworkPolicy([]);
  it.each([
    ['127.0.0.1', 'loopback'],
    ['10.1.2.3', 'private'],
    ['192.168.0.10', 'private'],
    ['172.16.5.4', 'private'],
    ['169.254.169.254', 'linkLocal'],
    ['100.64.0.1', 'carrierGradeNat'],
    ['0.0.0.0', 'unspecified'],
    ['::1', 'loopback'],
    ['fe80::1', 'linkLocal'],
    ['fd00::1', 'uniqueLocal'],
    ['::ffff:127.0.0.1', 'loopback'],
    ['::ffff:10.0.0.1', 'private'],
  ])('refuses %s (%s)', (address, range) => {
    expect(strict.refusal(address)).toBe(`${address} is a ${range} address`);
  });

  it('lets public unicast addresses through', () => {
    expect(strict.refusal('93.184.216.34')).toBeUndefined();
    expect(strict.refusal('2606:2800:220:1:248:1893:25c8:1946')).toBeUndefined();
  });

  it('lets configured networks through, and only those', () => {
    const loopback = new NetworkPolicy(['127.0.0.0/8', '::1/128']);
    expect(loopback.refusal('127.0.0.1')).toBeUndefined();
    expect(loopback.refusal('::1')).toBeUndefined();
    expect(loopback.refusal('10.0.0.1')).toBe('10.0.0.1 is a private address');
  });

  it.each([
    ['::7f00:1', 'IPv4-compatible', '127.0.0.1', 'loopback'],
    ['::a00:1', 'IPv4-compatible', '10.0.0.1', 'private'],
    ['::ffff:0:c0a8:101', 'SIIT', '192.168.1.1', 'private'],
    ['64:ff9b::7f00:1', 'NAT64', '127.0.0.1', 'loopback'],
    ['64:ff9b::a9fe:a9fe', 'NAT64', '169.254.169.254', 'linkLocal'],
    ['2002:7f00:1::1', '6to4', '127.0.0.1', 'loopback'],
    ['2002:c0a8:101::', '6to4', '192.168.1.1', 'private'],
    ['2001:0:a00:1::1', 'Teredo', '10.0.0.1', 'private'],
    ['2001:0:4136:e378:8000:63bf:80ff:fffe', 'Teredo', '127.0.0.1', 'loopback'],
  ])('refuses %s, a %s form of %s (%s)', (address, form, ipv4, range) => {
    expect(new NetworkPolicy([]).refusal(address)).toBe(`${address} is the ${form} form of ${ipv4}, a ${range} address`);
  });

  it('judges a public IPv4 inside an IPv6 form by the IPv6 range, and applies configured networks to the carried address', () => {
    expect(new NetworkPolicy([]).refusal('::808:808')).toBeUndefined();
    expect(new NetworkPolicy([]).refusal('64:ff9b::808:808')).toBe('64:ff9b::808:808 is a rfc6052 address');
    expect(new NetworkPolicy(['127.0.0.0/8']).refusal('::7f00:1')).toBeUndefined();
  });

  it('judges literal URL hosts, and leaves host names to the check after DNS resolution', () => {
    const strict = new NetworkPolicy([]);
    expect(strict.urlRefusal(new URL('http://[::127.0.0.1]/'))).toBe('::7f00:1 is the IPv4-compatible form of 127.0.0.1, a loopback address');
    expect(strict.urlRefusal(new URL('http://127.1:8080/'))).toBe('127.0.0.1 is a loopback address');
    expect(strict.urlRefusal(new URL('https://hooks.example.org/x'))).toBeUndefined();
  });
});

describe('sockets', () => {
  it('joins equal types and anything into object, nothing else', () => {
    expect(socketsCompatible('string', 'string')).toBe(true);
    expect(socketsCompatible('number[]', 'object')).toBe(true);
    expect(socketsCompatible('string', 'string[]')).toBe(false);
    expect(socketsCompatible('object', 'string')).toBe(false);
  });

  it('checks values against socket types', () => {
    expect(valueFits('string[]', ['a', 'b'])).toBe(true);
    expect(valueFits('string[]', ['a', 1])).toBe(false);
    expect(valueFits('number', '1')).toBe(false);
    expect(valueFits('null', null)).toBe(true);
    expect(valueFits('object', 42)).toBe(true);
  });
});

describe('renderTemplate', () => {
  it('fills paths, writes objects as JSON and missing values as nothing', () => {
    const context = { data: { document: { title: 'Report', tags: ['a'] } } };
    expect(renderTemplate('New: {{ data.document.title }} {{data.document.tags}} {{data.missing}}!', context, new TemplateBudget())).toBe('New: Report ["a"] !');
    expect(renderTemplate('{{constructor}}{{data.__proto__}}', context, new TemplateBudget())).toBe('');
  });

  it('fails with ACTIONS_TEMPLATE_TOO_LARGE once what it fills passes the budget, counting every template of the block together', () => {
    const context = { data: { document: { body: 'x'.repeat(10_000) } } };
    const within = new TemplateBudget();
    expect(renderTemplate('{{data.document.body}}'.repeat(100), context, within)).toHaveLength(1_000_000);
    expect(() => renderTemplate('{{data.document.body}}'.repeat(5), context, within)).toThrow(expect.objectContaining({ code: 'ACTIONS_TEMPLATE_TOO_LARGE' }));
    expect(() => renderTemplate('{{data}}'.repeat(MAX_PLACEHOLDERS), context, new TemplateBudget())).toThrow(/would pass 1048576 characters/);
  });

  it('counts placeholders in a string, or in every string value of a modifier, never in its keys', () => {
    expect(placeholderCount('{{a}} and {{ b.c }} but not {{a b}} or {a}')).toBe(2);
    expect(placeholderCount({ $set: { '{{key}}': '{{a}}', list: ['{{b}}', 3, { deep: '{{c}}{{d}}' }] } })).toBe(4);
  });
});

describe('evaluateCondition', () => {
  const subject = { data: { document: { status: 'done', count: 3, tags: ['x'] } } };
  it.each([
    [{ path: 'data.document.status', operator: 'equals' as const, value: 'done' }, true],
    [{ path: 'data.document.status', operator: 'notEquals' as const, value: 'done' }, false],
    [{ path: 'data.document.count', operator: 'greaterThan' as const, value: 2 }, true],
    [{ path: 'data.document.count', operator: 'lessThan' as const, value: '9' }, false],
    [{ path: 'data.document.tags', operator: 'contains' as const, value: 'x' }, true],
    [{ path: 'data.document.missing', operator: 'exists' as const }, false],
    [{ path: 'data.document.missing', operator: 'truthy' as const }, false],
  ])('%j is %s', (condition, expected) => {
    expect(evaluateCondition(condition, subject)).toBe(expected);
  });
});

describe('webhook signature', () => {
  it('verifies its own signature and nothing else', () => {
    const signature = webhookSignature('s'.repeat(16), 'p1', 1000, '{"a":1}');
    expect(signature).toMatch(/^sha256=[0-9a-f]{64}$/);
    expect(verifyWebhookSignature('s'.repeat(16), 'p1', 1000, '{"a":1}', signature)).toBe(true);
    expect(verifyWebhookSignature('s'.repeat(16), 'p1', 1001, '{"a":1}', signature)).toBe(false);
    expect(verifyWebhookSignature('t'.repeat(16), 'p1', 1000, '{"a":1}', signature)).toBe(false);
    expect(verifyWebhookSignature('s'.repeat(16), 'p2', 1000, '{"a":1}', signature)).toBe(false);
  });

  it('derives one key per project from the global secret, none of them the global secret', () => {
    const global = 'g'.repeat(32);
    expect(projectWebhookKey(global, 'p1')).toMatch(/^[0-9a-f]{64}$/);
    expect(projectWebhookKey(global, 'p1')).toBe(projectWebhookKey(global, 'p1'));
    expect(projectWebhookKey(global, 'p1')).not.toBe(projectWebhookKey(global, 'p2'));
    expect(projectWebhookKey('h'.repeat(32), 'p1')).not.toBe(projectWebhookKey(global, 'p1'));
  });
});
