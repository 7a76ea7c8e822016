import { Spinner } from '../spinner.tsx';

/** The whole-screen 'Loading...' shown while the session or a page is being loaded. */
export function FullPageLoading({ label = 'Loading...' }: { readonly label?: string }) {
  return (
    <div className="center-screen">
      <Spinner label={label} />
    </div>
  );
}
