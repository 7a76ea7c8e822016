import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { processAlive } from './process-alive.ts';

/**
 * Fixed offsets from the port base, so that the addresses of a stack are predictable
 * (the SPA's config, bookmarks of the inbox page) and several stacks can run side by side
 * with different bases.
 */
const PORT_OFFSETS = {
  web: 0,
  cognito: 1,
  graphql: 2,
  embed: 3,
  quicksightAdmin: 4,
  userAdmin: 5,
  mfa: 6,
  contact: 7,
  quicksight: 8,
  dynamodb: 9,
  mail: 10,
  mailApi: 11,
  /** Local S3 behind its IAM gate (the rules file of row-level security). */
  s3: 12,
  /** QuickSight's embed pages over https (the embedding SDK takes only https embed URLs). */
  quicksightEmbed: 13,
} as const;

type PortName = keyof typeof PORT_OFFSETS;
export type PortLayout = Record<PortName, number>;

export const PORT_COUNT = Math.max(...Object.values(PORT_OFFSETS)) + 1;
export const DEFAULT_PORT_BASE = 4400;

export function portLayout(base: number): PortLayout {
  if (!Number.isInteger(base) || base < 1024 || base + PORT_COUNT - 1 > 65_535) {
    throw new Error(`Port base must be an integer from 1024 to ${65_535 - PORT_COUNT + 1}, got ${base}`);
  }
  const entries = Object.entries(PORT_OFFSETS).map(([name, offset]) => [name, base + offset]);
  return Object.fromEntries(entries) as PortLayout;
}

function isPortFree(port: number, host: string): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = createServer();
    probe.once('error', () => resolve(false));
    probe.listen({ port, host, exclusive: true }, () => probe.close(() => resolve(true)));
  });
}

/** Where the blocks tried by {@link findFreePortBase} start. */
const SEARCH_FLOOR = 20_000;
/** Linux's default first ephemeral port, for systems that do not publish their range. */
const DEFAULT_EPHEMERAL_FLOOR = 32_768;

/**
 * The first port the kernel may hand out to an outgoing connection or a listener on port 0
 * (`/proc/sys/net/ipv4/ip_local_port_range`). A stack whose ports reach into that range can
 * find one taken between the check and its own listen, by any connection the machine opens.
 */
export function ephemeralPortFloor(rangeFile = '/proc/sys/net/ipv4/ip_local_port_range'): number {
  try {
    const low = Number(readFileSync(rangeFile, 'utf8').trim().split(/\s+/)[0]);
    return Number.isInteger(low) && low > 1024 ? low : DEFAULT_EPHEMERAL_FLOOR;
  } catch {
    return DEFAULT_EPHEMERAL_FLOOR;
  }
}

/** Where processes note the blocks they picked (see {@link claimPortBlock}). */
const CLAIMS_DIR = join(tmpdir(), 'analytics-portal-port-blocks');
/** This process's claims, removed when it exits. */
const claims = new Set<string>();
let releaseOnExit = false;

/**
 * Claims the block at `base` for this process, so that two processes starting stacks at the
 * same time never both pick it: each writes a file named after the block and its pid, then
 * looks for another live claimant and backs off if there is one (both may back off; neither
 * keeps a block another holds). Claims of processes that are gone are removed on the way. A
 * block stays claimed until this process exits, so every stack a test process starts has its own.
 */
export function claimPortBlock(base: number, dir = CLAIMS_DIR): boolean {
  mkdirSync(dir, { recursive: true });
  const own = `${base}.${process.pid}`;
  try {
    writeFileSync(join(dir, own), '', { flag: 'wx' });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  }
  let heldElsewhere = false;
  for (const name of readdirSync(dir)) {
    if (name === own) continue;
    const [block, pid] = name.split('.').map(Number);
    // Claims of processes that are gone (a test worker may be killed before it can remove its own).
    if (!Number.isInteger(pid) || pid! <= 0 || !processAlive(pid!)) rmSync(join(dir, name), { force: true });
    else if (block === base) heldElsewhere = true;
  }
  if (heldElsewhere) {
    rmSync(join(dir, own), { force: true });
    return false;
  }
  claims.add(join(dir, own));
  if (!releaseOnExit) {
    releaseOnExit = true;
    process.once('exit', () => {
      for (const file of claims) rmSync(file, { force: true });
    });
  }
  return true;
}

export interface PortSearch {
  readonly host?: string;
  readonly attempts?: number;
  /** The first ephemeral port; the kernel's by default. */
  readonly ephemeralFloor?: number;
  /** Where blocks are claimed; a folder of the system's temporary directory by default. */
  readonly claimsDir?: string;
}

/**
 * A base whose whole block of ports is free now and claimed by this process (tests and benches
 * run stacks side by side, and next to a developer's own `npm start`). Blocks are tried at
 * random in the unprivileged range below the kernel's ephemeral ports, so that no outgoing
 * connection can take one of them.
 */
export async function findFreePortBase({
  host = '127.0.0.1',
  attempts = 50,
  ephemeralFloor = ephemeralPortFloor(),
  claimsDir = CLAIMS_DIR,
}: PortSearch = {}): Promise<number> {
  const floor = ephemeralFloor - SEARCH_FLOOR > PORT_COUNT ? SEARCH_FLOOR : 1024;
  const blocks = Math.floor((ephemeralFloor - floor) / PORT_COUNT);
  if (blocks < 1) throw new Error(`No room for a block of ${PORT_COUNT} ports below port ${ephemeralFloor}`);
  for (let attempt = 0; attempt < attempts; attempt += 1) {
    const base = floor + Math.floor(Math.random() * blocks) * PORT_COUNT;
    if (!claimPortBlock(base, claimsDir)) continue;
    const checks = await Promise.all(Array.from({ length: PORT_COUNT }, (_, i) => isPortFree(base + i, host)));
    if (checks.every(Boolean)) return base;
  }
  throw new Error(`No block of ${PORT_COUNT} free ports found on ${host}`);
}

/** Fails with the services whose ports are taken, before anything starts. */
export async function assertPortsFree(ports: PortLayout, host: string): Promise<void> {
  const entries = Object.entries(ports) as [PortName, number][];
  const free = await Promise.all(entries.map(([, port]) => isPortFree(port, host)));
  const busy = entries.filter((_, i) => !free[i]).map(([name, port]) => `${port} (${name})`);
  if (busy.length > 0) {
    throw new Error(
      `Port${busy.length > 1 ? 's' : ''} ${busy.join(', ')} on ${host} ${busy.length > 1 ? 'are' : 'is'} in use. ` +
        'Is another local stack running? Stop it, or choose other ports with --port-base.',
    );
  }
}
