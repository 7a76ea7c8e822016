import type { MfaStatus } from '#contracts/mfa.ts';
import { Badge } from '#web/components/badge.tsx';
import { Button } from '#web/components/button.tsx';
import { Card } from '#web/components/card.tsx';

/** Software tokens have no delivery medium worth showing. */
const deviceLabel = (medium: string) => (!medium || medium === 'SOFTWARE_TOKEN' ? 'Software Token' : medium);

export interface MfaStatusCardProps {
  readonly status: MfaStatus;
  readonly onEnable: () => void;
  /** Only where MFA is optional: a pool that requires it keeps the authenticator on. */
  readonly onDisable: () => void;
  readonly onReplace: () => void;
}

/**
 * Status, devices and the one action that works in this pool: Enable MFA without an
 * authenticator; with one, Set up a new authenticator where MFA is required (Cognito replaces
 * the old one once a code from the new app is verified), Disable MFA where it is optional.
 */
export function MfaStatusCard({ status, onEnable, onDisable, onReplace }: MfaStatusCardProps) {
  return (
    <Card title="MFA Status">
      <div className="stack">
        <div className="row" style={{ justifyContent: 'space-between' }}>
          <span>Authenticator App (time-based one-time password)</span>
          <Badge tone={status.mfaEnabled ? 'success' : 'danger'}>{status.mfaEnabled ? 'Enabled' : 'Disabled'}</Badge>
        </div>
        <div>
          <h3>Registered devices</h3>
          {status.mfaDevices.length > 0 ? (
            <ul className="device-list">
              {status.mfaDevices.map((device, index) => (
                <li key={`${device.DeliveryMedium}-${index}`}>{deviceLabel(device.DeliveryMedium)}</li>
              ))}
            </ul>
          ) : (
            <p className="text-muted">No devices registered.</p>
          )}
        </div>
        {!status.mfaEnabled && (
          <div>
            <Button onClick={onEnable}>Enable MFA</Button>
          </div>
        )}
        {status.mfaEnabled && status.mfaRequired && (
          <>
            <p className="text-muted">
              Sign-in to this portal requires an authenticator app, so MFA cannot be disabled. If you lost your device
              or want to use another app, set up a new authenticator: your current one keeps working until you verify a
              code from the new one.
            </p>
            <div>
              <Button onClick={onReplace}>Set up a new authenticator</Button>
            </div>
          </>
        )}
        {status.mfaEnabled && !status.mfaRequired && (
          <div>
            {/* Marked destructive in its confirmation, not on the page. */}
            <Button variant="secondary" onClick={onDisable}>
              Disable MFA
            </Button>
          </div>
        )}
      </div>
    </Card>
  );
}
