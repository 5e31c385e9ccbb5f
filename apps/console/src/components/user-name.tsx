import { useEffect, useState } from 'react';
import { authorName } from '../history/authors';

/** Counts the browser's returns online: a dependency that makes an effect run again then. */
function useReconnections(): number {
  const [count, setCount] = useState(0);
  useEffect(() => {
    const reconnected = () => setCount((current) => current + 1);
    window.addEventListener('online', reconnected);
    return () => window.removeEventListener('online', reconnected);
  }, []);
  return count;
}

/**
 * A user's display name as the caller may see it, the user id until it is known (or when hidden).
 * A lookup that failed is asked again when the browser is back online (known names are not).
 */
export function useUserName(userId: string): string {
  const [name, setName] = useState(userId);
  const reconnections = useReconnections();
  useEffect(() => {
    let current = true;
    void authorName(userId).then((found) => current && setName(found));
    return () => {
      current = false;
    };
  }, [userId, reconnections]);
  return name;
}
