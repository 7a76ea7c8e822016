import type { PoolContext } from './context.ts';
import { CognitoServiceError } from './errors.ts';
import { confirmSignUpCode, runPostConfirmation } from './operations/users.ts';
import { escapeHtml } from '../shared/html.ts';

/**
 * GET /confirmUser?client_id&user_name&confirmation_code: the link of the sign-up email.
 * It confirms the account like ConfirmSignUp and answers a small page for a person.
 */

export interface HtmlPage {
  status: number;
  html: string;
}

function page(status: number, heading: string, message: string, loginUrl: string): HtmlPage {
  const html = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(heading)}</title>
<style>
body { font-family: system-ui, sans-serif; margin: 0; display: grid; place-items: center; min-height: 100vh; background: #f4f6f8; color: #1a202c; }
main { background: #fff; padding: 2rem 2.5rem; border-radius: 8px; box-shadow: 0 1px 4px rgba(0,0,0,.12); max-width: 32rem; }
h1 { font-size: 1.4rem; margin-top: 0; }
a { color: #1a56db; }
</style>
</head>
<body>
<main>
<h1>${escapeHtml(heading)}</h1>
<p>${escapeHtml(message)}</p>
<p><a href="${escapeHtml(loginUrl)}">Go to sign in</a></p>
</main>
</body>
</html>
`;
  return { status, html };
}

export async function confirmUserPage(context: PoolContext, query: URLSearchParams): Promise<HtmlPage> {
  const loginUrl = `${context.webUrl.replace(/\/+$/, '')}/login`;
  const clientId = query.get('client_id');
  const username = query.get('user_name');
  const code = query.get('confirmation_code');
  if (clientId !== context.clientId || !username || !code) {
    return page(
      400,
      'This confirmation link is not valid',
      'The link is incomplete or was not issued for this portal. Please use the link from your latest email.',
      loginUrl,
    );
  }
  let user;
  try {
    user = confirmSignUpCode(context, username, code);
  } catch (error) {
    if (!(error instanceof CognitoServiceError)) throw error;
    return page(400, explain(error).heading, explain(error).message, loginUrl);
  }
  try {
    await runPostConfirmation(context, user, 'PostConfirmation_ConfirmSignUp');
  } catch {
    return page(
      500,
      'Your registration has been confirmed!',
      'Your account could not be fully set up, though. Please contact your administrator.',
      loginUrl,
    );
  }
  return page(
    200,
    'Your registration has been confirmed!',
    'You can now sign in with your email address and password.',
    loginUrl,
  );
}

function explain(error: CognitoServiceError): { heading: string; message: string } {
  switch (error.type) {
    case 'ExpiredCodeException':
      return {
        heading: 'This confirmation link has expired',
        message: 'Links are valid for 24 hours and only the latest one works. Sign up again or ask for a new link.',
      };
    case 'LimitExceededException':
      return { heading: 'Too many attempts', message: 'This link was tried too often. Please ask for a new one.' };
    case 'NotAuthorizedException':
      return { heading: 'Your account is already confirmed', message: 'There is nothing more to do: you can sign in.' };
    default:
      return { heading: 'This confirmation link is not valid', message: 'Please use the link from your latest email.' };
  }
}
