/** A visitor checked in at this kiosk: its secret is what lets the kiosk check it out later. */
export interface KioskVisitor {
  id: string;
  secret: string;
  name: string;
  /** When the server erases the visitor (check-in time plus the chosen period): the entry is useless after it. */
  deleteOn: number;
}

/**
 * The visitors checked in at one kiosk page, kept in the browser (localStorage) and nowhere else:
 * the secret never leaves this device except as the `x-visitor-secret` of its own visitor's calls.
 * Entries past their erasure date are dropped when read.
 */
export class KioskVisitors {
  private readonly key: string;

  constructor(
    private readonly storage: Pick<Storage, 'getItem' | 'setItem'>,
    projectId: string,
    applicationId: string,
    private readonly clock: () => number = Date.now,
  ) {
    this.key = `platform-kiosk:${projectId}:${applicationId}`;
  }

  list(): KioskVisitor[] {
    let stored: unknown;
    try {
      stored = JSON.parse(this.storage.getItem(this.key) ?? '[]');
    } catch {
      stored = [];
    }
    if (!Array.isArray(stored)) return [];
    const now = this.clock();
    return stored.filter((entry): entry is KioskVisitor => isVisitor(entry) && entry.deleteOn > now);
  }

  add(visitor: KioskVisitor): void {
    this.save([...this.list(), visitor]);
  }

  remove(id: string): void {
    this.save(this.list().filter((visitor) => visitor.id !== id));
  }

  private save(visitors: KioskVisitor[]): void {
    this.storage.setItem(this.key, JSON.stringify(visitors));
  }
}

function isVisitor(entry: unknown): entry is KioskVisitor {
  const candidate = entry as Partial<KioskVisitor> | null;
  return typeof candidate?.id === 'string' && typeof candidate.secret === 'string' && typeof candidate.name === 'string' && typeof candidate.deleteOn === 'number';
}
