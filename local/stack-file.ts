import { readFile, rename, writeFile } from 'node:fs/promises';
import { stackFilePath, type StackInfo } from '#clients/local-stack.ts';

/** Writes stack.json whole or not at all (readers never see half a file); only its owner may read it. */
export async function writeStackInfo(dataDir: string, info: StackInfo): Promise<void> {
  const path = stackFilePath(dataDir);
  const partial = `${path}.partial`;
  await writeFile(partial, `${JSON.stringify(info, null, 2)}\n`, { mode: 0o600 });
  await rename(partial, path);
}

/**
 * Keeps the demo accounts' authenticator secrets in stack.json current: the Cognito emulator
 * reports each change of an account's authenticator (a new one associated or verified, one
 * removed), and a demo account's entry takes the secret its codes now come from. Changes are
 * written one after another, in the order they came; before stack.json exists there is nothing
 * to keep (the start writes it from the pool).
 */
export function demoSecretKeeper(
  dataDir: string,
  log: (line: string) => void,
): (email: string | undefined, secret: string | undefined) => void {
  let writes = Promise.resolve();
  return (email, secret) => {
    if (email === undefined || secret === undefined) return;
    writes = writes
      .then(() => keepSecret(dataDir, email.toLowerCase(), secret))
      .catch((error: unknown) => log(`stack.json: could not record a new authenticator of ${email}: ${String(error)}`));
  };
}

async function keepSecret(dataDir: string, email: string, secret: string): Promise<void> {
  let info: StackInfo;
  try {
    info = JSON.parse(await readFile(stackFilePath(dataDir), 'utf8')) as StackInfo;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw error;
  }
  const accounts = Object.values(info.demo).filter((account) => account.email.toLowerCase() === email);
  if (accounts.every((account) => account.totpSecret === secret)) return;
  for (const account of accounts) (account as { totpSecret: string }).totpSecret = secret;
  await writeStackInfo(dataDir, info);
}
