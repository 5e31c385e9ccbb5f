import { useState, type ReactNode } from 'react';
import { LoadError } from './load-error';

/**
 * One pending invitation in a table: who it is for, the cells the table adds (permissions or role,
 * expiry), and `Withdraw`, whose refusal shows beside the button.
 */
export function InvitationRow({ name, children, withdraw, onWithdrawn }: { name: string; children: ReactNode; withdraw: () => Promise<unknown>; onWithdrawn: () => void }) {
  const [error, setError] = useState<unknown>();
  const onWithdraw = async () => {
    try {
      await withdraw();
      onWithdrawn();
    } catch (failure) {
      setError(failure);
    }
  };
  return (
    <tr>
      <th scope="row">{name}</th>
      {children}
      <td>
        <button type="button" className="danger" aria-label={`Withdraw the invitation of ${name}`} onClick={() => void onWithdraw()}>
          Withdraw
        </button>
        <LoadError error={error} />
      </td>
    </tr>
  );
}
