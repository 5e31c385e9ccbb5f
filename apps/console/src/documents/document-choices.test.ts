import { describe, expect, it } from 'vitest';
import { documentChoices } from './document-choices';

describe('documentChoices', () => {
  it('offers the most recently changed documents first, named by their title, else by their first text, else not named', () => {
    const documents = [
      { id: 'a', updatedAt: 10, title: 'Printer jam' },
      { id: 'b', updatedAt: 30, name: { en: 'Refund', de: 'Erstattung' } },
      { id: 'c', updatedAt: 20, count: 3, customer: ' Difference Engines plc ' },
      { id: 'd', title: '  ', total: 4 },
    ];
    expect(documentChoices('tickets', documents)).toEqual([
      { id: 'b', label: 'Refund' },
      { id: 'c', label: 'Difference Engines plc' },
      { id: 'a', label: 'Printer jam' },
      { id: 'd', label: '' },
    ]);
  });

  it('offers at most the limit, keeping the newest', () => {
    const documents = Array.from({ length: 5 }, (_, index) => ({ id: `d${index}`, updatedAt: index }));
    expect(documentChoices('tickets', documents, 2).map((choice) => choice.id)).toEqual(['d4', 'd3']);
  });
});
