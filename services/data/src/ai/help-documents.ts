import { platformLlmText, widgetRegistry, widgetsLlmText, WIDGETS_LLM_PATH } from '@platform/widgets';
import type { FastifyInstance } from 'fastify';
import { openApiSummary, type HelpDocument, type OpenApiLike } from './domain/help-context';

/**
 * The platform's own documentation for the help chat: the same llm.txt texts the gateway serves
 * (generated from the widget registry) and the OpenAPI document of the app hosting this service
 * (every route in the all-in-one shape, the data service's own in the microservice shape).
 * Gathered once, on first use, when every route is registered.
 */
export function helpDocuments(app: FastifyInstance): () => HelpDocument[] {
  let documents: HelpDocument[] | undefined;
  return () => {
    if (documents) return documents;
    const gathered: HelpDocument[] = [
      { title: '/llm.txt', text: platformLlmText(widgetRegistry) },
      { title: WIDGETS_LLM_PATH, text: widgetsLlmText(widgetRegistry) },
    ];
    // Present when the hosting app serves OpenAPI (@fastify/swagger); the help works without it.
    const withSwagger = app as unknown as { swagger?: () => unknown };
    if (typeof withSwagger.swagger === 'function') gathered.push({ title: 'HTTP API (from /api/openapi.json)', text: openApiSummary(withSwagger.swagger() as OpenApiLike) });
    documents = gathered;
    return documents;
  };
}
