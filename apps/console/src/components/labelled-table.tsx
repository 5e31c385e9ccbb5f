import type { ReactNode } from 'react';

/** A table named for assistive technology (and tests), with one header row of column names. */
export function LabelledTable({ label, headers, children }: { label: string; headers: readonly string[]; children: ReactNode }) {
  return (
    <table aria-label={label}>
      <thead>
        <tr>
          {headers.map((header) => (
            <th key={header} scope="col">
              {header}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>{children}</tbody>
    </table>
  );
}
