import {
  AdminListGroupsForUserCommand,
  AssociateSoftwareTokenCommand,
  CognitoIdentityProviderClient,
  SignUpCommand,
  VerifySoftwareTokenCommand,
} from '@aws-sdk/client-cognito-identity-provider';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DynamoDBClient, QueryCommand } from '@aws-sdk/client-dynamodb';
import { COMPANY_MESSAGES } from '#contracts/companies.ts';
import { embedResponseSchema } from '#contracts/embed.ts';
import { VIEWS_BY_USER_INDEX } from '#contracts/tables.ts';
import { listUsersWithQuicksightResponseSchema } from '#contracts/quicksight-admin.ts';
import { quicksightDataDir } from '#local/data-dir.ts';
import { LOCAL_CREDENTIALS, readStackInfo } from '#clients/local-stack.ts';
import { currentTotpCode } from '#clients/authenticator-code.ts';
import { findFreePortBase } from '#local/ports.ts';
import { SAMPLE_DASHBOARDS } from '#emulators/quicksight/index.ts';
import { spawnStack, type RunningStack } from '#local/stack-process.ts';
import type { StackInfo } from '#clients/local-stack.ts';
import { signInWithSrp, type SessionTokens } from '../e2e/support/cognito-session.ts';
import { noteSeedSignIns } from '../e2e/support/unused-totp-codes.ts';
import { readMail } from '../e2e/support/mail.ts';
import { companyRace, getOverTls } from './support/company-race.ts';

const NORTHWIND = 'Northwind Manufacturing';
const CONTOSO = 'Contoso Distribution';
const FABRIKAM = 'Fabrikam Industries';

const LIST_VIEWS = /* GraphQL */ `
  query ListViews {
    listTableauViews {
      items { id name quicksightDashboardId isDefault userEmail }
      nextToken
    }
  }
`;

interface ViewItem {
  id: string;
  name: string;
  quicksightDashboardId: string;
  isDefault: boolean | null;
  userEmail: string;
}

async function graphql(stack: StackInfo, authorization: string | undefined, query: string) {
  const response = await fetch(stack.graphqlUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(authorization !== undefined && { authorization }) },
    body: JSON.stringify({ query }),
  });
  return {
    status: response.status,
    body: (await response.json()) as { data?: Record<string, unknown> | null; errors?: unknown[] },
  };
}

function embedRequest(stack: StackInfo, tokens: SessionTokens, dashboardId: string) {
  return fetch(stack.functions.embed, {
    headers: { authorization: `Bearer ${tokens.accessToken}`, 'x-dashboard-id': dashboardId },
  });
}

describe('npm start (local stack as a child process)', () => {
  let dataDir: string;
  let running: RunningStack;
  let stack: StackInfo;
  let user: SessionTokens;
  let admin: SessionTokens | undefined;
  /** The demo admin, signed in once (each authenticator code is taken once). */
  const adminSession = async () => (admin ??= await signInWithSrp(stack, stack.demo.admin));

  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'portal-stack-test-'));
    running = await spawnStack({ dataDir, portBase: await findFreePortBase(), launcher: 'npm' });
    stack = running.info;
    await noteSeedSignIns(stack);
    user = await signInWithSrp(stack, stack.demo.user);
  });

  afterAll(async () => {
    await running?.stop();
    await rm(dataDir, { recursive: true, force: true });
  });

  it('signs the demo user in, lists their views through GraphQL and opens the default dashboard', async () => {
    const { status, body } = await graphql(stack, user.accessToken, LIST_VIEWS);
    expect(status).toBe(200);
    expect(body.errors).toBeUndefined();
    const views = (body.data?.listTableauViews as { items: ViewItem[] }).items;
    expect(views).toHaveLength(2);
    expect(views.every((v) => v.userEmail === stack.demo.user.email)).toBe(true);
    const defaults = views.filter((v) => v.isDefault);
    expect(defaults).toHaveLength(1);
    const defaultView = defaults[0]!;

    const embed = await embedRequest(stack, user, defaultView.quicksightDashboardId);
    expect(embed.status).toBe(200);
    const { url } = embedResponseSchema.parse(await embed.json());
    // Embed pages are addressed as localhost (same site as the portal) over https on their own
    // port, as QuickSight's embedding SDK takes only https embed URLs; the stack prints that origin.
    expect(new URL(url).origin).toBe(new URL(stack.quicksight.embedPagesUrl).origin);
    expect(new URL(url).protocol).toBe('https:');
    expect(new URL(url).port).not.toBe(new URL(stack.quicksight.endpoint).port);

    // Fetched trusting the stack's own self-signed certificate, as a browser does once accepted.
    const ca = await readFile(join(quicksightDataDir(dataDir), 'tls', 'cert.pem'), 'utf8');
    const page = await getOverTls(url, ca);
    expect(page.status).toBe(200);
    const html = page.body;
    const dashboard = SAMPLE_DASHBOARDS.find((d) => d.dashboardId === defaultView.quicksightDashboardId);
    expect(dashboard).toBeDefined();
    expect(html).toContain(`<title>${dashboard!.name}`);
    expect(html).toContain(stack.demo.user.email);
  });

  it('refuses an embed URL for a dashboard not assigned to the user', async () => {
    const { body } = await graphql(stack, user.accessToken, LIST_VIEWS);
    const assigned = new Set(
      (body.data?.listTableauViews as { items: ViewItem[] }).items.map((v) => v.quicksightDashboardId),
    );
    const unassigned = SAMPLE_DASHBOARDS.find((d) => !assigned.has(d.dashboardId));
    expect(unassigned).toBeDefined();

    const embed = await embedRequest(stack, user, unassigned!.dashboardId);
    expect(embed.status).toBe(403);
    expect(await embed.json()).toHaveProperty('error');
  });

  it('answers GraphQL without a valid token as AppSync does', async () => {
    const missing = await graphql(stack, undefined, LIST_VIEWS);
    const forged = await graphql(stack, `${user.accessToken.slice(0, -4)}AAAA`, LIST_VIEWS);
    for (const { status, body } of [missing, forged]) {
      expect(status).toBe(401);
      expect(body).toEqual({
        errors: [{ errorType: 'UnauthorizedException', message: 'Valid authorization header not provided.' }],
      });
    }
  });

  it('lets the demo admin list the users with their QuickSight status', async () => {
    const response = await fetch(stack.functions.quicksightAdmin, {
      method: 'POST',
      headers: { authorization: `Bearer ${(await adminSession()).accessToken}`, 'content-type': 'application/json' },
      body: JSON.stringify({ action: 'LIST_COGNITO_USERS_WITH_QUICKSIGHT_STATUS' }),
    });
    expect(response.status).toBe(200);
    const { users } = listUsersWithQuicksightResponseSchema.parse(await response.json());
    const byEmail = new Map(users.map((u) => [u.email, u]));
    expect(byEmail.get(stack.demo.user.email)).toMatchObject({
      existsInQuickSight: true,
      cognito: { cognitoGroup: 'Users' },
    });
    expect(byEmail.get(stack.demo.user.email)?.quicksight?.role).toBe('READER');
    expect(byEmail.get(stack.demo.admin.email)).toMatchObject({
      existsInQuickSight: false,
      cognito: { cognitoGroup: 'Admins' },
    });
  });

  it("lists each function's credentials in stack.json, held to that function's policy", async () => {
    expect(Object.keys(stack.functionCredentials).sort()).toEqual(
      [
        'contact',
        'embed',
        'graphql',
        'mfa',
        'postConfirmation',
        'preTokenGeneration',
        'quicksightAdmin',
        'userAdmin',
      ].sort(),
    );
    const actingAs = (key: keyof StackInfo['functionCredentials']) =>
      new DynamoDBClient({
        endpoint: stack.dynamodb.endpoint,
        region: stack.region,
        credentials: stack.functionCredentials[key],
        maxAttempts: 1,
      });
    const byUser = (client: DynamoDBClient) =>
      client.send(
        new QueryCommand({
          TableName: 'local-Views',
          IndexName: VIEWS_BY_USER_INDEX,
          KeyConditionExpression: 'userEmail = :email',
          ExpressionAttributeValues: { ':email': { S: stack.demo.user.email } },
        }),
      );
    const resolver = actingAs('graphql');
    const contact = actingAs('contact');
    try {
      await expect(byUser(resolver)).resolves.toMatchObject({ Count: 2 });
      // The contact function has no grant on the views table.
      await expect(byUser(contact)).rejects.toMatchObject({ name: 'AccessDeniedException' });
    } finally {
      resolver.destroy();
      contact.destroy();
    }
  });

  it('confirms a self sign-up through the emailed link and puts the account in Users', async () => {
    const email = 'new.person@example.com';
    const since = new Date();
    const cognito = new CognitoIdentityProviderClient({
      endpoint: stack.cognito.endpoint,
      region: stack.region,
      credentials: LOCAL_CREDENTIALS,
    });
    try {
      await cognito.send(
        new SignUpCommand({
          ClientId: stack.cognito.clientId,
          Username: email,
          Password: 'NewPerson#2026',
          UserAttributes: [{ Name: 'email', Value: email }],
        }),
      );
      const mail = await readMail(stack, { to: email, since });
      const link = /http:\/\/\S+\/confirmUser\?\S+/.exec(mail.text)?.[0];
      expect(link?.startsWith(stack.cognito.endpoint)).toBe(true);
      expect((await fetch(link!)).status).toBe(200);
      // The post-confirmation trigger (lambdas/post-confirmation) ran in the local stack.
      const { Groups } = await cognito.send(
        new AdminListGroupsForUserCommand({ UserPoolId: stack.cognito.userPoolId, Username: email }),
      );
      expect(Groups?.map((g) => g.GroupName)).toEqual(['Users']);
    } finally {
      cognito.destroy();
    }
  });

  // Two administrators moving one user at once (the demo admin's session stands for both).
  it.each([
    ['two', [CONTOSO, FABRIKAM]],
    ['twelve', Array.from({ length: 12 }, (_, i) => [CONTOSO, FABRIKAM, NORTHWIND][i % 3]!)],
  ])(
    '%s simultaneous company changes of the demo user end in exactly the last change’s group, one company in view throughout',
    async (_, targets) => {
      const ca = await readFile(join(quicksightDataDir(dataDir), 'tls', 'cert.pem'), 'utf8');
      const race = await companyRace({ stack, ca, admin: await adminSession(), user });
      const { startedIn, finished, most } = await race.run(targets);
      for (const { status, body } of finished) {
        if (status !== 200)
          expect({ status, error: body.error }).toEqual({ status: 409, error: COMPANY_MESSAGES.changeInProgress });
      }
      const done = finished.filter(({ status }) => status === 200);
      expect(done.length).toBeGreaterThan(0);
      // One after the other: each change found the companies the change before it left.
      let companies = startedIn;
      for (const { target, body } of done) {
        expect(body.before).toEqual(companies);
        companies = [target];
      }
      const last = done.at(-1)!.target;
      expect(await race.groupsOfUser()).toEqual([race.groupOf(last)]);
      expect(await race.companiesInView()).toEqual([last]);
      // Watched while the changes ran: never two companies' groups, never two companies' rows.
      expect(most.looks).toBeGreaterThan(0);
      expect(most.groups).toBeLessThanOrEqual(1);
      expect(most.companiesInView).toBeLessThanOrEqual(1);
    },
  );

  it('keeps stack.json giving a demo account’s current authenticator secret when the account replaces it', async () => {
    const owner = await signInWithSrp(stack, stack.demo.owner);
    const before = (await readStackInfo(dataDir))?.demo.owner.totpSecret;
    expect(before).toBe(stack.demo.owner.totpSecret);
    const cognito = new CognitoIdentityProviderClient({
      endpoint: stack.cognito.endpoint,
      region: stack.region,
      credentials: LOCAL_CREDENTIALS,
    });
    try {
      const { SecretCode: secret } = await cognito.send(
        new AssociateSoftwareTokenCommand({ AccessToken: owner.accessToken }),
      );
      expect(secret).toBeDefined();
      expect(secret).not.toBe(before);
      // While the new one is being set up, its codes are the ones the owner needs (npm run totp says the same).
      await expect.poll(async () => (await readStackInfo(dataDir))?.demo.owner.totpSecret).toBe(secret);
      const verified = await cognito.send(
        new VerifySoftwareTokenCommand({ AccessToken: owner.accessToken, UserCode: currentTotpCode(secret!) }),
      );
      expect(verified.Status).toBe('SUCCESS');
      await expect.poll(async () => (await readStackInfo(dataDir))?.demo.owner.totpSecret).toBe(secret);
      // The other demo accounts keep theirs.
      const after = await readStackInfo(dataDir);
      expect(after).toBeDefined();
      expect(after?.demo.user.totpSecret).toBe(stack.demo.user.totpSecret);
      expect(after?.demo.admin.totpSecret).toBe(stack.demo.admin.totpSecret);
    } finally {
      cognito.destroy();
    }
  });
});
