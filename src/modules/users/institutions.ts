import registry from './institutions.json';

/**
 * An entry of the institution registry shipped with the service (institutions.json, format in
 * docs/api/admin.md, "Institution registry"): a canonical `name`, its `tier` and `type`, the email
 * `domains` it owns (subdomains match too) and other names it goes by (`aliases`).
 */
export interface Institution {
  name: string;
  tier: string;
  type: string;
  domains: string[];
  aliases: string[];
}

/** Abbreviations read as the word they stand for, so "Univ." and "University" are one name. */
const ABBREVIATIONS: Record<string, string> = {
  univ: 'university',
  uni: 'university',
  u: 'university',
  inst: 'institute',
  instit: 'institute',
  tech: 'technology',
  natl: 'national',
  nat: 'national',
  lab: 'laboratory',
  labs: 'laboratory',
  ctr: 'center',
  centre: 'center',
  st: 'saint',
  dept: 'department',
};
/** Words that do not tell institutions apart: "University of Oxford" is "University Oxford". */
const FILLER = new Set(['the', 'of', 'at', 'and', 'for', 'de', 'du', 'des', 'der', 'la', 'le']);

/**
 * The form names are compared in: accents dropped (NFKD), lower case, `&` as "and", punctuation
 * as spaces, abbreviations spelt out, filler words dropped. "Univ. of Zürich", "University of
 * Zurich" and "university  zurich" are one name.
 */
export function normalizeInstitutionName(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/&/g, ' and ')
    .replace(/[^a-z0-9]+/g, ' ')
    .split(' ')
    .filter(Boolean)
    .map((word) => ABBREVIATIONS[word] ?? word)
    .filter((word) => !FILLER.has(word))
    .join(' ');
}

const entries = registry.institutions as Institution[];
const byDomain = new Map<string, Institution>();
const byName = new Map<string, Institution>();
for (const entry of entries) {
  for (const domain of entry.domains) claim(byDomain, domain.toLowerCase(), entry, 'domain');
  for (const alias of [entry.name, ...entry.aliases]) claim(byName, normalizeInstitutionName(alias), entry, 'name');
}

/** A registry where two institutions claim one name or domain is a data error: refuse to start. */
function claim(index: Map<string, Institution>, key: string, entry: Institution, what: string) {
  const holder = index.get(key);
  if (holder && holder !== entry)
    throw new Error(`institutions.json: ${what} "${key}" is claimed by both "${holder.name}" and "${entry.name}"`);
  index.set(key, entry);
}

/** The registry entry owning `domain` or one of its parent domains (`bio.mit.edu` → `mit.edu`). */
function byEmailDomain(domain: string): Institution | null {
  let rest = domain.toLowerCase().replace(/^www\./, '');
  while (rest.includes('.')) {
    const hit = byDomain.get(rest);
    if (hit) return hit;
    rest = rest.slice(rest.indexOf('.') + 1);
  }
  return null;
}

/** A domain written as the institution ("mit.edu", "jane@mit.edu", "https://www.mit.edu/"), else null. */
function domainIn(text: string): string | null {
  const trimmed = text.trim().toLowerCase();
  const match = /^(?:[^@\s]+@|https?:\/\/)?([a-z0-9-]+(?:\.[a-z0-9-]+)+)\/?$/.exec(trimmed);
  return match ? match[1] : null;
}

/**
 * Resolves the institution of a user: first the free-text `institution` (a name or alias, in the
 * normalised form, or a domain written there), then the email domain and its parents. Returns
 * null when nothing matches; segmentation reports such `institution` strings as unresolved.
 */
export function resolveInstitution(institution: string | null | undefined, email: string): Institution | null {
  if (institution) {
    const hit = byName.get(normalizeInstitutionName(institution));
    if (hit) return hit;
    const domain = domainIn(institution);
    const byItsDomain = domain ? byEmailDomain(domain) : null;
    if (byItsDomain) return byItsDomain;
  }
  return byEmailDomain(email.split('@')[1] ?? '');
}
