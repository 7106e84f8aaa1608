// Made-up values that read like real data, chosen by a string's format or its property's name. Every pick comes from
// the caller's seeded dice, so one seed always tells the same story.
import type { Random } from '@vigil/plugin-sdk';

const FIRST = ['Ada', 'Ben', 'Chloe', 'Daniel', 'Elena', 'Farid', 'Grace', 'Hiro', 'Ines', 'Jonas', 'Kavya', 'Liam', 'Maya', 'Noah', 'Olga', 'Priya', 'Quinn', 'Rosa', 'Sami', 'Tara'];
const LAST = ['Lovelace', 'Okafor', 'Martin', 'Schmidt', 'Rossi', 'Haddad', 'Hopper', 'Tanaka', 'Garcia', 'Berg', 'Iyer', 'Murphy', 'Cohen', 'Nguyen', 'Petrova', 'Shah', 'Walsh', 'Moreau', 'Khan', 'Silva'];
const CITIES = ['Lisbon', 'Berlin', 'Toronto', 'Osaka', 'Nairobi', 'Austin', 'Lyon', 'Melbourne', 'Bergen', 'Pune', 'Porto', 'Denver'];
const COUNTRIES = [['Portugal', 'PT'], ['Germany', 'DE'], ['Canada', 'CA'], ['Japan', 'JP'], ['Kenya', 'KE'], ['United States', 'US'], ['France', 'FR'], ['Australia', 'AU']] as const;
const STREETS = ['Maple Street', 'Harbour Road', 'Station Lane', 'Elm Avenue', 'Mill Road', 'Church Street', 'Park View'];
const COMPANIES = ['Northwind Traders', 'Acme Robotics', 'Bluebird Labs', 'Granite Logistics', 'Juniper Health', 'Solstice Media'];
const WORDS = ['amber', 'brisk', 'cedar', 'delta', 'ember', 'fjord', 'garnet', 'harbor', 'indigo', 'juniper', 'kestrel', 'lumen', 'meadow', 'nimbus', 'orchid', 'pylon'];
const PRODUCTS = ['Wireless Mouse', 'Standing Desk', 'Espresso Grinder', 'Trail Backpack', 'Desk Lamp', 'Noise-Cancelling Headphones', 'Yoga Mat', 'Cast Iron Pan'];
const SENTENCES = [
  'Ships within two business days.', 'Prefers email over phone calls.', 'Renewed for another year.',
  'Follow up after the quarterly review.', 'Handle with care: fragile contents.', 'Requested an invoice in the name of the company.',
];
const STATUSES = ['active', 'pending', 'completed', 'archived'];
const CURRENCIES = ['USD', 'EUR', 'GBP', 'JPY', 'CAD'];
const DOMAINS = ['example.com', 'example.org', 'example.net'];
/** The networks' published test numbers: Luhn-valid, never chargeable. */
const TEST_CARDS = ['4111 1111 1111 1111', '5555 5555 5555 4444', '3782 822463 10005', '6011 1111 1111 1117'];

const pick = <T>(items: readonly T[], random: Random): T => items[Math.floor(random() * items.length)];
const int = (min: number, max: number, random: Random): number => min + Math.floor(random() * (max - min + 1));
const hex = (n: number, random: Random): string => Array.from({ length: n }, () => Math.floor(random() * 16).toString(16)).join('');
const lower = (s: string): string => s.toLowerCase().replace(/[^a-z0-9]+/g, '');

/** A RFC 4122 version-4 shaped uuid from the dice (not random: seeded). */
export const uuid = (random: Random): string => `${hex(8, random)}-${hex(4, random)}-4${hex(3, random)}-${'89ab'[int(0, 3, random)]}${hex(3, random)}-${hex(12, random)}`;

/** A moment in 2024-2025, as ms: recent enough to look live, fixed per seed. */
const moment = (random: Random): number => Date.UTC(2024, 0, 1) + Math.floor(random() * 730 * 86_400) * 1000;

/** A string in `format`, or undefined when the format says nothing about the value. */
export function stringForFormat(format: string, random: Random): string | undefined {
  switch (format) {
    case 'email': return `${lower(pick(FIRST, random))}.${lower(pick(LAST, random))}@${pick(DOMAINS, random)}`;
    case 'uuid': return uuid(random);
    case 'date-time': return new Date(moment(random)).toISOString().replace('.000Z', 'Z');
    case 'date': return new Date(moment(random)).toISOString().slice(0, 10);
    case 'time': return new Date(moment(random)).toISOString().slice(11, 19) + 'Z';
    case 'uri': case 'url': case 'uri-reference': case 'iri': return `https://${pick(DOMAINS, random)}/${pick(WORDS, random)}/${int(1, 999, random)}`;
    case 'hostname': return `${pick(WORDS, random)}.${pick(DOMAINS, random)}`;
    case 'ipv4': return `${int(10, 192, random)}.${int(0, 255, random)}.${int(0, 255, random)}.${int(1, 254, random)}`;
    case 'ipv6': return `2001:db8:${hex(4, random)}::${hex(4, random)}`;
    case 'byte': return Buffer.from(`${pick(WORDS, random)} ${pick(WORDS, random)}`).toString('base64');
    case 'card-like': return pick(TEST_CARDS, random);
    case 'password': return `${pick(WORDS, random)}-${hex(6, random)}-${pick(WORDS, random)}`.replace(/^./, (c) => c.toUpperCase());
    default: return undefined;
  }
}

/** The property name's words, lowercase: `avatarUrl` and `avatar_url` are both `avatar url`. */
const words = (name: string): string => name.replace(/([a-z0-9])([A-Z])/g, '$1 $2').replace(/[_\-.]+/g, ' ').toLowerCase().trim();

/** What a `name` or `title` is, by the object it belongs to: a product's name is not a person's. */
function nameByOwner(owner: string, random: Random): string | undefined {
  const o = words(owner);
  if (/\b(product|item|article|sku|good|line)\b/.test(o)) return pick(PRODUCTS, random);
  if (/\b(company|organi[sz]ation|org|vendor|merchant|account|team|tenant|customer)\b/.test(o)) return pick(COMPANIES, random);
  if (/\b(city|place|location|station|store|branch|site|region)\b/.test(o)) return pick(CITIES, random);
  if (/\b(project|repo|repository|plan|tag|category|label|group|channel|topic)\b/.test(o)) return `${pick(WORDS, random)}-${pick(WORDS, random)}`;
  return undefined;
}

/**
 * A string that fits a property called `name` of an object called `owner` (the property, path segment or collection
 * it came from), or undefined when the name says nothing recognisable.
 */
export function stringForName(name: string, random: Random, owner = ''): string | undefined {
  const w = words(name);
  if (owner && /^(name|title|display name)$/.test(w)) {
    const owned = nameByOwner(owner, random);
    if (owned) return owned;
  }
  const first = pick(FIRST, random);
  const last = pick(LAST, random);
  if (/\bemail\b|\bmail\b/.test(w)) return stringForFormat('email', random);
  if (/\b(uuid|guid)\b/.test(w)) return uuid(random);
  if (/\b(first name|given name|firstname)\b/.test(w)) return first;
  if (/\b(last name|family name|surname|lastname)\b/.test(w)) return last;
  if (/\b(user ?name|login|handle|screen name)\b/.test(w)) return `${lower(first)}${int(1, 99, random)}`;
  if (/\b(company|organi[sz]ation|org name|employer|vendor|merchant)\b/.test(w)) return pick(COMPANIES, random);
  if (/\b(product|item name)\b/.test(w)) return pick(PRODUCTS, random);
  if (/^(full name|display name|name|contact name|customer name|author)$/.test(w)) return `${first} ${last}`;
  if (/\bcity\b|\btown\b/.test(w)) return pick(CITIES, random);
  if (/\bcountry (code|iso)\b/.test(w)) return pick(COUNTRIES, random)[1];
  if (/\bcountry\b/.test(w)) return pick(COUNTRIES, random)[0];
  if (/\b(street|address line|address)\b/.test(w)) return `${int(1, 250, random)} ${pick(STREETS, random)}`;
  if (/\b(zip|postal code|postcode|zip code)\b/.test(w)) return String(int(10000, 99999, random));
  if (/\b(phone|mobile|tel|telephone|fax)\b/.test(w)) return `+1-555-01${String(int(0, 99, random)).padStart(2, '0')}`;
  if (/\b(url|uri|link|website|homepage|href)\b/.test(w)) return stringForFormat('uri', random);
  if (/\b(avatar|image|photo|picture|thumbnail|logo)\b/.test(w)) return `https://${pick(DOMAINS, random)}/images/${hex(8, random)}.png`;
  if (/\b(ip|ip address|ipv4)\b/.test(w)) return stringForFormat('ipv4', random);
  if (/\bcurrency\b/.test(w)) return pick(CURRENCIES, random);
  if (/\b(colou?r)\b/.test(w)) return `#${hex(6, random)}`;
  if (/\bslug\b/.test(w)) return `${pick(WORDS, random)}-${pick(WORDS, random)}`;
  if (/\b(sku|code|reference|ref)\b/.test(w)) return `${pick(WORDS, random).slice(0, 3).toUpperCase()}-${int(1000, 9999, random)}`;
  if (/\b(token|secret|key|hash|checksum)\b/.test(w)) return hex(32, random);
  if (/\bstatus\b|\bstate\b/.test(w)) return pick(STATUSES, random);
  if (/\b(at|on|date|time|timestamp)$/.test(w) || /^(created|updated|deleted|modified|expires)\b/.test(w)) return stringForFormat('date-time', random);
  if (/\b(title|subject|headline|label)\b/.test(w)) return `${cap(pick(WORDS, random))} ${pick(WORDS, random)} ${pick(['plan', 'report', 'review', 'update', 'launch'], random)}`;
  if (/\b(description|bio|summary|note|notes|comment|message|text|body|content|details)\b/.test(w)) return pick(SENTENCES, random);
  if (/\b(id|identifier)$/.test(w)) return `${pick(WORDS, random).slice(0, 3)}_${hex(10, random)}`;
  if (/\b(locale|language|lang)\b/.test(w)) return pick(['en-US', 'de-DE', 'fr-FR', 'ja-JP', 'pt-PT'], random);
  if (/\b(timezone|time zone|tz)\b/.test(w)) return pick(['Europe/Lisbon', 'America/Toronto', 'Asia/Tokyo', 'UTC'], random);
  return undefined;
}

const cap = (s: string): string => s.charAt(0).toUpperCase() + s.slice(1);

/** A plain word or two: the last resort for a string. */
export const plainString = (random: Random): string => `${pick(WORDS, random)} ${pick(WORDS, random)}`;

/** A number that fits a property called `name` (within [min, max]), or undefined when the name says nothing. */
export function numberForName(name: string, integer: boolean, random: Random): number | undefined {
  const w = words(name);
  const money = /\b(price|amount|total|subtotal|cost|balance|fee|tax|salary|revenue|discount)\b/.test(w);
  if (money) return integer ? int(100, 50_000, random) : int(100, 50_000, random) / 100;
  if (/\b(quantity|qty|count|items|seats|units)\b/.test(w)) return int(1, 10, random);
  if (/\bage\b/.test(w)) return int(18, 80, random);
  if (/\b(year)\b/.test(w)) return int(2015, 2025, random);
  if (/\b(rating|stars|score)\b/.test(w)) return integer ? int(1, 5, random) : int(10, 50, random) / 10;
  if (/\b(lat|latitude)\b/.test(w)) return integer ? int(-90, 90, random) : int(-90_000, 90_000, random) / 1000;
  if (/\b(lng|lon|long|longitude)\b/.test(w)) return integer ? int(-180, 180, random) : int(-180_000, 180_000, random) / 1000;
  if (/\b(percent|percentage|ratio)\b/.test(w)) return integer ? int(0, 100, random) : int(0, 100, random) / 100;
  if (/\b(page)\b/.test(w)) return 1;
  if (/\b(limit|per page|page size|size)\b/.test(w)) return 20;
  if (/\b(id)$/.test(w)) return int(1, 9999, random);
  return undefined;
}
