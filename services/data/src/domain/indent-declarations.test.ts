import { describe, expect, it } from 'vitest';
import { indentDeclarations } from './indent-declarations';

describe('indentDeclarations', () => {
  it('indents members, nested object types and their comments by their braces', () => {
    const flat = ['/**', ' * Notes', ' */', 'export interface Notes {', 'address?: {', 'city: string', '/**', ' * where', ' */', 'geo?: {', 'lat?: number', '}', '}', 'tags?: {', 'name?: string', '}[]', '}', ''].join('\n');
    expect(indentDeclarations(flat)).toBe(
      [
        '/**',
        ' * Notes',
        ' */',
        'export interface Notes {',
        '  address?: {',
        '    city: string',
        '    /**',
        '     * where',
        '     */',
        '    geo?: {',
        '      lat?: number',
        '    }',
        '  }',
        '  tags?: {',
        '    name?: string',
        '  }[]',
        '}',
        '',
      ].join('\n'),
    );
  });

  it('keeps a union of an object type and others at one level, and tuples of object types', () => {
    const flat = ['export interface A {', 'kind?: ({', 'a?: string', '} | string)', 'pair?: [{', 'x?: number', '}, {', 'y?: number', '}]', '}'].join('\n');
    expect(indentDeclarations(flat).split('\n')).toEqual(['export interface A {', '  kind?: ({', '    a?: string', '  } | string)', '  pair?: [{', '    x?: number', '  }, {', '    y?: number', '  }]', '}']);
  });

  it('does not count braces in string literal types or in comments', () => {
    const flat = ['/**', ' * Use { here {', ' */', 'export interface B {', 'title?: ("a {" | "b \\" }" | \'{\')', '/** one line { */', 'n?: number', '}', 'export interface C {', 'x?: 1', '}'].join('\n');
    expect(indentDeclarations(flat).split('\n')).toEqual([
      '/**',
      ' * Use { here {',
      ' */',
      'export interface B {',
      '  title?: ("a {" | "b \\" }" | \'{\')',
      '  /** one line { */',
      '  n?: number',
      '}',
      'export interface C {',
      '  x?: 1',
      '}',
    ]);
  });
});
