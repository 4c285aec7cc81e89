/**
 * `lookup` once per key for the life of the process, sharing the answer while it is pending; an
 * answer that is not `ok` is forgotten, so the next call tries again (a tool installed meanwhile).
 */
export function rememberSuccess<Result extends { readonly ok: boolean }>(lookup: (key: string) => Promise<Result>): (key: string) => Promise<Result> {
  const remembered = new Map<string, Promise<Result>>();
  return (key) => {
    let answer = remembered.get(key);
    if (!answer) {
      answer = lookup(key);
      remembered.set(key, answer);
      void answer.then((result) => {
        if (!result.ok) remembered.delete(key);
      });
    }
    return answer;
  };
}
