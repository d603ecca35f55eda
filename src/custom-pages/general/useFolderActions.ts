/**
 * The folder tree's row actions (docs/screens.md) as react-query mutations through the dataProvider's named
 * methods: each runs with its folder marked busy, then shows the folder as the server has it and
 * marks the other screens' data stale (the trash, the rule editor), so they load it fresh.
 */
import { useMutation, useMutationState, useQueryClient } from '@tanstack/react-query';
import { useDataProvider, useNotify, useTranslate } from 'react-admin';
import { RULE_ACTIVATION_SNACKBAR_MS, SNACKBAR_TIMEOUT_MS } from '../../../shared/constants';
import type { FolderDto, FolderRuleDto } from '../../../shared/folders';
import type { RuleDto } from '../../../shared/rules';
import type { AppDataProvider } from '../../providers/dataProvider';
import { queryKeys } from '../../providers/queryKeys';
import { removeFolder, replaceFolder } from './folderPages';
import type { FolderActions } from './FolderTree';
import { isRuleIssuesError, ruleIssueMessages } from './ruleIssues';
import { undoAction } from '../../layout/AppNotification';

interface FolderCall {
  folder: FolderDto;
  call: () => Promise<unknown>;
}

const folderCallKey = [...queryKeys.folders, 'rowAction'];

/** The message of a folder moved to the trash: with active rules, that they stop ('1 active rule stops'). */
export function folderTrashedMessage(folder: FolderDto): [key: string, args: object] {
  const active = folder.active_rules_count;
  return active > 0
    ? ['rules.general.folder_trashed_active', { name: folder.name, smart_count: active }]
    : ['rules.general.folder_trashed', { name: folder.name }];
}

/** The message of a rule back from the trash, saying whether it is active (it runs again) or off. */
export function restoredRuleMessage(
  rule: Pick<RuleDto, 'is_active'> & { name?: string },
  name: string,
): [key: string, args: object] {
  return [
    rule.is_active ? 'rules.trash.rule_restored_active' : 'rules.trash.rule_restored_off',
    { name: rule.name || name },
  ];
}

export function useFolderActions({
  setOpened,
  onEdit,
  showError,
  clearErrors,
}: {
  /** Changes the opened folders from the latest list (a row action may finish after others). */
  setOpened: (change: (opened: number[]) => number[]) => void;
  onEdit: (folder: FolderDto) => void;
  showError: (error: unknown) => void;
  clearErrors: () => void;
}) {
  const translate = useTranslate();
  const notify = useNotify();
  const dataProvider = useDataProvider<AppDataProvider>();
  const queryClient = useQueryClient();

  const success = (key: string, options: object = {}, args: object = {}) =>
    notify(translate(key, args), { type: 'success', autoHideDuration: SNACKBAR_TIMEOUT_MS, ...options });
  /**
   * Restores what a trash action moved, from its message's Undo; the lists load it back. A rule's
   * restore says whether the rule is active again (`restoredRule`), a folder's only that it is back.
   */
  const undoTrash = <T>(restore: () => Promise<T>, restored: (answer: T) => [key: string, args?: object]) =>
    undoAction(async () => {
      clearErrors();
      try {
        const answer = await restore();
        await queryClient.invalidateQueries({ queryKey: queryKeys.folders });
        otherScreensStale();
        const [key, args] = restored(answer);
        success(key, {}, args);
      } catch (error) {
        showError(error);
      }
    });
  const otherScreensStale = () => {
    void queryClient.invalidateQueries({ queryKey: queryKeys.trash });
    void queryClient.invalidateQueries({ queryKey: queryKeys.rules });
  };

  const folderCall = useMutation({
    mutationKey: folderCallKey,
    mutationFn: async ({ folder, call }: FolderCall) => {
      await call();
      return (await dataProvider.getOne('general_page', { id: folder.id })).data as FolderDto;
    },
    onSuccess: (folder) => {
      replaceFolder(queryClient, folder);
      otherScreensStale();
    },
  });
  const busyFolders = useMutationState({
    filters: { mutationKey: folderCallKey, status: 'pending' },
    select: (mutation) => (mutation.state.variables as FolderCall).folder.id,
  });

  const trashFolder = useMutation({
    mutationFn: (folder: FolderDto) => dataProvider.moveFolderToTrash(folder.id),
    onSuccess: (_answer, folder) => {
      removeFolder(queryClient, folder.id);
      otherScreensStale();
    },
  });

  const withFolder = async (folder: FolderDto, call: () => Promise<unknown>, done?: string, doneOptions?: object) => {
    clearErrors();
    try {
      await folderCall.mutateAsync({ folder, call });
      if (done) success(done, doneOptions);
    } catch (error) {
      if (isRuleIssuesError(error)) {
        const reasons = ruleIssueMessages(error).join(' · ');
        const text = reasons
          ? `${translate('rules.general.activation_failed')}: ${reasons}`
          : translate('rules.general.activation_failed');
        notify(text, { type: 'error', autoHideDuration: RULE_ACTIVATION_SNACKBAR_MS, messageArgs: { _: text } });
      } else {
        showError(error);
      }
    }
  };

  const toggleOpen = (id: number) =>
    setOpened((opened) => (opened.includes(id) ? opened.filter((o) => o !== id) : [...opened, id]));

  const actions: FolderActions = {
    onToggleOpen: (folder) => toggleOpen(folder.id),
    onEditFolder: onEdit,
    onTrashFolder: async (folder) => {
      clearErrors();
      try {
        await trashFolder.mutateAsync(folder);
        setOpened((opened) => opened.filter((o) => o !== folder.id));
        const [key, args] = folderTrashedMessage(folder);
        success(
          key,
          undoTrash(
            () => dataProvider.restoreFolder(folder.id),
            () => ['rules.trash.restored'],
          ),
          args,
        );
      } catch (error) {
        showError(error);
      }
    },
    onAddRule: (folder) =>
      withFolder(
        folder,
        async () => {
          await dataProvider.create('rule', { data: { folder: folder.id } });
          setOpened((opened) => (opened.includes(folder.id) ? opened : [...opened, folder.id]));
        },
        'rules.general.rule_added',
      ),
    onToggleRule: (folder: FolderDto, rule: FolderRuleDto) =>
      withFolder(folder, () => dataProvider.setRuleActive(rule.id, !rule.is_active)),
    onDuplicateRule: (folder, rule) =>
      withFolder(folder, () => dataProvider.duplicateRule(rule.id), 'rules.general.rule_duplicated'),
    onTrashRule: (folder, rule) =>
      withFolder(
        folder,
        () => dataProvider.moveRuleToTrash(rule.id),
        'rules.general.rule_trashed',
        undoTrash(
          () => dataProvider.restoreRule(rule.id),
          (restored) => restoredRuleMessage(restored, rule.name),
        ),
      ),
  };

  return { actions, busyFolders };
}
