import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  frameErrorMessage,
  guardFrameOrigin,
  isFrameMessage,
} from '#web/features/dashboard/components/frame-messages.ts';
import { companyValues } from '#web/features/dashboard/components/use-dashboard-experience.ts';

const EMBED_ORIGIN = 'https://us-east-2.quicksight.aws.amazon.com';
const event = { eventName: 'CONTENT_LOADED', eventTarget: { experienceType: 'DASHBOARD' }, message: {} };

describe('frame messages', () => {
  let removeGuard = () => undefined as void;
  afterEach(() => removeGuard());

  it('lets the SDK see frame messages from the embed URL origin only', () => {
    const seen = vi.fn();
    removeGuard = guardFrameOrigin(window, EMBED_ORIGIN);
    // The SDK's listener, added after the guard (and bubbling, as the SDK adds it).
    window.addEventListener('message', seen);
    window.dispatchEvent(new MessageEvent('message', { data: event, origin: 'https://evil.example' }));
    window.dispatchEvent(
      new MessageEvent('message', {
        data: { eventName: 'X', eventId: 'e1', message: { success: true } },
        origin: 'http://localhost:5173',
      }),
    );
    expect(seen).not.toHaveBeenCalled();
    window.dispatchEvent(new MessageEvent('message', { data: event, origin: EMBED_ORIGIN }));
    expect(seen).toHaveBeenCalledTimes(1);
    // Messages that are not the SDK's pass whatever their origin (other code's business).
    window.dispatchEvent(new MessageEvent('message', { data: 'hello', origin: 'https://evil.example' }));
    expect(seen).toHaveBeenCalledTimes(2);
    window.removeEventListener('message', seen);
  });

  it('recognises events and answers of the SDK protocol', () => {
    expect(isFrameMessage(event)).toBe(true);
    expect(isFrameMessage({ eventName: 'INITIATE_PRINT', eventId: 'id', message: { success: true } })).toBe(true);
    expect(isFrameMessage({ eventName: 'CONTENT_LOADED' })).toBe(false);
    expect(isFrameMessage(null)).toBe(false);
  });

  it.each([
    ['Forbidden', 'The dashboard link has expired or was already used.'],
    ['Unauthorized', 'The dashboard session has ended.'],
    ['Throttled', 'QuickSight could not show the dashboard (Throttled).'],
    ['<script>', 'QuickSight could not show the dashboard.'],
    [undefined, 'QuickSight could not show the dashboard.'],
  ])('maps errorCode %s to the error panel text', (code, text) => {
    expect(frameErrorMessage(code)).toBe(text);
  });
});

describe('company choice', () => {
  const companies = ['Acme', 'Birch'];
  it('sends one of the owner companies, or all of them, and nothing else', () => {
    expect(companyValues('Birch', companies)).toEqual(['Birch']);
    expect(companyValues('', companies)).toEqual(['Acme', 'Birch']);
    expect(companyValues('Cedar', companies)).toBeUndefined();
    expect(companyValues('', [])).toBeUndefined();
  });
});
