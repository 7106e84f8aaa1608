/**
 * The demo's made-up world: tenants with API keys, the people in its user database, the cards they pay with and the
 * catalogue they buy from. The demo API (demo-api.ts) and the traffic (traffic.ts) share it, and the demo's test
 * reads the cards and emails to prove that none of them is ever stored in clear.
 */
import { randomBytes } from 'node:crypto';

export interface Tenant {
  id: string;
  name: string;
  /** Share of the traffic, relative to the other tenants. */
  weight: number;
  /** The API key its clients send as `Authorization: Bearer …`: made per run, so none is ever committed. */
  key: string;
  /** How much it calls the completion endpoint, relative to the mix (0 = never). */
  llm: number;
}

const key = (tenant: string): string => `demo_${tenant}_${randomBytes(12).toString('base64url')}`;

export const TENANTS: readonly Tenant[] = [
  { id: 'acme', name: 'Acme Corp', weight: 34, key: key('acme'), llm: 1.5 },
  { id: 'globex', name: 'Globex', weight: 24, key: key('globex'), llm: 1 },
  { id: 'initech', name: 'Initech', weight: 18, key: key('initech'), llm: 0.4 },
  { id: 'umbrella', name: 'Umbrella Health', weight: 14, key: key('umbrella'), llm: 2 },
  { id: 'hooli', name: 'Hooli', weight: 10, key: key('hooli'), llm: 0.8 },
];

/** A key the API revoked: clients that still send it get 401. */
export const REVOKED_KEY = `demo_revoked_${randomBytes(12).toString('base64url')}`;
/** The operators' key, the only one the admin routes accept. */
export const ADMIN_KEY = `demo_admin_${randomBytes(12).toString('base64url')}`;

export interface Person {
  id: string;
  name: string;
  email: string;
  phone: string;
  city: string;
  country: string;
}

const NAMES: readonly [string, string, string][] = [
  ['Ada Lovelace', 'London', 'GB'], ['Grace Hopper', 'Arlington', 'US'], ['Alan Turing', 'Manchester', 'GB'],
  ['Katherine Johnson', 'Hampton', 'US'], ['Edsger Dijkstra', 'Eindhoven', 'NL'], ['Barbara Liskov', 'Boston', 'US'],
  ['Hedy Lamarr', 'Vienna', 'AT'], ['Donald Knuth', 'Stanford', 'US'], ['Margaret Hamilton', 'Cambridge', 'US'],
  ['Tim Berners-Lee', 'Geneva', 'CH'], ['Frances Allen', 'Peru', 'US'], ['Niklaus Wirth', 'Zurich', 'CH'],
  ['Radia Perlman', 'Seattle', 'US'], ['Ken Thompson', 'Berkeley', 'US'], ['Sophie Wilson', 'Cambridge', 'GB'],
  ['Leslie Lamport', 'Palo Alto', 'US'], ['Annie Easley', 'Cleveland', 'US'], ['John Backus', 'Ashland', 'US'],
  ['Adele Goldberg', 'Cleveland', 'US'], ['Bjarne Stroustrup', 'Aarhus', 'DK'], ['Karen Spärck Jones', 'Huddersfield', 'GB'],
  ['Guido van Rossum', 'Haarlem', 'NL'], ['Mary Kenneth Keller', 'Cleveland', 'US'], ['Linus Torvalds', 'Helsinki', 'FI'],
];

export const PEOPLE: readonly Person[] = NAMES.map(([name, city, country], i) => {
  const [first, ...rest] = name.toLowerCase().normalize('NFD').replace(/[\u0300-\u036f]/g, '').split(' ');
  return {
    id: `usr_${(1042 + i * 37).toString(36)}`,
    name,
    email: `${first}.${rest.join('').replace(/[^a-z]/g, '')}@example.com`,
    phone: `+44 20 7946 0${String(100 + i * 17).slice(-3)}`,
    city,
    country,
  };
});

/**
 * What a charge with this card does at the demo's payment processor: the numbers are the public test cards of card
 * processors (Luhn-valid, so the policy's detectors find them), and the outcome follows the card, as in their
 * sandboxes.
 */
export type CardOutcome = 'succeeded' | 'declined' | 'insufficient_funds' | 'processor_error';

export interface Card {
  number: string;
  brand: string;
  outcome: CardOutcome;
}

export const CARDS: readonly Card[] = [
  { number: '4242424242424242', brand: 'visa', outcome: 'succeeded' },
  { number: '4111111111111111', brand: 'visa', outcome: 'succeeded' },
  { number: '5555555555554444', brand: 'mastercard', outcome: 'succeeded' },
  { number: '378282246310005', brand: 'amex', outcome: 'succeeded' },
  { number: '6011111111111117', brand: 'discover', outcome: 'succeeded' },
  { number: '4000000000000002', brand: 'visa', outcome: 'declined' },
  { number: '4000000000009995', brand: 'visa', outcome: 'insufficient_funds' },
  { number: '4000000000000119', brand: 'visa', outcome: 'processor_error' },
];

/** Every way the traffic writes a card number: as digits, and grouped by spaces or dashes as people type them. */
export function cardSpellings(number: string): string[] {
  const groups = number.length === 15 ? [4, 6, 5] : [4, 4, 4, 4];
  const parts: string[] = [];
  let at = 0;
  for (const g of groups) { parts.push(number.slice(at, at + g)); at += g; }
  return [number, parts.join(' '), parts.join('-')];
}

export interface Product {
  sku: string;
  name: string;
  /** Minor units (cents). */
  price: number;
}

export const PRODUCTS: readonly Product[] = [
  { sku: 'KB-101', name: 'Mechanical keyboard', price: 12900 },
  { sku: 'MS-220', name: 'Wireless mouse', price: 4900 },
  { sku: 'MN-270', name: '27" monitor', price: 32900 },
  { sku: 'HD-310', name: 'Noise-cancelling headphones', price: 24900 },
  { sku: 'CB-004', name: 'USB-C cable, 2 m', price: 1490 },
  { sku: 'DK-550', name: 'Docking station', price: 18900 },
  { sku: 'WC-120', name: 'Webcam 1080p', price: 6900 },
  { sku: 'CH-900', name: 'Ergonomic chair', price: 45900 },
];

export const SEARCH_TERMS: readonly string[] = [
  'keyboard', 'usb-c', 'monitor 27', 'headphones', 'dock', 'chair', 'webcam', 'cable', 'standing desk', 'mouse pad',
];
