/**
 * The dataProvider's named methods for people (docs/contract.md#calls): resending an invitation (the
 * invitations resource lists, creates and cancels them), group placement, the accesses a group can
 * hold, passwords and e-mail changes. Request and answer types come from shared/, the same
 * schemas the server validates and answers with.
 */
import type { z } from 'zod';
import type { UserDto } from '../../shared/contracts';
import type { InvitationSentDto, JoinedDto, PasswordChangedDto, PendingEmailChangeDto } from '../../shared/people';
import type { Permission } from '../../shared/permissions';
import type {
  changePasswordSchema,
  joinSchema,
  passwordResetConfirmSchema,
  passwordResetRequestSchema,
} from '../../shared/validation';
import { paths } from './apiPaths';
import type { HttpClient } from './httpClient';

export type JoinRequest = z.input<typeof joinSchema>;
export type ChangePasswordRequest = z.input<typeof changePasswordSchema>;
export type PasswordResetRequest = z.input<typeof passwordResetRequestSchema>;
export type PasswordResetConfirmRequest = z.input<typeof passwordResetConfirmSchema>;

export function createPeopleMethods(http: HttpClient) {
  const get = async <T>(url: string, signal?: AbortSignal) => (await http<T>(url, { signal })).json;
  const send = async <T>(url: string, method: string, body?: unknown) => (await http<T>(url, { method, body })).json;
  /** The calls of someone not signed in: joining, resetting a password, confirming an address. */
  const sendSignedOut = async <T>(url: string, body: unknown) =>
    (await http<T>(url, { method: 'POST', body, auth: false })).json;

  return {
    /** Puts a member into one group (the contract's GET /api/user/{id}/set_group/{group_id}/). */
    setUserGroup: (userId: number, groupId: number) => get<UserDto>(paths.userSetGroup(userId, groupId)),
    getAvailablePermissions: (signal?: AbortSignal) => get<Permission[]>(paths.availablePermissions, signal),

    resendInvitation: (id: string) => send<InvitationSentDto>(paths.invitationResend(id), 'POST'),
    acceptInvitation: (join: JoinRequest) => sendSignedOut<JoinedDto>(paths.inviteConfirm, join),

    changePassword: (change: ChangePasswordRequest) => send<PasswordChangedDto>(paths.changePassword, 'POST', change),
    requestPasswordReset: (request: PasswordResetRequest) =>
      sendSignedOut<{ detail: string }>(paths.passwordResetRequest, request),
    confirmPasswordReset: (confirm: PasswordResetConfirmRequest) =>
      sendSignedOut<{ detail: string }>(paths.passwordResetConfirm, confirm),

    confirmEmailChange: (token: string) => sendSignedOut<JoinedDto>(paths.emailChangeConfirm, { token }),
    getPendingEmailChange: async (userId: number, signal?: AbortSignal) =>
      (await get<{ pending: PendingEmailChangeDto | null }>(paths.emailChangePending(userId), signal)).pending,
    withdrawEmailChange: async (userId: number) => {
      await send<null>(paths.emailChangePending(userId), 'DELETE');
    },
  };
}
