/** What the folder, rule and trash modules share: the audit reference of a folder. */

/** A folder as its audit entries name it, with its ad account's name copied at write time. */
export const auditFolder = (folder: { id: number; name: string }, account: { accountName: string } | null) => ({
  id: folder.id,
  name: folder.name,
  adAccountName: account?.accountName ?? null,
});
