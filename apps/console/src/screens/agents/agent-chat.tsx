import { useState, type FormEvent } from 'react';
import { api, unwrap } from '../../api/client';
import { TextField } from '../../components/field';
import type { Agent } from './agent-record';

interface ChatMessage {
  role: 'user' | 'assistant';
  content: string;
}

/**
 * *Chat with <name>*: a conversation kept in the page (the server stores none) and sent whole with
 * each message; the server's refusal (AI off for the project, no provider, a spent budget) shows
 * as it says it, and the message stays in the box to send again.
 */
export function AgentChat({ projectId, agent }: { projectId: string; agent: Agent }) {
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
      const answer = await unwrap(api.POST('/api/projects/{projectId}/ai-agents/{agentId}/chat', { params: { path: { projectId, agentId: agent.id } }, body: { messages: asked } }));
      setMessages([...asked, { role: 'assistant', content: answer.message.content }]);
    } catch (failure) {
      setMessages(messages);
      setDraft(content);
      setError(failure instanceof Error ? failure.message : String(failure));
    } finally {
      setWaiting(false);
    }
  };

  return (
    <section aria-label={`Chat with ${agent.name}`} className="agent-chat">
      <h2>Chat with {agent.name}</h2>
      {messages.length === 0 ? (
        <p className="muted">Try the agent here: the conversation stays in this page and is gone when you leave it.</p>
      ) : (
        <ol aria-label="Conversation" className="conversation">
          {messages.map((message, index) => (
            <li key={index} className={`message ${message.role}`}>
              <strong>{message.role === 'user' ? 'You' : agent.name}</strong>
              <p dir="auto">{message.content}</p>
            </li>
          ))}
        </ol>
      )}
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
