import { useState, type FormEvent } from 'react';
import { TextField } from './field';

export interface ChatMessage {
  role: 'user' | 'assistant';
  content: string;
}

/**
 * A conversation kept in the page (the server stores none) and sent whole with each message
 * through `ask`; a refusal (AI off, no provider, a spent budget) shows as the server says it, and
 * the message stays in the box to send again.
 */
export function ChatPanel({ label, assistant, hint, ask }: { label: string; assistant: string; hint: string; ask: (messages: ChatMessage[]) => Promise<string> }) {
  const [messages, setMessages] = useState<ChatMessage[]>([]);
  const [draft, setDraft] = useState('');
  const [waiting, setWaiting] = useState(false);
  const [error, setError] = useState<string>();

  const send = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const content = draft.trim();
    if (!content || waiting) return;
    const asked = [...messages, { role: 'user' as const, content }];
    setMessages(asked);
    setDraft('');
    setError(undefined);
    setWaiting(true);
    try {
      setMessages([...asked, { role: 'assistant', content: await ask(asked) }]);
    } catch (failure) {
      setMessages(messages);
      setDraft(content);
      setError(failure instanceof Error ? failure.message : String(failure));
    } finally {
      setWaiting(false);
    }
  };

  return (
    <section aria-label={label} className="chat-panel">
      <h2>{label}</h2>
      {messages.length === 0 && <p className="muted">{hint}</p>}
      {/* Always there and polite: a screen reader hears each answer as it arrives. */}
      <ol aria-label="Conversation" aria-live="polite" className="conversation">
        {messages.map((message, index) => (
          <li key={index} className={`message ${message.role}`}>
            <strong>{message.role === 'user' ? 'You' : assistant}</strong>
            <p dir="auto">{message.content}</p>
          </li>
        ))}
      </ol>
      <form aria-label="Send a message" onSubmit={(event) => void send(event)} noValidate>
        <TextField label="Message" name="message" rows={3} value={draft} onChange={(event) => setDraft(event.target.value)} />
        {error && (
          <p role="alert" className="form-error">
            Not answered: {error}
          </p>
        )}
        <button type="submit" disabled={waiting}>
          {waiting ? 'Waiting for the answer…' : 'Send'}
        </button>{' '}
        {messages.length > 0 && (
          <button type="button" onClick={() => setMessages([])} disabled={waiting}>
            New conversation
          </button>
        )}
      </form>
    </section>
  );
}
