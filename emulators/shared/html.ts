/** Text made safe inside HTML, as element content or a quoted attribute value. */
export const escapeHtml = (value: string): string => value.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);
