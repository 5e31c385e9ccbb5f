/**
 * NATS subject matching, compiled once per filter: `*` matches one token, a final `>` matches one
 * or more tokens (a `>` anywhere else matches nothing). A durable tests every message of the bus
 * against its filter, so the subject is walked in place rather than split.
 */
export function subjectMatcher(filter: string): (subject: string) => boolean {
  const wanted = filter.split('.');
  const tail = wanted.at(-1) === '>';
  const fixed = tail ? wanted.slice(0, -1) : wanted;
  if (fixed.includes('>')) return () => false;
  return (subject) => {
    // Where the next token starts; past the end once the last one was read.
    let start = 0;
    for (const token of fixed) {
      if (start > subject.length) return false;
      const dot = subject.indexOf('.', start);
      const end = dot === -1 ? subject.length : dot;
      if (token !== '*' && (end - start !== token.length || !subject.startsWith(token, start))) return false;
      start = end + 1;
    }
    return tail ? start <= subject.length : start === subject.length + 1;
  };
}

export function subjectMatches(filter: string, subject: string): boolean {
  return subjectMatcher(filter)(subject);
}
