import { useEffect, useState } from 'react';
import { authorName } from '../history/authors';

/** A user's display name as the caller may see it, the user id until it is known (or when hidden). */
export function useUserName(userId: string): string {
  const [name, setName] = useState(userId);
  useEffect(() => {
    let current = true;
    void authorName(userId).then((found) => current && setName(found));
    return () => {
      current = false;
    };
  }, [userId]);
  return name;
}
