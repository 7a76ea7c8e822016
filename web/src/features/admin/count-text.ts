/** A count with its noun in the right number: '1 admin', '2 admins', '1,204 users'. */
export const countText = (count: number, one: string, many: string) =>
  `${count.toLocaleString()} ${count === 1 ? one : many}`;
