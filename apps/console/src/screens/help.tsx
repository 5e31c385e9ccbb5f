import { api, unwrap } from '../api/client';
import { ChatPanel, type ChatMessage } from '../components/chat-panel';

/**
 * *Help* (`/console/help`, in the header): questions about the platform, answered from its own
 * guides and API description by the server's AI provider (POST /api/help/chat); and where those
 * guides are to read them yourself.
 */
export function Help() {
  const ask = async (messages: ChatMessage[]) => (await unwrap(api.POST('/api/help/chat', { body: { messages } }))).message.content;
  return (
    <main>
      <h1>Help</h1>
      <p>
        The guides: <a href="/llm.txt">the platform in one page</a>, <a href="/api/docs">the API</a>, and <a href="/docs/interface.md">the interface guide</a>, which links every other.
      </p>
      <ChatPanel label="Ask about the platform" assistant="Help" hint="Ask how to do something (“How do I let only editors change a type?”): the answer comes from the guides, in the language you ask in." ask={ask} />
    </main>
  );
}
