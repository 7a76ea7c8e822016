import { Card } from '#web/components/card.tsx';
import { POPULAR_AUTHENTICATOR_APPS } from '#web/lib/sign-in/popular-apps.ts';

export function SecurityInfoCard() {
  return (
    <Card title="Security Information">
      <div className="stack">
        <div>
          <h3>What is MFA?</h3>
          <p>
            Multi-factor authentication adds a second step to signing in: besides your password, you enter a code from
            an app on your phone. A stolen password alone is then not enough to reach your account.
          </p>
        </div>
        <div>
          <h3>How it works</h3>
          <p>
            Your authenticator app shows a new 6-digit code every 30 seconds. When you sign in, enter the current code
            after your password.
          </p>
        </div>
        <div>
          <h3>Recommended apps</h3>
          <ul>
            {POPULAR_AUTHENTICATOR_APPS.map((app) => (
              <li key={app}>{app}</li>
            ))}
          </ul>
        </div>
      </div>
    </Card>
  );
}
