import { httpError, type HttpError, type HttpErrorCode } from '@vigil/plugin-sdk';
import type { LaneRefusal } from './lane-types.js';

/** An HttpError as it crosses a thread boundary (a class does not): status, code, message and headers. */
export function refusalOf(err: HttpError): LaneRefusal {
  // Every HttpError is made by httpError from a code with a status, which the main thread reads again from the code.
  return { status: err.status, code: err.code as HttpErrorCode, message: err.message, ...(err.headers ? { headers: { ...err.headers } } : {}) };
}

/** The HttpError a refusal stands for, thrown again on the main thread for the control plane to answer. */
export function httpErrorOf(refusal: LaneRefusal): HttpError {
  return httpError(refusal.code, refusal.message, refusal.headers ? { headers: refusal.headers } : undefined);
}
