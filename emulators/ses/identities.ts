/**
 * SES identities as the sandbox front keeps them, and the rules for which identity covers an
 * address (SES developer guide, "Creating and verifying identities in Amazon SES" and
 * "Verified identities"):
 * - an email address identity covers that address exactly: the whole address is
 *   case-sensitive, except that a label (`user+label@…`) is covered by `user@…`;
 * - a domain identity covers every address at that domain and at any of its subdomains,
 *   case-insensitively.
 */

type IdentityType = 'EMAIL_ADDRESS' | 'DOMAIN';
type VerificationStatus = 'PENDING' | 'SUCCESS';

export interface EmailIdentity {
  readonly name: string;
  readonly type: IdentityType;
  status: VerificationStatus;
}

/** Recipients at this domain are accepted in the sandbox (SES mailbox simulator). */
const MAILBOX_SIMULATOR_DOMAIN = 'simulator.amazonses.com';

export class IdentityError extends Error {
  constructor(
    readonly type: 'AlreadyExistsException' | 'NotFoundException' | 'BadRequestException',
    message: string,
  ) {
    super(message);
    this.name = type;
  }
}

const DOMAIN = /^(?=.{1,253}$)([a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)(\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)+$/i;

/** The type of an identity name, or an error naming it when it is neither an address nor a domain. */
function identityType(name: string): IdentityType {
  const at = name.lastIndexOf('@');
  if (at < 0) {
    if (DOMAIN.test(name)) return 'DOMAIN';
    throw new IdentityError('BadRequestException', `Invalid email identity ${name}.`);
  }
  if (at === 0 || !DOMAIN.test(name.slice(at + 1)) || /\s/.test(name)) {
    throw new IdentityError('BadRequestException', `Invalid email identity ${name}.`);
  }
  return 'EMAIL_ADDRESS';
}

/** Key under which an identity is stored: domains are case-insensitive, addresses are not. */
function keyOf(name: string, type: IdentityType): string {
  return type === 'DOMAIN' ? name.toLowerCase() : name;
}

/** The address of a mailbox as written in a header or API field (`Name <a@b>` or `a@b`). */
export function mailboxAddress(value: string): string | undefined {
  const angle = /<([^<>]*)>\s*$/.exec(value);
  const address = (angle ? angle[1]! : value).trim();
  const at = address.lastIndexOf('@');
  return at > 0 && at < address.length - 1 && !/[\s<>]/.test(address) ? address : undefined;
}

/** Every address in an address-list header value; quoted display names are skipped. */
export function addressesInHeader(value: string): string[] {
  const unquoted = value.replace(/"(?:[^"\\]|\\.)*"/g, '').replace(/\([^()]*\)/g, '');
  const found: string[] = [];
  const withoutAngles = unquoted.replace(/<([^<>]*)>/g, (_, inner: string) => {
    found.push(inner.trim());
    return ' ';
  });
  for (const match of withoutAngles.matchAll(/[^\s<>(),;:"]+@[^\s<>(),;:"]+/g)) found.push(match[0]);
  return found.filter((address) => address.includes('@'));
}

export class IdentityStore {
  readonly #identities = new Map<string, EmailIdentity>();

  /** Local-only: records identities as verified, as a confirmed link or DNS record would. */
  verify(names: readonly string[]): void {
    for (const name of names) {
      const type = identityType(name);
      this.#identities.set(keyOf(name, type), { name, type, status: 'SUCCESS' });
    }
  }

  /** CreateEmailIdentity: a new identity waits for verification, which never comes locally. */
  create(name: string): EmailIdentity {
    const type = identityType(name);
    const key = keyOf(name, type);
    if (this.#identities.has(key))
      throw new IdentityError('AlreadyExistsException', `Email identity ${name} already exist.`);
    const identity: EmailIdentity = { name, type, status: 'PENDING' };
    this.#identities.set(key, identity);
    return identity;
  }

  get(name: string): EmailIdentity {
    const identity = this.#find(name);
    if (!identity) throw new IdentityError('NotFoundException', `Email identity ${name} does not exist.`);
    return identity;
  }

  delete(name: string): void {
    const identity = this.get(name);
    this.#identities.delete(keyOf(identity.name, identity.type));
  }

  /** Whether a verified identity covers this address (the address itself, or its domain or a parent domain). */
  covers(address: string): boolean {
    return this.identityCovering(address) !== undefined;
  }

  /** The verified identity that covers an address (SES authorizes sending on it), if any. */
  identityCovering(address: string): string | undefined {
    const at = address.lastIndexOf('@');
    if (at <= 0) return undefined;
    const local = address.slice(0, at);
    const domain = address.slice(at + 1).toLowerCase();
    const plus = local.indexOf('+');
    const candidates = [address, ...(plus > 0 ? [`${local.slice(0, plus)}@${address.slice(at + 1)}`] : [])];
    const verified = candidates
      .map((name) => this.#identities.get(name))
      .find((identity) => identity?.status === 'SUCCESS');
    if (verified) return verified.name;
    const labels = domain.split('.');
    for (let i = 0; i < labels.length - 1; i += 1) {
      const parent = this.#identities.get(labels.slice(i).join('.'));
      if (parent?.type === 'DOMAIN' && parent.status === 'SUCCESS') return parent.name;
    }
    return undefined;
  }

  #find(name: string): EmailIdentity | undefined {
    let type: IdentityType;
    try {
      type = identityType(name);
    } catch {
      return undefined;
    }
    return this.#identities.get(keyOf(name, type));
  }
}

export function isMailboxSimulator(address: string): boolean {
  return address.slice(address.lastIndexOf('@') + 1).toLowerCase() === MAILBOX_SIMULATOR_DOMAIN;
}
