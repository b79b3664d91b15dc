import { PendingConfirmations } from './pending-confirmations';
import { PendingElicitations } from './pending-elicitations';

/**
 * What waits for the person (calls to Allow or Deny, a server's question), on every page right
 * below its title: in the page's column, read after the title that says where they are.
 */
export function PagePanels() {
  return (
    <>
      <PendingConfirmations />
      <PendingElicitations />
    </>
  );
}
