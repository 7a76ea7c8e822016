import type { MfaStatus } from '../../../../../contracts/mfa.ts';
import { Badge } from '../../../components/badge.tsx';
import { Button } from '../../../components/button.tsx';
import { Card } from '../../../components/card.tsx';

/** Software tokens have no delivery medium worth showing. */
const deviceLabel = (medium: string) => (!medium || medium === 'SOFTWARE_TOKEN' ? 'Software Token' : medium);

export interface MfaStatusCardProps {
  readonly status: MfaStatus;
  readonly onEnable: () => void;
  readonly onDisable: () => void;
}

export function MfaStatusCard({ status, onEnable, onDisable }: MfaStatusCardProps) {
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
        {status.mfaEnabled ? (
          <>
            <p className="text-muted">
              Sign-in to this portal requires an authenticator. If you disable MFA, you will set up a new authenticator
              the next time you sign in.
            </p>
            <div>
              <Button variant="danger" onClick={onDisable}>
                Disable MFA
              </Button>
            </div>
          </>
        ) : (
          <div>
            <Button onClick={onEnable}>Enable MFA</Button>
          </div>
        )}
      </div>
    </Card>
  );
}
