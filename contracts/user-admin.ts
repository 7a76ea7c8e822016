import * as z from 'zod';
import { MESSAGES, adminEmail, strongPassword } from './fields.ts';
import { passkeySchema } from './passkeys.ts';

const userEmail = z
  .string({ error: MESSAGES.userEmailRequired })
  .trim()
  .min(1, MESSAGES.userEmailRequired)
  .pipe(adminEmail);

export const UPDATE_USER_MESSAGES = {
  emailRequired: 'User email is required',
  atLeastOneField: 'At least one field must be updated',
  noValidFields: 'No valid fields to update',
  invalidNewEmail: 'Invalid new email format',
  sameEmail: 'New email must be different from current email',
} as const;

/**
 * Who may not be the target of an action that changes an account: one's own account or
 * another admin's (ARCHITECTURE "Server-side rules"). The function answers 403 with these
 * words and the admin portal shows the same ones on its disabled buttons.
 */
export const PROTECTED_OPERATIONS = {
  update: {
    self: 'Cannot change the password or email of your own account',
    admin: 'Cannot update other admin accounts',
  },
  disable: { self: 'Cannot disable your own account', admin: 'Cannot disable other admin accounts' },
  delete: { self: 'Cannot delete your own account', admin: 'Cannot delete other admin accounts' },
  resetMfa: { self: 'Cannot reset MFA for your own account', admin: 'Cannot reset MFA for other admin accounts' },
  resendInvitation: {
    self: 'Cannot resend an invitation to your own account',
    admin: 'Cannot resend an invitation to other admin accounts',
  },
} as const;
export type ProtectedOperation = keyof typeof PROTECTED_OPERATIONS;

/** An admin changes their own password through Change Password, which asks for the current one. */
export const OWN_PASSWORD_SUGGESTION = 'Use Change Password to change your own password.';

export const PROMOTE_MESSAGES = {
  promoted: 'User promoted to admin successfully',
  alreadyAdmin: 'User is already an admin',
  disabled: 'Cannot promote a disabled account',
} as const;

/**
 * Resend invitation (beyond the spec): at most this many resends to one account in any hour
 * (a sliding window, counted per account whichever admin resends). Each resend emails the
 * account and replaces its temporary password.
 */
export const INVITATION_RESEND_LIMIT = { perAccountPerHour: 3 } as const;

/**
 * Days an invitation's temporary password works: the pool's TemporaryPasswordValidityDays
 * (lib/auth.ts sets the pool from the same number). Counted from the last invitation.
 */
export const INVITATION_VALIDITY_DAYS = 7;

/** Cognito's status of an account that has not signed in with its temporary password yet. */
export const INVITATION_PENDING_STATUS = 'FORCE_CHANGE_PASSWORD';

/**
 * Resend invitation (beyond the spec): only an enabled account that has not signed in yet gets a new temporary
 * password.
 */
export const INVITATION_MESSAGES = {
  created: 'User created. An invitation email with a temporary password is on its way.',
  resent: 'Invitation sent again with a new temporary password.',
  notPending: 'Only an account that has not signed in yet can get a new invitation',
  notPendingSuggestion: 'The user has already chosen a password. Use Edit to set a new one, or Reset MFA.',
  disabled: 'Cannot resend an invitation to a disabled account',
  disabledSuggestion: 'Enable the account first.',
  tooManyResends: (minutes: number) =>
    `The invitation to this account was already resent ${INVITATION_RESEND_LIMIT.perAccountPerHour} times in the last hour. ` +
    `Try again in about ${minutes} minute${minutes === 1 ? '' : 's'}.`,
  chooseOne: 'Either send an invitation or give a password, not both',
} as const;

export const RESET_MFA_MESSAGE =
  'MFA reset. The user is signed out everywhere and sets up a new authenticator at their next sign-in.';

/** GET_USER_FACTORS: what the account signs in with besides its password. */
export const userFactorsSchema = z.object({
  /** A verified authenticator app (SOFTWARE_TOKEN_MFA in the account's MFA settings). */
  authenticator: z.boolean(),
  /** Passkeys with user verification count as MFA (WEB_AUTHN in the account's MFA settings). */
  passkeyMfa: z.boolean(),
  passkeys: z.array(passkeySchema),
});
export type UserFactors = z.infer<typeof userFactorsSchema>;

/** The most entries one audit export returns; a wider filter is refused, never cut short. */
export const AUDIT_EXPORT_MAX_ROWS = 5000;

export const AUDIT_FILTER_MESSAGES = {
  badTime: 'Must be an ISO 8601 date and time, like 2026-01-31T00:00:00.000Z',
  reversedRange: 'The start of the range must not be after its end',
  tooMany: (count: number) => `More than ${count} entries match. Narrow the filter or the date range and export again.`,
} as const;

const isoTime = z.iso.datetime({ offset: true, message: AUDIT_FILTER_MESSAGES.badTime });
const filterText = (max: number) =>
  z
    .string()
    .trim()
    .max(max)
    .transform((value) => value || undefined)
    .optional();

/**
 * Server-side filter of the activity trail: who (actor email, part of it), what (one action
 * code), whom (target, part of it), the outcome and when (from and to, inclusive).
 */
export const auditFilterSchema = z
  .object({
    actor: filterText(254),
    action: z
      .string()
      .regex(/^[A-Z][A-Z_]{0,63}$/, 'Action must be an action code such as CREATE_USER')
      .optional(),
    target: filterText(512),
    outcome: z.enum(['success', 'failure']).optional(),
    from: isoTime.optional(),
    to: isoTime.optional(),
  })
  .strict()
  .refine(
    (filter) =>
      filter.from === undefined || filter.to === undefined || Date.parse(filter.from) <= Date.parse(filter.to),
    {
      message: AUDIT_FILTER_MESSAGES.reversedRange,
      path: ['to'],
    },
  );
export type AuditFilter = z.infer<typeof auditFilterSchema>;

/** POST bodies of the user management function (Admins only). */
export const userAdminRequestSchema = z.discriminatedUnion('action', [
  /**
   * `fullListing` (the page's Refresh): list every account in Cognito now instead of reading
   * the portal's copy of the directory (lambdas/shared/directory.ts).
   */
  z.object({ action: z.literal('GET_USERS'), fullListing: z.boolean().optional() }),
  /**
   * With a password: a confirmed account with that password, no email. With
   * `sendInvitation` (beyond the spec): Cognito generates a temporary password and sends the
   * pool's invitation email; the user chooses their own password at the first sign-in.
   */
  z
    .object({
      action: z.literal('CREATE_USER'),
      userEmail,
      password: strongPassword.optional(),
      sendInvitation: z.boolean().default(false),
    })
    .superRefine((body, ctx) => {
      if (body.sendInvitation && body.password !== undefined)
        ctx.addIssue({ code: 'custom', message: INVITATION_MESSAGES.chooseOne, path: ['password'] });
      if (!body.sendInvitation && body.password === undefined)
        ctx.addIssue({ code: 'custom', message: MESSAGES.adminPasswordRequired, path: ['password'] });
    }),
  /** Beyond the spec: a new temporary password and invitation email for an account still in FORCE_CHANGE_PASSWORD. */
  z.object({ action: z.literal('RESEND_INVITATION'), userEmail }),
  z.object({
    action: z.literal('UPDATE_USER'),
    userEmail: z
      .string({ error: UPDATE_USER_MESSAGES.emailRequired })
      .trim()
      .min(1, UPDATE_USER_MESSAGES.emailRequired)
      .pipe(adminEmail),
    newEmail: z.string().trim().optional(),
    newPassword: z.string().optional(),
  }),
  z.object({ action: z.literal('ENABLE_USER'), userEmail }),
  z.object({ action: z.literal('DISABLE_USER'), userEmail }),
  z.object({ action: z.literal('DELETE_USER'), userEmail }),
  /**
   * Beyond the spec: deletes a user's authenticator (AdminDeleteSoftwareToken) and signs them
   * out everywhere; they set up a new one at their next sign-in.
   */
  z.object({ action: z.literal('RESET_USER_MFA'), userEmail }),
  /** Beyond the spec: the account's sign-in factors (authenticator app, passkeys), read only. */
  z.object({ action: z.literal('GET_USER_FACTORS'), userEmail }),
  /**
   * Beyond the spec: adds an account to Admins. Removing someone from Admins is done in
   * Cognito, outside the portal; the functions check the group live, so it takes effect at once.
   */
  z.object({ action: z.literal('PROMOTE_TO_ADMIN'), userEmail }),
  /** Beyond the spec: the admin activity trail, newest first, optionally filtered. */
  z.object({
    action: z.literal('GET_AUDIT_LOG'),
    limit: z.number().int().min(1).max(100).default(50),
    nextToken: z.string().max(2048).optional(),
    filter: auditFilterSchema.optional(),
  }),
  /**
   * Beyond the spec: every entry matching the filter (at most AUDIT_EXPORT_MAX_ROWS), for a
   * file the browser writes in `format`. The export is itself recorded in the trail.
   */
  z.object({
    action: z.literal('EXPORT_AUDIT_LOG'),
    format: z.enum(['csv', 'json']),
    filter: auditFilterSchema.default({}),
  }),
]);
export type UserAdminRequest = z.infer<typeof userAdminRequestSchema>;
export type UserAdminAction = UserAdminRequest['action'];

export const managedUserSchema = z.object({
  username: z.string(),
  email: z.string(),
  enabled: z.boolean(),
  status: z.string(),
  cognitoGroup: z.string().nullable(),
  created: z.string().nullable(),
  /**
   * When the temporary password of an account that has not signed in yet stops working: the
   * last invitation (creation or resend, Cognito's last-modified date) plus
   * INVITATION_VALIDITY_DAYS; absent for any other account.
   */
  invitationExpires: z.string().nullable().optional(),
  /** The user's companies (names); more than one only for an owner account. */
  companies: z.array(z.string()).default([]),
  owner: z.boolean().default(false),
});
export type ManagedUser = z.infer<typeof managedUserSchema>;
export const getUsersResponseSchema = z.object({ users: z.array(managedUserSchema) });

export const auditEntrySchema = z.object({
  id: z.string(),
  at: z.string(),
  actor: z.string(),
  action: z.string(),
  target: z.string().nullable(),
  outcome: z.enum(['success', 'failure']),
  detail: z.string().nullable().optional(),
});
export type AuditEntry = z.infer<typeof auditEntrySchema>;
export const auditLogResponseSchema = z.object({
  entries: z.array(auditEntrySchema),
  nextToken: z.string().nullable(),
});
export const auditExportResponseSchema = z.object({ entries: z.array(auditEntrySchema), exportedAt: z.string() });
