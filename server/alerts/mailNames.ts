/** The rule's, folder's and account's names as the engine's mails show them: defanged, one line (userText). */
import { userText } from '../mail/template';
import type { LoadedEngineRule } from '../run/rulesSource';

export const ruleNamesInMail = (rule: LoadedEngineRule) => ({
  rule: userText(rule.name, 100),
  folder: userText(rule.folder.name, 100),
  account: userText(rule.account.accountName, 100),
});
