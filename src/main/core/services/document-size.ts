/**
 * The number of values in a parsed document once every shared value is counted each time it is
 * used, or `Infinity` past `limit` (or when a value contains itself). A YAML alias is one shared
 * object after parsing: a 2 KB "billion laughs" parses fast and small, and only an expanding walk
 * (copying schemas, serialising) explodes. Counting with one memo per object stays linear in the
 * parsed size. Iterative, so a document nested 20 000 deep does not overflow the stack.
 */
export function expandedSize(root: unknown, limit: number): number {
  if (typeof root !== 'object' || root === null) return 1;
  const done = new Map<object, number>();
  const open = new Set<object>();
  type Frame = { node: object; children: unknown[]; next: number; sum: number };
  const frame = (node: object): Frame => ({ node, children: Object.values(node), next: 0, sum: 1 });
  const stack: Frame[] = [frame(root)];
  open.add(root);
  while (stack.length > 0) {
    const top = stack[stack.length - 1] as Frame;
    if (top.next < top.children.length) {
      const child = top.children[top.next++];
      if (typeof child !== 'object' || child === null) top.sum++;
      else if (done.has(child)) top.sum += done.get(child) as number;
      else if (open.has(child)) return Infinity;
      else {
        open.add(child);
        stack.push(frame(child));
        continue;
      }
      if (top.sum > limit) return Infinity;
      continue;
    }
    stack.pop();
    open.delete(top.node);
    done.set(top.node, top.sum);
    const parent = stack[stack.length - 1];
    if (parent) {
      parent.sum += top.sum;
      if (parent.sum > limit) return Infinity;
    } else return top.sum;
  }
  return done.get(root) ?? 1;
}
