import { useLayoutEffect, useRef } from 'react';
import { PHONE_QUERY, useMediaQuery } from '#web/lib/use-media-query.ts';

/** The least a phone's frame gets (a phone turned sideways), in CSS pixels. */
const MIN_PHONE_FRAME_PX = 320;

/**
 * On a phone the dashboard frame takes the height the screen has left under the header, the
 * navigation and the toolbar, less what stays under the frame (its footer, the page's margin):
 * the page itself then does not scroll, only the dashboard does. Larger screens keep the fixed
 * heights of the stylesheet (600 to 900 px). The height is kept as --phone-frame-height on the
 * returned element and follows the window's size.
 */
export function usePhoneFrameHeight<T extends HTMLElement>(contentShown: boolean) {
  const phone = useMediaQuery(PHONE_QUERY);
  const ref = useRef<T>(null);
  useLayoutEffect(() => {
    const embed = ref.current;
    if (!embed) return;
    if (!phone || !contentShown) {
      embed.style.removeProperty('--phone-frame-height');
      return;
    }
    const fit = () => {
      const frame = embed.querySelector<HTMLElement>('.embed-frame');
      if (!frame) return;
      const box = frame.getBoundingClientRect();
      const top = box.top + window.scrollY;
      const below = document.documentElement.scrollHeight - (box.bottom + window.scrollY);
      const height = Math.max(MIN_PHONE_FRAME_PX, Math.floor(window.innerHeight - top - below));
      embed.style.setProperty('--phone-frame-height', `${height}px`);
    };
    fit();
    window.addEventListener('resize', fit);
    return () => window.removeEventListener('resize', fit);
  }, [phone, contentShown]);
  return ref;
}
