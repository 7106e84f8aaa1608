/** What the detectors recognise: values that look sensitive wherever they appear, whatever the field is called. */
export type DetectorKind =
  | 'card_number' | 'jwt' | 'email' | 'aws_access_key_id' | 'private_key' | 'bearer_token' | 'api_key' | 'iban' | 'us_ssn';

/** Every kind, in a stable order (schemas list them; a rule may name any). */
export const DETECTOR_KINDS: readonly DetectorKind[] = [
  'card_number', 'iban', 'email', 'jwt', 'aws_access_key_id', 'private_key', 'bearer_token', 'api_key', 'us_ssn',
];

/** A detected span of a string, in UTF-16 units. */
export interface Detection {
  kind: DetectorKind;
  start: number;
  end: number;
}

export interface Detectors {
  /** Sensitive-looking spans in `value`, sorted by start, without overlaps. */
  detect(value: string): Detection[];
  /** A display form of `value` in which no detected secret appears in clear. */
  maskSample(value: string): string;
  /** `text` with detected spans (of `kinds`, default all) replaced by the marker. */
  redactText(text: string, kinds?: readonly DetectorKind[]): string;
}
