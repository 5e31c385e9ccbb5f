import type { Answer, Api } from './api';
import type { Traffic } from './traffic';

/** A write the platform acknowledged: the document reached this revision. */
export interface AcknowledgedWrite {
  documentId: string;
  revision: number;
  at: number;
}

/** What the writers believe a document holds after its last acknowledged write. */
export interface WrittenDocument {
  id: string;
  revision: number;
  n: number;
  /** The last write's outcome stayed unknown when the load stopped (it may or may not be stored). */
  unresolved: boolean;
}

type Verdict = { kind: 'acknowledged'; revision: number } | { kind: 'retry' } | { kind: 'refused' };

interface Write {
  method: 'POST' | 'PATCH';
  path: string;
  body: unknown;
  /** Reads an answer; `retried` is true when an earlier attempt may have been stored already. */
  judge(answer: Answer, retried: boolean): Verdict;
}

const isTransient = (answer: Answer) => typeof answer.outcome !== 'number' || answer.outcome >= 500 || answer.outcome === 429;
const codeOf = (answer: Answer): string | undefined => (answer.body as { code?: string } | undefined)?.code;

/** After the load stops, a write still failing is given up this much later (its outcome unknown). */
const GIVE_UP_AFTER_STOP_MS = 60_000;

/**
 * Writers that each create documents and patch their own with `baseRevision`, at a steady pace,
 * through the gateway. A write that fails (5xx, timeout, no connection) is sent again until it is
 * acknowledged; an answer to a retry that shows the earlier attempt was stored (409 duplicate id,
 * 409 revision conflict with our own change in place) counts as the acknowledgement.
 */
export class LoadGenerator {
  readonly documents = new Map<string, WrittenDocument>();
  readonly acknowledged: AcknowledgedWrite[] = [];
  /** Answers no write should get (4xx other than the retry cases above). */
  readonly refusals: string[] = [];
  private stopping = false;
  private stoppedAt = 0;
  private loops: Promise<void>[] = [];

  constructor(
    private readonly api: Api,
    private readonly dataPath: string,
    private readonly traffic: Traffic,
    private readonly options: { writers: number; pauseMs: number; patchShare: number },
  ) {}

  start(): void {
    this.loops = Array.from({ length: this.options.writers }, (_, writer) => this.writerLoop(writer));
  }

  /** Lets every writer finish (or give up) its current write, then resolves. */
  async stop(): Promise<void> {
    this.stopping = true;
    this.stoppedAt = Date.now();
    await Promise.all(this.loops);
  }

  private async writerLoop(writer: number): Promise<void> {
    const own: WrittenDocument[] = [];
    for (let sequence = 0; !this.stopping; ) {
      const target = own.length && Math.random() < this.options.patchShare ? own[Math.floor(Math.random() * own.length)] : undefined;
      if (target) {
        if (!target.unresolved) await this.patch(target);
      } else {
        const created = await this.create(`w${writer}-${sequence++}`);
        if (created) own.push(created);
      }
      await new Promise((r) => setTimeout(r, this.options.pauseMs));
    }
  }

  private async create(id: string): Promise<WrittenDocument | undefined> {
    const document: WrittenDocument = { id, revision: 0, n: 0, unresolved: false };
    const outcome = await this.send({
      method: 'POST',
      path: this.dataPath,
      body: { id, title: `Note ${id}`, n: 0 },
      judge: (answer, retried) => {
        if (answer.outcome === 201) return { kind: 'acknowledged', revision: 0 };
        if (retried && answer.outcome === 409 && codeOf(answer) === 'DATA_DUPLICATE_ID') return { kind: 'acknowledged', revision: 0 };
        return isTransient(answer) ? { kind: 'retry' } : { kind: 'refused' };
      },
    });
    if (outcome === 'refused') return undefined;
    document.unresolved = outcome === 'unresolved';
    this.documents.set(id, document);
    if (outcome === 'acknowledged') this.acknowledged.push({ documentId: id, revision: 0, at: Date.now() });
    return document;
  }

  private async patch(document: WrittenDocument): Promise<void> {
    const base = document.revision;
    const n = document.n + 1;
    const outcome = await this.send({
      method: 'PATCH',
      path: `${this.dataPath}/${document.id}`,
      body: { modifier: { $set: { n } }, baseRevision: base },
      judge: (answer, retried) => {
        if (answer.outcome === 200) return { kind: 'acknowledged', revision: (answer.body as { revision: number }).revision };
        if (retried && answer.outcome === 409 && codeOf(answer) === 'DATA_REVISION_CONFLICT') {
          const details = (answer.body as { details?: { currentRevision?: number; current?: { n?: number } } }).details;
          if (details?.currentRevision === base + 1 && details.current?.n === n) return { kind: 'acknowledged', revision: base + 1 };
        }
        return isTransient(answer) ? { kind: 'retry' } : { kind: 'refused' };
      },
    });
    if (outcome === 'acknowledged') {
      document.revision = base + 1;
      document.n = n;
      this.acknowledged.push({ documentId: document.id, revision: document.revision, at: Date.now() });
    }
    if (outcome === 'unresolved') document.unresolved = true;
  }

  private async send(write: Write): Promise<'acknowledged' | 'refused' | 'unresolved'> {
    for (let attempt = 0; ; attempt += 1) {
      if (attempt > 0) this.traffic.current.retries += 1;
      const answer = await this.api.request(write.method, write.path, write.body);
      const verdict = write.judge(answer, attempt > 0);
      if (verdict.kind === 'acknowledged') {
        if (write.method === 'PATCH' && verdict.revision !== (write.body as { baseRevision: number }).baseRevision + 1) {
          this.refusals.push(`${write.method} ${write.path} acknowledged revision ${verdict.revision}, expected the base + 1`);
        }
        return 'acknowledged';
      }
      if (verdict.kind === 'refused') {
        this.refusals.push(`${write.method} ${write.path} (attempt ${attempt + 1}) → ${answer.outcome} ${JSON.stringify(answer.body)?.slice(0, 200)}`);
        return 'refused';
      }
      if (this.stopping && Date.now() - this.stoppedAt > GIVE_UP_AFTER_STOP_MS) return 'unresolved';
      await new Promise((r) => setTimeout(r, Math.min(2_000, 200 * 2 ** attempt)));
    }
  }
}
