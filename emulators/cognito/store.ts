import { loadPool, PoolJournal, type JournalRecord } from './persistence.ts';
import type { CollectionName, GroupRecord, OriginRecord, PoolMeta, PoolSnapshot, UserRecord } from './state.ts';

/**
 * The pool in memory with the indexes the operations need (username, email, group
 * members, sign-ins by user and by refresh token, passkey owners by credential ID), so no
 * request scans every account unless it asks for a filtered listing. Changes are marked
 * dirty and journaled by `commit()`, which the HTTP layer awaits before answering.
 */
export class PoolStore {
  private readonly users = new Map<string, UserRecord>();
  private readonly usernameByEmail = new Map<string, string>();
  private readonly emailByUsername = new Map<string, string>();
  /** Users in creation order; deleted ones linger until the next cleanup. */
  private ordered: UserRecord[] = [];
  private deletedInOrder = 0;
  private nextSeq = 1;
  private readonly groups = new Map<string, GroupRecord>();
  private readonly members = new Map<string, Set<string>>();
  private readonly origins = new Map<string, OriginRecord>();
  private readonly originsByUser = new Map<string, Set<string>>();
  private readonly originByRefreshHash = new Map<string, string>();
  private readonly passkeyOwners = new Map<string, string>();
  private readonly passkeysByUser = new Map<string, Set<string>>();
  private readonly dirty = new Map<string, { c: CollectionName; k: string }>();

  private constructor(
    readonly meta: PoolMeta,
    private readonly journal: PoolJournal,
    private readonly now: () => number,
  ) {}

  /** Opens the pool in dataDir, creating it with `create` on first start. */
  static async open(
    dataDir: string,
    now: () => number,
    create: () => { meta: PoolMeta; groups: GroupRecord[] },
  ): Promise<PoolStore> {
    const loaded = await loadPool(dataDir);
    const initial = loaded ?? { format: 1 as const, seq: 0, users: [], origins: [], ...create() };
    const journal = await PoolJournal.open(dataDir, initial.seq);
    const store = new PoolStore(initial.meta, journal, now);
    for (const group of initial.groups) store.indexGroup(group);
    for (const user of [...initial.users].sort((a, b) => a.seq - b.seq)) store.indexNewUser(user);
    for (const origin of initial.origins) store.indexOrigin(origin);
    // Start every run from one snapshot and an empty journal.
    await journal.compact((seq) => store.capture(seq));
    return store;
  }

  // Users

  /** By username (UUID) or, as Cognito accepts for email sign-in pools, by email. */
  findUser(usernameOrEmail: string): UserRecord | undefined {
    const byName = this.users.get(usernameOrEmail);
    if (byName) return byName;
    const username = this.usernameByEmail.get(usernameOrEmail.toLowerCase());
    return username === undefined ? undefined : this.users.get(username);
  }

  emailTaken(email: string, exceptUsername?: string): boolean {
    const owner = this.usernameByEmail.get(email.toLowerCase());
    return owner !== undefined && owner !== exceptUsername;
  }

  insertUser(user: Omit<UserRecord, 'seq'>): UserRecord {
    const record: UserRecord = { ...user, seq: this.nextSeq };
    this.indexNewUser(record);
    this.mark('user', record.username);
    return record;
  }

  /** Records a change to a user (attributes, status, credentials, counters). */
  saveUser(user: UserRecord): void {
    this.indexEmail(user);
    this.indexPasskeys(user);
    this.mark('user', user.username);
  }

  /** The username of the user a passkey (by credential ID) is registered to. */
  passkeyOwner(credentialId: string): string | undefined {
    return this.passkeyOwners.get(credentialId);
  }

  deleteUser(user: UserRecord): void {
    this.users.delete(user.username);
    const email = this.emailByUsername.get(user.username);
    if (email !== undefined && this.usernameByEmail.get(email) === user.username) this.usernameByEmail.delete(email);
    this.emailByUsername.delete(user.username);
    for (const group of user.groups) this.members.get(group)?.delete(user.username);
    for (const id of this.passkeysByUser.get(user.username) ?? []) this.passkeyOwners.delete(id);
    this.passkeysByUser.delete(user.username);
    this.deletedInOrder += 1;
    if (this.deletedInOrder > 1000 && this.deletedInOrder * 4 > this.ordered.length) {
      this.ordered = this.ordered.filter((candidate) => this.users.get(candidate.username) === candidate);
      this.deletedInOrder = 0;
    }
    this.mark('user', user.username);
  }

  /**
   * Users created after `afterSeq` that match, in creation order: at most `limit` of
   * them, and the sequence number to continue from when more match.
   */
  listUsers(afterSeq: number, limit: number, matches: (user: UserRecord) => boolean) {
    const page: UserRecord[] = [];
    let low = 0;
    let high = this.ordered.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if (this.ordered[middle]!.seq <= afterSeq) low = middle + 1;
      else high = middle;
    }
    for (let index = low; index < this.ordered.length; index += 1) {
      const user = this.ordered[index]!;
      if (this.users.get(user.username) !== user || !matches(user)) continue;
      if (page.length === limit) return { page, continueAfter: page.at(-1)?.seq };
      page.push(user);
    }
    return { page, continueAfter: undefined };
  }

  // Groups

  getGroup(name: string): GroupRecord | undefined {
    return this.groups.get(name);
  }

  listGroups(): GroupRecord[] {
    return [...this.groups.values()];
  }

  saveGroup(group: GroupRecord): void {
    this.indexGroup(group);
    this.mark('group', group.name);
  }

  isMember(group: string, username: string): boolean {
    return this.members.get(group)?.has(username) ?? false;
  }

  addToGroup(user: UserRecord, group: string): void {
    if (user.groups.includes(group)) return;
    user.groups = [...user.groups, group];
    this.members.get(group)?.add(user.username);
    this.saveUser(user);
  }

  removeFromGroup(user: UserRecord, group: string): void {
    if (!user.groups.includes(group)) return;
    user.groups = user.groups.filter((name) => name !== group);
    this.members.get(group)?.delete(user.username);
    this.saveUser(user);
  }

  // Sign-ins (origins of tokens)

  addOrigin(origin: OriginRecord): void {
    this.indexOrigin(origin);
    this.mark('origin', origin.jti);
  }

  getOrigin(jti: string): OriginRecord | undefined {
    return this.origins.get(jti);
  }

  originByRefreshToken(hash: string): OriginRecord | undefined {
    const jti = this.originByRefreshHash.get(hash);
    return jti === undefined ? undefined : this.origins.get(jti);
  }

  revokeOrigin(origin: OriginRecord): void {
    if (origin.revoked) return;
    origin.revoked = true;
    this.mark('origin', origin.jti);
  }

  /** Global sign-out: every token of every sign-in of the user stops working. */
  revokeAllOrigins(username: string): void {
    for (const jti of this.originsByUser.get(username) ?? []) {
      const origin = this.origins.get(jti);
      if (origin) this.revokeOrigin(origin);
    }
  }

  // Persistence

  /** Journals every record changed since the last commit. */
  commit(): Promise<void> {
    const records: JournalRecord[] = [];
    for (const { c, k } of this.dirty.values()) {
      const value = c === 'user' ? this.users.get(k) : c === 'group' ? this.groups.get(k) : this.origins.get(k);
      records.push({ c, k, v: value ?? null });
    }
    this.dirty.clear();
    return this.journal.append(records, (seq) => this.capture(seq));
  }

  async close(): Promise<void> {
    await this.commit();
    await this.journal.close((seq) => this.capture(seq));
  }

  private capture(seq: number): PoolSnapshot {
    this.dropExpiredOrigins();
    return {
      format: 1,
      seq,
      meta: this.meta,
      users: this.ordered.filter((user) => this.users.get(user.username) === user),
      groups: [...this.groups.values()],
      origins: [...this.origins.values()],
    };
  }

  private dropExpiredOrigins(): void {
    const now = this.now();
    for (const origin of this.origins.values()) {
      if (origin.expiresAt > now) continue;
      this.origins.delete(origin.jti);
      this.originByRefreshHash.delete(origin.refreshTokenHash);
      this.originsByUser.get(origin.username)?.delete(origin.jti);
    }
  }

  private mark(c: CollectionName, k: string): void {
    this.dirty.set(`${c}:${k}`, { c, k });
  }

  private indexNewUser(user: UserRecord): void {
    this.users.set(user.username, user);
    this.ordered.push(user);
    this.nextSeq = Math.max(this.nextSeq, user.seq + 1);
    this.indexEmail(user);
    this.indexPasskeys(user);
    for (const group of user.groups) this.members.get(group)?.add(user.username);
  }

  private indexPasskeys(user: UserRecord): void {
    const now = new Set((user.passkeys ?? []).map((passkey) => passkey.id));
    const before = this.passkeysByUser.get(user.username);
    for (const id of before ?? []) if (!now.has(id)) this.passkeyOwners.delete(id);
    for (const id of now) this.passkeyOwners.set(id, user.username);
    if (now.size === 0) this.passkeysByUser.delete(user.username);
    else this.passkeysByUser.set(user.username, now);
  }

  private indexEmail(user: UserRecord): void {
    const email = user.attributes.email?.toLowerCase();
    const previous = this.emailByUsername.get(user.username);
    if (previous === email) return;
    if (previous !== undefined && this.usernameByEmail.get(previous) === user.username) {
      this.usernameByEmail.delete(previous);
    }
    if (email === undefined) {
      this.emailByUsername.delete(user.username);
      return;
    }
    this.emailByUsername.set(user.username, email);
    this.usernameByEmail.set(email, user.username);
  }

  private indexGroup(group: GroupRecord): void {
    this.groups.set(group.name, group);
    if (!this.members.has(group.name)) this.members.set(group.name, new Set());
  }

  private indexOrigin(origin: OriginRecord): void {
    this.origins.set(origin.jti, origin);
    this.originByRefreshHash.set(origin.refreshTokenHash, origin.jti);
    let forUser = this.originsByUser.get(origin.username);
    if (!forUser) this.originsByUser.set(origin.username, (forUser = new Set()));
    forUser.add(origin.jti);
  }
}
