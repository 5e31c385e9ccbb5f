import type { BlockDefinition } from './block';
import { callWebhookBlock } from './call-webhook';
import { conditionalLogicBlock } from './conditional-logic';
import { sendMailBlock } from './send-mail';
import { updateDatabaseBlock } from './update-database';

/** Every block the server runs, by name; the editor reads them from GET /api/actions/blocks. */
export const blockRegistry: ReadonlyMap<string, BlockDefinition<any>> = new Map(
  [sendMailBlock, updateDatabaseBlock, callWebhookBlock, conditionalLogicBlock].map((block) => [block.name, block as BlockDefinition<any>]),
);
