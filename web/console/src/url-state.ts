import { useNavigate, useSearch } from '@tanstack/react-router';

type View<K extends string> = Record<K, string>;
/** Numbers and flags are put as such (`?offset=25&shared=true`): a text the router could read as JSON it would quote. */
type SetView<K extends string> = (patch: Partial<Record<K, string | number | boolean>>, options?: { replace?: boolean }) => void;

/**
 * A page's view kept in the URL's query (`/trajectories?lab=…&source=cli`), so that a reload, a
 * shared link and back/forward show the same view. Each of `keys` reads as text, whatever the
 * router parsed it to (it reads `?offset=25` as a number), '' when absent; setting '', 0 or false
 * takes it out of the URL. Other parameters of the page are kept. Typing changes the view with `replace`, so
 * that Back does not step through every keystroke.
 */
export function useUrlState<K extends string>(keys: readonly K[]): [View<K>, SetView<K>] {
  const search = useSearch({ strict: false }) as Record<string, unknown>;
  const navigate = useNavigate();
  const view = Object.fromEntries(
    keys.map((key) => {
      const value = search[key];
      return [key, value === undefined || value === null ? '' : String(value)];
    }),
  ) as View<K>;
  const setView: SetView<K> = (patch, options) =>
    void navigate({
      to: '.',
      replace: options?.replace,
      search: ((previous: Record<string, unknown>) => {
        const next = { ...previous };
        for (const [key, value] of Object.entries(patch) as [string, string | number | boolean | undefined][]) {
          if (value) next[key] = value;
          else delete next[key];
        }
        return next;
      }) as never,
    });
  return [view, setView];
}

/** A non-negative whole number from the URL ('' or anything else: 0). */
export const offsetOf = (text: string) => (/^\d{1,9}$/.test(text) ? Number(text) : 0);
