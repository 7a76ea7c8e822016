import { Component, type ErrorInfo, type ReactNode } from 'react';
import { Alert } from '../alert.tsx';
import { Button } from '../button.tsx';

interface State {
  readonly failed: boolean;
}

/** Catches a page that failed to load or render, and offers a reload. */
export class RouteErrorBoundary extends Component<{ readonly children: ReactNode }, State> {
  override state: State = { failed: false };

  static getDerivedStateFromError(): State {
    return { failed: true };
  }

  override componentDidCatch(error: Error, info: ErrorInfo) {
    console.error('Page error:', error.message, info.componentStack);
  }

  override render() {
    if (!this.state.failed) return this.props.children;
    return (
      <div className="center-screen">
        <Alert tone="error" title="This page could not be loaded.">
          <p>Check your connection and reload the page.</p>
          <div>
            <Button variant="secondary" onClick={() => window.location.reload()}>
              Reload
            </Button>
          </div>
        </Alert>
      </div>
    );
  }
}
