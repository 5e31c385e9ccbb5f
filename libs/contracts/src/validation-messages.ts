import { config } from 'zod';

type Issue = Parameters<NonNullable<Parameters<typeof config>[0]>['customError'] & {}>[0];

const ARTICLES: Readonly<Record<string, string>> = { object: 'an object', array: 'an array', integer: 'an integer', int: 'an integer' };

const kind = (expected: string) => ARTICLES[expected] ?? `a ${expected}`;

const literal = (value: unknown) => (typeof value === 'bigint' ? `${value}` : JSON.stringify(value));

/** What a size bound counts, by the kind of value it bounds; none for numbers. */
const UNITS: Readonly<Record<string, readonly [string, string]>> = {
  string: ['character', 'characters'],
  array: ['item', 'items'],
  set: ['item', 'items'],
  map: ['entry', 'entries'],
  file: ['byte', 'bytes'],
};

function sizeBound(issue: { origin?: string; inclusive?: boolean; exact?: boolean }, limit: number | bigint, side: 'least' | 'most'): string {
  const units = issue.origin === undefined ? undefined : UNITS[issue.origin];
  if (units) {
    const unit = Number(limit) === 1 ? units[0] : units[1];
    if (issue.exact) return `must have exactly ${limit} ${unit}`;
    if (side === 'least' && Number(limit) === 1) return 'must not be empty';
    return `must have at ${side} ${limit} ${unit}`;
  }
  if (issue.inclusive === false) return `must be ${side === 'least' ? 'greater' : 'less'} than ${limit}`;
  return `must be at ${side} ${limit}`;
}

/**
 * Zod's messages in the platform's words, for the rules a schema states without a message of its
 * own: a field left out says "required" rather than "Invalid input: expected string, received
 * undefined", a bound "must be at least 1" as the hand-written ones do. Issues not listed here keep
 * Zod's own message (undefined hands them back to it).
 */
function validationMessage(issue: Issue): string | undefined {
  switch (issue.code) {
    case 'invalid_type':
      return issue.input === undefined ? 'required' : `must be ${kind(issue.expected)}`;
    case 'invalid_value':
      return issue.values.length === 1 ? `must be ${literal(issue.values[0])}` : `must be one of ${issue.values.map(literal).join(', ')}`;
    case 'too_small':
      return sizeBound(issue, issue.minimum, 'least');
    case 'too_big':
      return sizeBound(issue, issue.maximum, 'most');
    case 'invalid_union':
      // A discriminated union's tag that names none of its members: the tags it takes.
      if ('options' in issue && Array.isArray(issue.options) && issue.options.length > 0) return `must be one of ${issue.options.map(literal).join(', ')}`;
      return undefined;
    case 'not_multiple_of':
      return `must be a multiple of ${issue.divisor}`;
    case 'invalid_format':
      if (issue.format === 'email') return 'must be an email address';
      if (issue.format === 'url') return 'must be a URL';
      if (issue.format === 'regex' && 'pattern' in issue) return `must match ${issue.pattern}`;
      return undefined;
    default:
      return undefined;
  }
}

/**
 * Makes these the messages of every Zod schema in this JavaScript realm (Zod's configuration is
 * global): the service processes install them through the kit, the console in the chunk that
 * checks applications with Zod, so a field checked in the browser reads as the server would say it.
 */
export function installValidationMessages(): void {
  config({ customError: validationMessage });
}
