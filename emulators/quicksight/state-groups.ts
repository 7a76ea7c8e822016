import { z } from 'zod';

/**
 * QuickSight groups of a namespace and their members (users, by user name). Part of the
 * emulator's state: changed only through the group changes below, so the journal replays them.
 */

const storedGroupSchema = z.object({
  namespace: z.string(),
  groupName: z.string(),
  description: z.string().optional(),
  principalId: z.string(),
});
export type StoredGroup = z.infer<typeof storedGroupSchema>;

const memberChange = { namespace: z.string(), groupName: z.string(), userName: z.string() };

export const groupChangeSchemas = [
  z.object({ type: z.literal('putGroup'), group: storedGroupSchema }),
  z.object({ type: z.literal('deleteGroup'), namespace: z.string(), groupName: z.string(), groupArn: z.string() }),
  z.object({ type: z.literal('addGroupMember'), ...memberChange }),
  z.object({ type: z.literal('removeGroupMember'), ...memberChange }),
] as const;
export type GroupChange = z.infer<(typeof groupChangeSchemas)[number]>;

const GROUP_CHANGE_TYPES: ReadonlySet<string> = new Set(groupChangeSchemas.map((schema) => schema.shape.type.value));
export const isGroupChange = (change: { type: string }): change is GroupChange => GROUP_CHANGE_TYPES.has(change.type);

/** A group with its members in the order they were added, as snapshots keep it. */
export const groupSnapshotSchema = storedGroupSchema.extend({ members: z.array(z.string()) });
export type GroupSnapshot = z.infer<typeof groupSnapshotSchema>;

const groupKey = (namespace: string, groupName: string) => `${namespace}\u0000${groupName}`;

interface GroupEntry {
  group: StoredGroup;
  /** Set order is insertion order: ListGroupMemberships answers in the order members were added. */
  readonly members: Set<string>;
}

export class GroupDirectory {
  private readonly entries = new Map<string, GroupEntry>();

  constructor(snapshot: readonly GroupSnapshot[] = []) {
    for (const { members, ...group } of snapshot) {
      this.entries.set(groupKey(group.namespace, group.groupName), { group, members: new Set(members) });
    }
  }

  apply(change: GroupChange): void {
    const { namespace, groupName } = change.type === 'putGroup' ? change.group : change;
    const key = groupKey(namespace, groupName);
    switch (change.type) {
      case 'putGroup': {
        const existing = this.entries.get(key);
        if (existing) existing.group = change.group;
        else this.entries.set(key, { group: change.group, members: new Set() });
        return;
      }
      case 'deleteGroup':
        // The memberships go with the group.
        this.entries.delete(key);
        return;
      case 'addGroupMember':
        this.entries.get(key)?.members.add(change.userName);
        return;
      case 'removeGroupMember':
        this.entries.get(key)?.members.delete(change.userName);
        return;
    }
  }

  /** A deleted user leaves every group of their namespace, as QuickSight removes them. */
  removeUserEverywhere(namespace: string, userName: string): void {
    for (const entry of this.entries.values()) {
      if (entry.group.namespace === namespace) entry.members.delete(userName);
    }
  }

  group(namespace: string, groupName: string): StoredGroup | undefined {
    return this.entries.get(groupKey(namespace, groupName))?.group;
  }

  /** Groups of a namespace in creation order. */
  groupsOf(namespace: string): StoredGroup[] {
    return [...this.entries.values()].filter((e) => e.group.namespace === namespace).map((e) => e.group);
  }

  members(namespace: string, groupName: string): string[] {
    return [...(this.entries.get(groupKey(namespace, groupName))?.members ?? [])];
  }

  isMember(namespace: string, groupName: string, userName: string): boolean {
    return this.entries.get(groupKey(namespace, groupName))?.members.has(userName) ?? false;
  }

  /** The groups a user belongs to, in group creation order. */
  groupsOfUser(namespace: string, userName: string): StoredGroup[] {
    return [...this.entries.values()]
      .filter((e) => e.group.namespace === namespace && e.members.has(userName))
      .map((e) => e.group);
  }

  toSnapshot(): GroupSnapshot[] {
    return [...this.entries.values()].map((e) => ({ ...e.group, members: [...e.members] }));
  }
}
