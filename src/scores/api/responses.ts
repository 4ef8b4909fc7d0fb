import type { ApiResponse } from '../../transports/http/handoff/index.js';

export function jsonResponse(status: number, value: unknown): ApiResponse {
  return { status, headers: [['Content-Type', 'application/json; charset=utf-8']], body: JSON.stringify(value) };
}
