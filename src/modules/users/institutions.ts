import registry from './institutions.json';

/** An entry of the institution registry shipped with the service. */
export interface Institution {
  name: string;
  tier: string;
  type: string;
  domains: string[];
  aliases: string[];
}

const entries = registry.institutions as Institution[];
const byDomain = new Map<string, Institution>();
const byName = new Map<string, Institution>();
for (const entry of entries) {
  for (const domain of entry.domains) byDomain.set(domain, entry);
  for (const alias of [entry.name, ...entry.aliases]) byName.set(normalize(alias), entry);
}

function normalize(text: string) {
  return text.toLowerCase().replace(/[^a-z0-9]+/g, ' ').trim();
}

/**
 * Resolves the institution of a user: first the free-text `institution`, then the email domain
 * (and its parent domains, so `bio.mit.edu` finds `mit.edu`). Returns null when nothing matches;
 * segmentation reports those strings as unresolved.
 */
export function resolveInstitution(institution: string | null | undefined, email: string): Institution | null {
  if (institution) {
    const hit = byName.get(normalize(institution));
    if (hit) return hit;
  }
  let domain = email.split('@')[1]?.toLowerCase() ?? '';
  while (domain.includes('.')) {
    const hit = byDomain.get(domain);
    if (hit) return hit;
    domain = domain.slice(domain.indexOf('.') + 1);
  }
  return null;
}
