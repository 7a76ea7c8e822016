import { z } from 'zod';
import { DataState, dataChangeSchemas, dataSnapshotSchema, isDataChange } from './state-data.ts';
import { GroupDirectory, groupChangeSchemas, groupSnapshotSchema, isGroupChange } from './state-groups.ts';
import {
  SnapshotJobs,
  isSnapshotChange,
  snapshotChangeSchemas,
  snapshotJobsSnapshotSchema,
} from './state-snapshots.ts';

/**
 * The emulator's state and the mutations that change it. Every change is a `StateChange`
 * applied in memory and appended to the journal, so replaying the journal over the last
 * snapshot rebuilds the same state after a restart.
 */

export const QUICKSIGHT_USER_ROLES = [
  'READER',
  'AUTHOR',
  'ADMIN',
  'RESTRICTED_READER',
  'RESTRICTED_AUTHOR',
  'READER_PRO',
  'AUTHOR_PRO',
  'ADMIN_PRO',
] as const;

const storedUserSchema = z.object({
  namespace: z.string(),
  userName: z.string(),
  email: z.string(),
  role: z.enum(QUICKSIGHT_USER_ROLES),
  identityType: z.literal('QUICKSIGHT'),
  active: z.boolean(),
  principalId: z.string(),
});
export type StoredUser = z.infer<typeof storedUserSchema>;

const resourcePermissionSchema = z.object({
  Principal: z.string(),
  Actions: z.array(z.string()),
});
export type ResourcePermission = z.infer<typeof resourcePermissionSchema>;

/** One GenerateEmbedUrlForRegisteredUser result: a one-time link, then a browser session. */
const embedSessionSchema = z.object({
  id: z.string(),
  namespace: z.string(),
  userName: z.string(),
  dashboardId: z.string(),
  allowedDomains: z.array(z.string()),
  lifetimeMinutes: z.number(),
  /** SHA-256 of the one-time code; the code itself is never stored. */
  codeHash: z.string(),
  linkExpiresAt: z.number(),
  redeemedAt: z.number().optional(),
  /** SHA-256 of the session cookie's value, set when the link is redeemed. */
  cookieHash: z.string().optional(),
  sessionExpiresAt: z.number().optional(),
  /** The dashboard features the URL was generated with, as `Feature` or `AmazonQInQuickSight.ExecutiveSummary`. */
  enabledFeatures: z.array(z.string()).optional(),
});
export type EmbedSession = z.infer<typeof embedSessionSchema>;

export const stateChangeSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('putUser'), user: storedUserSchema }),
  z.object({ type: z.literal('deleteUser'), namespace: z.string(), userName: z.string(), userArn: z.string() }),
  z.object({
    type: z.literal('setDashboardPermissions'),
    dashboardId: z.string(),
    permissions: z.array(resourcePermissionSchema),
  }),
  z.object({ type: z.literal('putEmbedSession'), session: embedSessionSchema }),
  ...groupChangeSchemas,
  ...dataChangeSchemas,
  ...snapshotChangeSchemas,
]);
export type StateChange = z.infer<typeof stateChangeSchema>;

/**
 * Format 2 added groups and the data catalogue (data sources, datasets, ingestions, SPICE
 * rows). A format 1 snapshot still loads: it had none of them, so they start empty. Members
 * added since (datasets' tag rules, snapshot jobs) are optional or default to empty, so a
 * snapshot written before them still loads as format 2.
 */
const SNAPSHOT_FORMAT = 2;

export const snapshotSchema = z
  .object({
    format: z.union([z.literal(1), z.literal(SNAPSHOT_FORMAT)]),
    accountId: z.string(),
    /** Sequence number of the last change the snapshot contains. */
    seq: z.number().int().nonnegative(),
    users: z.array(storedUserSchema),
    dashboardPermissions: z.record(z.string(), z.array(resourcePermissionSchema)),
    embedSessions: z.array(embedSessionSchema),
    groups: z.array(groupSnapshotSchema).default([]),
  })
  .extend(dataSnapshotSchema.shape)
  .extend(snapshotJobsSnapshotSchema.shape);
export type Snapshot = z.infer<typeof snapshotSchema>;

const userKey = (namespace: string, userName: string) => `${namespace}\u0000${userName}`;

/** A session is kept until both its link and its browser session can no longer be used. */
function sessionIsSpent(session: EmbedSession, now: number): boolean {
  return now > session.linkExpiresAt && (session.sessionExpiresAt === undefined || now > session.sessionExpiresAt);
}

export class QuickSightState {
  /** Maps, not objects: user names come from requests and may be '__proto__'. */
  private readonly users = new Map<string, StoredUser>();
  private readonly permissions = new Map<string, ResourcePermission[]>();
  private readonly sessions = new Map<string, EmbedSession>();
  readonly groups: GroupDirectory;
  readonly data: DataState;
  readonly snapshotJobs: SnapshotJobs;

  constructor(snapshot?: Snapshot) {
    this.groups = new GroupDirectory(snapshot?.groups);
    this.data = new DataState(snapshot);
    this.snapshotJobs = new SnapshotJobs(snapshot?.snapshotJobs);
    if (!snapshot) return;
    for (const user of snapshot.users) this.users.set(userKey(user.namespace, user.userName), user);
    for (const [dashboardId, list] of Object.entries(snapshot.dashboardPermissions)) {
      this.permissions.set(dashboardId, list);
    }
    for (const session of snapshot.embedSessions) this.sessions.set(session.id, session);
  }

  apply(change: StateChange): void {
    if (isGroupChange(change)) {
      // A deleted group's grants go with it, as a deleted user's do.
      if (change.type === 'deleteGroup') this.dropGrantsOf(change.groupArn);
      return this.groups.apply(change);
    }
    if (isDataChange(change)) return this.data.apply(change);
    if (isSnapshotChange(change)) return this.snapshotJobs.apply(change);
    switch (change.type) {
      case 'putUser':
        this.users.set(userKey(change.user.namespace, change.user.userName), change.user);
        return;
      case 'deleteUser':
        this.users.delete(userKey(change.namespace, change.userName));
        // QuickSight drops a deleted user's grants and ends their embedded sessions.
        this.dropGrantsOf(change.userArn);
        for (const [id, session] of this.sessions) {
          if (session.namespace === change.namespace && session.userName === change.userName) this.sessions.delete(id);
        }
        // ...and removes them from every group.
        this.groups.removeUserEverywhere(change.namespace, change.userName);
        return;
      case 'setDashboardPermissions':
        this.permissions.set(change.dashboardId, change.permissions);
        return;
      case 'putEmbedSession':
        this.sessions.set(change.session.id, change.session);
        return;
    }
  }

  private dropGrantsOf(principal: string): void {
    for (const [dashboardId, list] of this.permissions) {
      this.permissions.set(
        dashboardId,
        list.filter((p) => p.Principal !== principal),
      );
    }
  }

  user(namespace: string, userName: string): StoredUser | undefined {
    return this.users.get(userKey(namespace, userName));
  }

  /** Users of a namespace in registration order (Map order survives snapshots as array order). */
  usersOf(namespace: string): StoredUser[] {
    return [...this.users.values()].filter((u) => u.namespace === namespace);
  }

  dashboardPermissions(dashboardId: string): ResourcePermission[] {
    return this.permissions.get(dashboardId) ?? [];
  }

  embedSession(id: string): EmbedSession | undefined {
    return this.sessions.get(id);
  }

  /** Drops sessions whose link and browser session have both expired; nothing can use them. */
  forgetSpentSessions(now: number): void {
    for (const [id, session] of this.sessions) {
      if (sessionIsSpent(session, now)) this.sessions.delete(id);
    }
  }

  toSnapshot(accountId: string, seq: number): Snapshot {
    return {
      format: SNAPSHOT_FORMAT,
      accountId,
      seq,
      users: [...this.users.values()],
      dashboardPermissions: Object.fromEntries(this.permissions),
      embedSessions: [...this.sessions.values()],
      groups: this.groups.toSnapshot(),
      ...this.data.toSnapshot(),
      snapshotJobs: this.snapshotJobs.toSnapshot(),
    };
  }
}
