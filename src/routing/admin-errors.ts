// The error declarations several admin routes share (their OpenAPI document lists them per route).
export const NOT_FOUND = { status: 404, code: 'not_found' };
export const OPERATION_REFUSED = { status: 422, code: 'operation_refused' };
