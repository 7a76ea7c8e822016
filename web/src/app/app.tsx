import { AuthProvider } from '../lib/auth/auth-provider.tsx';
import { ConfigProvider } from '../lib/config-context.tsx';
import type { RuntimeConfig } from '../lib/config.ts';
import { Toaster } from '../components/toaster.tsx';
import { AppRouter } from './router.tsx';

export function App({ config }: { readonly config: RuntimeConfig }) {
  return (
    <ConfigProvider config={config}>
      <AuthProvider
        userPoolId={config.userPoolId}
        clientId={config.userPoolClientId}
        accountUrl={config.functions.mfa}
        {...(config.cognitoEndpoint ? { endpoint: config.cognitoEndpoint } : {})}
      >
        <AppRouter />
        <Toaster />
      </AuthProvider>
    </ConfigProvider>
  );
}
