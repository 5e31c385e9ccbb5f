/** One step of a race a test plays out: `opened` resolves once the test or another party calls `open`. */
export interface Gate {
  open: () => void;
  opened: Promise<void>;
}

export function gate(): Gate {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { open, opened };
}
