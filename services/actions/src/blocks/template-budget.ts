import { runErrorCodes } from '../errors';
import type { OutputBudget } from '../domain/templates';
import { BlockError } from './block';

/**
 * The characters one block's filled templates may come to together (a mail's recipient, subject
 * and text; every value of an update modifier): 1 MiB, the default size limit of a whole document
 * (DATA_MAX_DOCUMENT_BYTES), which no mail or modifier needs to pass. Without a bound, placeholders
 * of a large document multiplied it into gigabytes and froze the process.
 */
export const MAX_RENDERED_CHARACTERS = 1024 * 1024;

/** An OutputBudget that fails the block with ACTIONS_TEMPLATE_TOO_LARGE once it is spent. */
export class TemplateBudget implements OutputBudget {
  private left = MAX_RENDERED_CHARACTERS;

  spend(characters: number): void {
    this.left -= characters;
    if (this.left < 0) {
      throw new BlockError(runErrorCodes.templateTooLarge, `Filling the placeholders would pass ${MAX_RENDERED_CHARACTERS} characters; fill fewer or smaller values (a field rather than the whole document)`);
    }
  }
}
