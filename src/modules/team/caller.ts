import type { FastifyRequest } from 'fastify';
import { authOf, operatorIdOf } from '../../platform/auth-guard.js';

/** The caller of an operator route, with the account it acts for. */
export function callerOf(request: FastifyRequest) {
  return { ...authOf(request), operatorId: operatorIdOf(request) };
}
