// The one colour scale for error rates, the same on every area's page: a share of failed calls or requests is quiet
// below 1 %, a warning from 1 %, and the danger colour from 5 %.

export type ErrorRateTone = 'neutral' | 'warning' | 'danger';

export const ERROR_RATE_WARNING = 0.01;
export const ERROR_RATE_DANGER = 0.05;

export function errorRateTone(rate: number): ErrorRateTone {
  if (rate >= ERROR_RATE_DANGER) return 'danger';
  if (rate >= ERROR_RATE_WARNING) return 'warning';
  return 'neutral';
}

/** The class an error rate's cell takes: muted at zero, else the tone's text colour. */
export const errorRateClass = (rate: number): string => (rate === 0 ? 'muted' : `tone-${errorRateTone(rate)}`);
